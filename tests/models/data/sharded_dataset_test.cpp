// Tests for the sharded readers and statistics (models/data/sharded_dataset.h): over 1, 2 and 3
// in-process ranks, each rank's rows equal the same rows of read_csv / read_idx, every rank has
// the same layout, and the standardisation statistics have the same bits for any ranks × threads.
#include "models/data/sharded_dataset.h"

#include <gtest/gtest.h>

#include <cmath>
#include <mutex>
#include <vector>

#include "graph/communicator.h"
#include "graph/error.h"
#include "models/data/datasets.h"
#include "models/data/idx.h"
#include "models/data/standard_scaler.h"
#include "models/data/test_files.h"

namespace dagml {
namespace {

using ::dagml::testing::Bytes;
using ::dagml::testing::gzip_bytes;
using ::dagml::testing::make_idx;
using ::dagml::testing::TempDir;
using ::dagml::testing::write_bytes;

struct RankResult {
  IndexRange rows;
  Index layout_rows = 0, layout_chunks = 0;
  int layout_ranks = 0;
  Dataset local;
  ColumnStatistics statistics;
  Tensor standardized;
};

// Runs read(comm) and the sharded statistics on num_ranks in-process ranks; the results by rank.
std::vector<RankResult> run_sharded(int num_ranks, int threads_per_rank,
                                    const std::function<ShardedDataset(Communicator&)>& read) {
  std::vector<RankResult> results(static_cast<std::size_t>(num_ranks));
  run_in_process(
      num_ranks,
      [&](Communicator& comm) {
        ShardedDataset shard = read(comm);
        RankResult& r = results[static_cast<std::size_t>(comm.rank())];
        r.rows = shard.rows;
        r.layout_rows = shard.layout.num_rows();
        r.layout_chunks = shard.layout.num_chunks();
        r.layout_ranks = shard.layout.num_ranks();
        r.statistics = sharded_column_statistics(comm, shard.layout, shard.local.features);
        r.standardized = standardize(shard.local.features, r.statistics);
        r.local = std::move(shard.local);
      },
      {.threads_per_rank = threads_per_rank});
  return results;
}

// Runs rank_main on 2 in-process ranks and expects a rank to fail with a message containing `what`.
void expect_rank_failure(const std::function<void(Communicator&)>& rank_main, const std::string& what) {
  try {
    run_in_process(2, rank_main);
    ADD_FAILURE() << "expected a RankFailedError";
  } catch (const RankFailedError& e) {
    EXPECT_NE(e.reason().find(what), std::string::npos) << e.what();
  }
}

void expect_same_statistics(const ColumnStatistics& a, const ColumnStatistics& b) {
  EXPECT_EQ(a.mean, b.mean);  // exact, NaN-free
  EXPECT_EQ(a.variance, b.variance);
  EXPECT_EQ(a.scale, b.scale);
}

TEST(ShardedDatasetTest, CsvShardsAreTheRowsOfReadCsvAndTheStatisticsDoNotDependOnTheRanks) {
  const auto path = dataset_path("breast_cancer");
  const Dataset whole = read_csv(path);
  const Index n = whole.features.rows();
  SingleProcessCommunicator single;
  const ShardedDataset one = read_sharded_csv(single, path, {}, 7);
  const ColumnStatistics serial = sharded_column_statistics(single, one.layout, one.local.features);
  const Tensor serial_standardized = standardize(whole.features, serial);
  for (const int ranks : {1, 2, 3}) {
    for (const int threads : {1, 2}) {
      SCOPED_TRACE(::testing::Message() << ranks << " ranks × " << threads << " threads");
      const auto results = run_sharded(ranks, threads, [&](Communicator& comm) {
        return read_sharded_csv(comm, path, {}, 7);
      });
      Index next_row = 0;
      for (int r = 0; r < ranks; ++r) {
        const RankResult& rank = results[static_cast<std::size_t>(r)];
        EXPECT_EQ(rank.layout_rows, n);
        EXPECT_EQ(rank.layout_chunks, 7);
        EXPECT_EQ(rank.layout_ranks, ranks);
        EXPECT_EQ(rank.rows.begin, next_row);  // the shards tile the rows in rank order
        next_row = rank.rows.end;
        EXPECT_EQ(rank.local.features, whole.features.middleRows(rank.rows.begin, rank.rows.size()));
        EXPECT_EQ(rank.local.target, whole.target.segment(rank.rows.begin, rank.rows.size()));
        EXPECT_EQ(rank.local.feature_names, whole.feature_names);
        EXPECT_EQ(rank.local.target_names, whole.target_names);
        expect_same_statistics(rank.statistics, serial);
        EXPECT_EQ(rank.standardized, serial_standardized.middleRows(rank.rows.begin, rank.rows.size()));
      }
      EXPECT_EQ(next_row, n);
    }
  }
  // StandardScaler's statistics, to rounding, and scikit-learn's (sharded_reference.py).
  StandardScaler scaler;
  scaler.fit(whole.features);
  for (Index j = 0; j < whole.features.cols(); ++j) {
    EXPECT_NEAR(serial.mean(j), scaler.mean()(j), 1e-12 * std::abs(scaler.mean()(j)));
    EXPECT_NEAR(serial.scale(j), scaler.scale()(j), 1e-12 * scaler.scale()(j));
    EXPECT_NEAR(serial.variance(j), scaler.variance()(j), 1e-12 * scaler.variance()(j));
  }
  EXPECT_NEAR(serial.mean(0), 14.127291739894563, 1e-12 * 14.13);
  EXPECT_NEAR(serial.scale(0), 3.5209507607110626, 1e-12 * 3.52);
  EXPECT_NEAR(serial.mean(3), 654.8891036906857, 1e-12 * 654.9);
  EXPECT_NEAR(serial.scale(3), 351.6047540632298, 1e-12 * 351.6);
  EXPECT_NEAR(serial.mean(29), 0.08394581722319855, 1e-12 * 0.084);
  EXPECT_NEAR(serial.scale(29), 0.018045389308594995, 1e-12 * 0.018);
}

TEST(ShardedDatasetTest, ConstantColumnsAsStandardScaler) {
  // Column a is constant at 0.1 (whose mean by summing is not 0.1 exactly); b is not.
  TempDir dir;
  const auto path = dir / "constant.csv";
  ::dagml::testing::write_text(path, "a,b,y\n0.1,1,0\n0.1,2,1\n0.1,4,0\n0.1,8,1\n0.1,16,0\n0.1,32,1\n0.1,64,0\n");
  StandardScaler scaler;
  scaler.fit(read_csv(path).features);
  for (const int ranks : {1, 2, 3}) {
    const auto results = run_sharded(ranks, 1, [&](Communicator& comm) { return read_sharded_csv(comm, path, {}, 4); });
    for (const RankResult& rank : results) {
      EXPECT_EQ(rank.statistics.mean(0), 0.1);
      EXPECT_EQ(rank.statistics.variance(0), 0.0);
      EXPECT_EQ(rank.statistics.scale(0), 1.0);
      EXPECT_EQ(rank.statistics.mean(0), scaler.mean()(0));
      EXPECT_EQ(rank.statistics.scale(0), scaler.scale()(0));
      // b: μ = 127/7, σ² = (1/7) Σ (x − μ)².
      EXPECT_NEAR(rank.statistics.mean(1), 127.0 / 7, 1e-13);
      EXPECT_NEAR(rank.statistics.scale(1), scaler.scale()(1), 1e-12 * scaler.scale()(1));
      expect_same_statistics(rank.statistics, results[0].statistics);
    }
  }
}

TEST(ShardedDatasetTest, MoreRanksThanChunksLeaveARankWithoutRows) {
  const auto path = dataset_path("iris");
  const Dataset whole = read_csv(path);
  const auto results = run_sharded(3, 1, [&](Communicator& comm) { return read_sharded_csv(comm, path, {}, 2); });
  EXPECT_EQ(results[2].rows.size(), 0);
  EXPECT_EQ(results[2].local.features.rows(), 0);
  EXPECT_EQ(results[2].local.features.cols(), whole.features.cols());
  EXPECT_EQ(results[0].local.features, whole.features.topRows(75));
  EXPECT_EQ(results[1].local.features, whole.features.bottomRows(75));
}

TEST(ShardedDatasetTest, IdxShardsAreTheRowsOfReadIdx) {
  TempDir dir;
  Bytes pixels;
  for (int k = 0; k < 7 * 4; ++k) pixels.push_back(static_cast<unsigned char>(k * 37 % 256));
  write_bytes(dir / "images.gz", gzip_bytes(make_idx(0x08, {7, 2, 2}, pixels)));
  write_bytes(dir / "labels", make_idx(0x08, {7}, {3, 1, 4, 1, 5, 9, 2}));
  const Tensor images = read_idx_images(dir / "images.gz");
  const Vector labels = read_idx_labels(dir / "labels");
  for (const int ranks : {1, 2, 3}) {
    const auto results = run_sharded(ranks, 2, [&](Communicator& comm) {
      return read_sharded_idx(comm, dir / "images.gz", dir / "labels", 3);
    });
    SingleProcessCommunicator single;
    const ColumnStatistics serial = sharded_column_statistics(single, ChunkLayout(7, 3, 1), images);
    for (const RankResult& rank : results) {
      EXPECT_EQ(rank.layout_rows, 7);
      EXPECT_EQ(rank.local.features, images.middleRows(rank.rows.begin, rank.rows.size()));
      EXPECT_EQ(rank.local.target, labels.segment(rank.rows.begin, rank.rows.size()));
      EXPECT_EQ(rank.local.feature_names, (std::vector<std::string>{"px0", "px1", "px2", "px3"}));
      expect_same_statistics(rank.statistics, serial);
    }
  }
  write_bytes(dir / "six_labels", make_idx(0x08, {6}, {3, 1, 4, 1, 5, 9}));
  expect_rank_failure([&](Communicator& comm) { read_sharded_idx(comm, dir / "images.gz", dir / "six_labels", 3); },
                      "as many labels");
}

TEST(ShardedDatasetTest, TextCategoriesAndBadShardsAreErrors) {
  TempDir dir;
  const auto path = dir / "labels.csv";
  ::dagml::testing::write_text(path, "x,label\n1,cat\n2,dog\n");
  expect_rank_failure([&](Communicator& comm) { read_sharded_csv(comm, path, {}, 2); }, "needs numeric columns");
  ::dagml::testing::write_text(path, "x,y\n");
  expect_rank_failure([&](Communicator& comm) { read_sharded_csv(comm, path, {}, 2); }, "expected data records");
  SingleProcessCommunicator single;
  EXPECT_THROW(sharded_column_statistics(single, ChunkLayout(3, 1, 1), Tensor::Zero(2, 1)), ValueError);
  Tensor with_nan = Tensor::Zero(2, 1);
  with_nan(1, 0) = std::nan("");
  EXPECT_THROW(sharded_column_statistics(single, ChunkLayout(2, 1, 1), with_nan), ValueError);
  EXPECT_THROW(standardize(Tensor::Zero(2, 3), {Vector::Zero(2), Vector::Zero(2), Vector::Ones(2)}), ShapeError);
}

}  // namespace
}  // namespace dagml
