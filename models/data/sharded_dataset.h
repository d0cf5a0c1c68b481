// A data set spread over the ranks of a distributed computation: each rank reads only its own
// rows of the file (docs/distributed.md, "Sharded data").
//
// The rows are those of Note [Fixed-order chunk sums] (graph/chunked_sum.h): the n rows in
// min(num_chunks, n) chunks, dealt to the p ranks in contiguous blocks. Rank 0 finds n (counting
// a CSV file's records, reading an IDX file's header) and broadcasts it, so that every rank
// builds the same ChunkLayout(n, num_chunks, p) and reads layout.rank_rows(rank) with
// read_csv_rows or read_idx_rows (models/data/csv.h, idx.h): no rank reads the rows of another,
// nor holds the whole file. Every rank must call the readers together (they are collective).
//
// Standardisation over the shards: sharded_column_statistics gives the column means and
// standard deviations of StandardScaler (models/data/standard_scaler.h: population variance,
// scale 1 and the value itself as mean for a constant column) from two deterministic chunk sums,
//   μⱼ = (1/n) Σ_c Σ_{i∈c} xᵢⱼ,   σⱼ² = (1/n) Σ_c Σ_{i∈c} (xᵢⱼ − μⱼ)²,
// each added in chunk order, so the statistics, and standardize's result for each row, have the
// same bits for any number of ranks and threads (not those of StandardScaler, whose sums are
// grouped differently: they agree to rounding).
#pragma once

#include <filesystem>

#include "graph/chunked_sum.h"
#include "graph/communicator.h"
#include "models/data/csv.h"
#include "models/data/dataset.h"

namespace dagml {

struct ShardedDataset {
  ChunkLayout layout;  // the same on every rank
  IndexRange rows;     // this rank's global rows, layout.rank_rows(rank)
  Dataset local;       // only those rows (names as the whole file's reader gives them)
};

// This rank's rows of a CSV file, by read_csv_rows: the file's data records must be numeric
// (ValueError for categorical options or a text target). Throws as read_csv_rows, and ValueError
// for a file without data records or num_chunks < 1.
ShardedDataset read_sharded_csv(Communicator& comm, const std::filesystem::path& path, const CsvOptions& options,
                                Index num_chunks);

// This rank's rows of an IDX image file (n × h × w) and its label file (n): features
// n × (h·w) (names px0, px1, …), the labels as the target (target_names {"label"}). Throws as
// read_idx_rows, and ValueError when the two files' counts n differ.
ShardedDataset read_sharded_idx(Communicator& comm, const std::filesystem::path& images_path,
                                const std::filesystem::path& labels_path, Index num_chunks);

// The column statistics of StandardScaler (its mean(), variance() and scale()), of the whole
// feature matrix whose rows layout.rank_rows(rank) each rank passes as `local_features`.
struct ColumnStatistics {
  Vector mean, variance, scale;
};
// Collective. ValueError for a non-finite entry (naming its row among the local rows and its
// column), for local
// rows not matching the layout, and for column sums that overflow.
ColumnStatistics sharded_column_statistics(Communicator& comm, const ChunkLayout& layout, const Tensor& local_features);

// (X − μ) / s row by row, as StandardScaler::transform. ShapeError for a column count other than μ's.
Tensor standardize(const Tensor& X, const ColumnStatistics& statistics);

}  // namespace dagml
