#include "models/data/sharded_dataset.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/data/idx.h"
#include "models/data/validate.h"

namespace dagml {
namespace {

// The number of rows as rank 0 finds it (`count`, called on rank 0 only), on every rank.
Index agreed_row_count(Communicator& comm, const std::function<Index()>& count) {
  Index n = comm.rank() == 0 ? count() : 0;
  comm.broadcast(std::span<Index>(&n, 1), 0);
  return n;
}

}  // namespace

ShardedDataset read_sharded_csv(Communicator& comm, const std::filesystem::path& path, const CsvOptions& options,
                                Index num_chunks) {
  const Index n = agreed_row_count(comm, [&] { return count_csv_records(path, options); });
  if (n < 1) throw ValueError(fmt::format("read_sharded_csv: expected data records in '{}', found none", path.string()));
  ChunkLayout layout(n, num_chunks, comm.size());
  const IndexRange rows = layout.rank_rows(comm.rank());
  return {layout, rows, read_csv_rows(path, options, rows)};
}

ShardedDataset read_sharded_idx(Communicator& comm, const std::filesystem::path& images_path,
                                const std::filesystem::path& labels_path, Index num_chunks) {
  // Rank 0 reads both headers: −1 tells every rank that the counts differ.
  const Index n = agreed_row_count(comm, [&] {
    const Index images = read_idx_header(images_path).dims[0], labels = read_idx_header(labels_path).dims[0];
    return images == labels ? images : -1;
  });
  if (n < 0) {
    throw ValueError(fmt::format("read_sharded_idx: expected as many labels in '{}' as images in '{}', found {} and {}",
                                 labels_path.string(), images_path.string(), read_idx_header(labels_path).dims[0],
                                 read_idx_header(images_path).dims[0]));
  }
  if (n < 1) throw ValueError(fmt::format("read_sharded_idx: expected images in '{}', found none", images_path.string()));
  ChunkLayout layout(n, num_chunks, comm.size());
  const IndexRange rows = layout.rank_rows(comm.rank());
  Dataset local;
  local.features = read_idx_image_rows(images_path, rows);
  local.target = read_idx_label_rows(labels_path, rows);
  for (Index j = 0; j < local.features.cols(); ++j) local.feature_names.push_back(fmt::format("px{}", j));
  local.target_names = {"label"};
  local.target_column = "label";
  return {layout, rows, std::move(local)};
}

ColumnStatistics sharded_column_statistics(Communicator& comm, const ChunkLayout& layout, const Tensor& local_features) {
  const char* who = "sharded_column_statistics";
  check_shard(comm, layout, local_features.rows(), who);
  check_finite(local_features, who);
  const Index d = local_features.cols();
  const double n = static_cast<double>(layout.num_rows());
  // Row 0 (on rank 0, whose rows start there) tells a constant column: one whose entries all equal it.
  Vector first_row = comm.rank() == 0 ? Vector(local_features.row(0).transpose()) : Vector::Zero(d);
  comm.broadcast(std::span<double>(first_row.data(), static_cast<std::size_t>(d)), 0);

  // Pass 1, per chunk: Σᵢ xᵢⱼ (entries 0..d−1) and the count of xᵢⱼ ≠ x₀ⱼ (entries d..2d−1).
  const Vector sums = deterministic_chunk_sum(comm, layout, 2 * d, [&](const ChunkRows& chunk, std::span<double> partial) {
    const auto rows = local_features.middleRows(chunk.local_begin, chunk.global.size());
    for (Index i = 0; i < rows.rows(); ++i) {
      for (Index j = 0; j < d; ++j) {
        partial[static_cast<std::size_t>(j)] += rows(i, j);
        partial[static_cast<std::size_t>(d + j)] += rows(i, j) != first_row(j) ? 1.0 : 0.0;
      }
    }
  });
  ColumnStatistics s{Vector(d), Vector::Zero(d), Vector::Ones(d)};
  for (Index j = 0; j < d; ++j) {
    const bool constant = sums(d + j) == 0;
    s.mean(j) = constant ? first_row(j) : sums(j) / n;
    if (!std::isfinite(s.mean(j))) {
      throw ValueError(fmt::format("{}: the sum of column {} overflows: expected values whose sum is finite", who, j));
    }
  }
  // Pass 2, per chunk: Σᵢ (xᵢⱼ − μⱼ)².
  const Vector squares = deterministic_chunk_sum(comm, layout, d, [&](const ChunkRows& chunk, std::span<double> partial) {
    const auto rows = local_features.middleRows(chunk.local_begin, chunk.global.size());
    for (Index i = 0; i < rows.rows(); ++i) {
      for (Index j = 0; j < d; ++j) {
        const double centred = rows(i, j) - s.mean(j);
        partial[static_cast<std::size_t>(j)] += centred * centred;
      }
    }
  });
  for (Index j = 0; j < d; ++j) {
    if (sums(d + j) == 0) continue;  // constant: σ² = 0, s = 1
    s.variance(j) = squares(j) / n;
    if (!std::isfinite(s.variance(j))) {
      throw ValueError(fmt::format("{}: the sum of squares of column {} overflows: expected smaller values", who, j));
    }
    s.scale(j) = std::sqrt(s.variance(j));
  }
  return s;
}

Tensor standardize(const Tensor& X, const ColumnStatistics& statistics) {
  check_columns(X, statistics.mean.size(), "standardize");
  return ((X.rowwise() - statistics.mean.transpose()).array().rowwise() / statistics.scale.transpose().array()).matrix();
}

}  // namespace dagml
