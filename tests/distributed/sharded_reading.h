// The sharded readers under mpirun (tests/distributed/mpi_distributed.cpp): each rank reads its
// rows of the bundled breast-cancer CSV with read_sharded_csv and checks them, the layout and the
// sharded standardisation statistics against the one-process reading of the whole file.
#pragma once

#include <fmt/format.h>

#include <string>
#include <vector>

#include "graph/communicator.h"
#include "graph/error.h"
#include "models/data/csv.h"
#include "models/data/datasets.h"
#include "models/data/sharded_dataset.h"

namespace dagml::testing {

inline void check_sharded_reading(Communicator& comm) {
  const auto fail_unless = [&](bool ok, const std::string& what) {
    if (!ok) throw InternalError(fmt::format("check failed: sharded reading on rank {}: {}", comm.rank(), what));
  };
  constexpr Index kChunks = 16;
  const auto path = dataset_path("breast_cancer");
  const ShardedDataset shard = read_sharded_csv(comm, path, {}, kChunks);
  const Dataset whole = read_csv(path);
  const ChunkLayout expected(whole.features.rows(), kChunks, comm.size());
  fail_unless(shard.layout.num_rows() == expected.num_rows() && shard.layout.num_chunks() == expected.num_chunks() &&
                  shard.layout.num_ranks() == comm.size(),
              "the layout");
  const IndexRange mine = expected.rank_rows(comm.rank());
  fail_unless(shard.rows.begin == mine.begin && shard.rows.end == mine.end, "the rank's rows");
  fail_unless(shard.local.features == whole.features.middleRows(mine.begin, mine.size()) &&
                  shard.local.target == whole.target.segment(mine.begin, mine.size()),
              "the rows read equal read_csv's");
  // The shards tile the rows: every rank's range, gathered, follows the previous one.
  std::vector<double> ranges(2 * static_cast<std::size_t>(comm.size()));
  const std::vector<double> local{static_cast<double>(shard.rows.begin), static_cast<double>(shard.rows.end)};
  comm.allgather(local, std::vector<Index>(static_cast<std::size_t>(comm.size()), 2), ranges);
  for (int r = 0; r < comm.size(); ++r) {
    fail_unless(ranges[2 * static_cast<std::size_t>(r)] == (r == 0 ? 0.0 : ranges[2 * static_cast<std::size_t>(r) - 1]),
                "the ranks' rows follow each other");
  }
  fail_unless(ranges.back() == static_cast<double>(whole.features.rows()), "the ranks' rows end at the last row");
  SingleProcessCommunicator single;
  const ColumnStatistics serial =
      sharded_column_statistics(single, ChunkLayout(whole.features.rows(), kChunks, 1), whole.features);
  const ColumnStatistics sharded = sharded_column_statistics(comm, shard.layout, shard.local.features);
  fail_unless(sharded.mean == serial.mean && sharded.variance == serial.variance && sharded.scale == serial.scale,
              "the sharded column statistics equal the one-process ones bitwise");
  fail_unless(standardize(shard.local.features, sharded) ==
                  standardize(whole.features, serial).middleRows(mine.begin, mine.size()),
              "the standardised rows");
}

}  // namespace dagml::testing
