#include "models/nn/data_parallel.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>

#include "autodiff/derivatives.h"
#include "graph/chunked_sum.h"
#include "graph/error.h"
#include "graph/random.h"

namespace dagml::nn {

DataParallelGradient::DataParallelGradient(Trainable& model, Index x_cols, Index y_cols, Index batch_size,
                                           const DataParallelOptions& options)
    : batch_size_(batch_size), options_(options) {
  if (options.chunks < 1)
    throw ValueError(fmt::format("DataParallelGradient: chunks must be >= 1, found {}", options.chunks));
  if (batch_size < 1)
    throw ValueError(fmt::format("DataParallelGradient: batch_size must be >= 1, found {}", batch_size));
  if (x_cols < 1) throw ValueError(fmt::format("DataParallelGradient: inputs need >= 1 column, found {}", x_cols));
  const Index chunk_rows = (batch_size + options.chunks - 1) / options.chunks;
  // Over p ranks a rank runs at most ⌈chunks/p⌉ chunks of a batch.
  Index num_replicas = options.chunks;
  if (options.communicator != nullptr) {
    const Index p = options.communicator->size();
    if (options.chunks < p)
      throw ValueError(fmt::format("DataParallelGradient: {} chunks over {} ranks; expected chunks >= ranks",
                                   options.chunks, p));
    num_replicas = (options.chunks + p - 1) / p;
  }
  BuildContext ctx(graph_, Mode::Train, derive_seed(options.seed, ~std::uint64_t{0}), options.products);
  const std::vector<Parameter*> parameters = model.parameters();
  replicas_.resize(static_cast<std::size_t>(num_replicas));
  std::vector<Var> wrt;
  for (std::size_t c = 0; c < replicas_.size(); ++c) {
    Replica& r = replicas_[c];
    r.x = graph_.input(fmt::format("x[{}]", c), Tensor::Zero(chunk_rows, x_cols));
    if (y_cols > 0) r.y = graph_.input(fmt::format("y[{}]", c), Tensor::Zero(chunk_rows, y_cols));
    r.loss = model.loss(r.x, r.y, ctx);
    if (!r.loss.shape().is_scalar())
      throw ShapeError(fmt::format("DataParallelGradient: the loss must be 1×1, found {}", to_string(r.loss.shape())));
    r.noise = ctx.take_noise();
    r.statistics = ctx.take_statistics();
    if (c == 0) {
      // θ follows the model's order; the context returns the nodes the loss already uses.
      for (Parameter* p : parameters) parameter_nodes_.emplace_back(p, ctx.parameter(*p));
      if (ctx.parameter_nodes().size() != parameters.size())
        throw ValueError(fmt::format(
            "DataParallelGradient: the loss uses {} distinct parameters but the model lists {} (each exactly once)",
            ctx.parameter_nodes().size(), parameters.size()));
      for (auto& [p, v] : parameter_nodes_) wrt.push_back(v);
    }
    r.grads = gradients(r.loss, wrt);
    std::vector<Var> outputs{r.loss};
    outputs.insert(outputs.end(), r.grads.begin(), r.grads.end());
    for (const StatisticNode& s : r.statistics) outputs.push_back(s.batch_value);
    r.executor = std::make_unique<Executor>(graph_, std::move(outputs));
  }
  if (ctx.parameter_nodes().size() != parameters.size())
    throw ValueError("DataParallelGradient: the replicas of the loss use different parameters");
  // The statistics are written through the model's own (writable) buffers.
  const std::vector<Parameter*> buffers = model.buffers();
  for (const StatisticNode& s : replicas_.front().statistics) {
    const auto it = std::find(buffers.begin(), buffers.end(), s.running);
    if (it == buffers.end())
      throw ValueError(fmt::format(
          "DataParallelGradient: the loss records the running statistic '{}', which the model does not list in "
          "buffers()",
          s.running->name));
    running_.push_back(*it);
  }
  // Parameter values keep their shape, and node values never move: their addresses are stable.
  for (auto& [p, v] : parameter_nodes_) parameter_data_.push_back(graph_.parameter_value(v).data());
  step_workspace_.writes_whole_partials = true;  // compute_over_ranks writes every entry
  constexpr Index kPiece = 16384;
  for (std::size_t k = 0; k < parameter_nodes_.size(); ++k) {
    const Index size = parameter_nodes_[k].first->value.size();
    for (Index begin = 0; begin < size; begin += kPiece)
      pieces_.push_back({k, begin, std::min(kPiece, size - begin), num_parameters_ + begin});
    num_parameters_ += size;
  }
}

template <class F>
void DataParallelGradient::for_each_piece(F&& f) const {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pieces_.size(), 1),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i != r.end(); ++i) f(pieces_[i]);
                    });
}

Vector DataParallelGradient::parameters() const {
  Vector theta(num_parameters_);
  Index offset = 0;
  for (auto& [p, v] : parameter_nodes_) {
    const Tensor& t = v.value();
    theta.segment(offset, t.size()) = Eigen::Map<const Vector>(t.data(), t.size());
    offset += t.size();
  }
  return theta;
}

void DataParallelGradient::set_parameters(const Vector& theta) {
  if (theta.size() != num_parameters_)
    throw ShapeError(fmt::format("DataParallelGradient::set_parameters: expected {} values, found {}", num_parameters_,
                                 theta.size()));
  for_each_piece([&](const Piece& piece) {
    Eigen::Map<Vector>(parameter_data_[piece.index] + piece.begin, piece.size) =
        theta.segment(piece.offset, piece.size);
  });
}

void DataParallelGradient::write_back() const {
  for (auto& [p, v] : parameter_nodes_) p->value = v.value();
}

Scalar DataParallelGradient::compute(const Tensor& X, const Tensor& Y, std::span<const Index> rows, std::uint64_t step,
                                     Vector& gradient) {
  const Index n = static_cast<Index>(rows.size());
  if (n < 1) throw ValueError("DataParallelGradient::compute: empty batch");
  if (n > batch_size_)
    throw ValueError(
        fmt::format("DataParallelGradient::compute: batch of {} rows, planned for at most {}", n, batch_size_));
  const Replica& first = replicas_.front();
  if (X.cols() != first.x.cols())
    throw ShapeError(
        fmt::format("DataParallelGradient::compute: X must have {} columns, found {}", first.x.cols(), X.cols()));
  if (first.y && Y.cols() != first.y.cols())
    throw ShapeError(
        fmt::format("DataParallelGradient::compute: Y must have {} columns, found {}", first.y.cols(), Y.cols()));

  SingleProcessCommunicator single_process;
  return compute_over_ranks(options_.communicator != nullptr ? *options_.communicator : single_process, X, Y, rows,
                            step, gradient);
}

void DataParallelGradient::fold_statistics(std::size_t s, const Tensor& batch_mean) {
  const Scalar momentum = replicas_.front().statistics[s].momentum;
  Tensor& running = running_[s]->value;
  running = (1 - momentum) * running + momentum * batch_mean;
}

void DataParallelGradient::feed(Replica& r, Index c, IndexRange chunk, const Tensor& X, const Tensor& Y,
                                std::span<const Index> rows, std::uint64_t step) {
  const Index m = chunk.size();
  // The chunk's rows of `source` into `input`: in place when it already has m rows (the steady
  // state), else through `buffer` and set_value, which moves the graph's shape version.
  const auto gather = [&](Var input, const Tensor& source, Tensor& buffer) {
    const bool in_place = input.rows() == m;
    Tensor& target = in_place ? graph_.input_value(input) : buffer;
    target.resize(m, source.cols());
    for (Index i = 0; i < m; ++i) target.row(i) = source.row(rows[static_cast<std::size_t>(chunk.begin + i)]);
    if (!in_place) graph_.set_value(input, buffer);
  };
  gather(r.x, X, r.x_buffer);
  if (r.y) gather(r.y, Y, r.y_buffer);
  std::mt19937_64 rng(
      derive_seed(options_.seed, step * static_cast<std::uint64_t>(chunks()) + static_cast<std::uint64_t>(c)));
  for (const NoiseNode& noise : r.noise) {
    draw_noise(noise, m, rng, r.noise_buffer);
    graph_.set_value(noise.input, r.noise_buffer);
  }
}

// The chunk terms s_c = (n_c/n)·[ℓ_c, ∇ℓ_c, batch statistics] of this rank's chunks, summed over
// every rank in chunk order (one process: comm is the one-rank communicator, the same code).
// Feeding a replica whose row count changes moves the graph's shape version, so those feeds run
// first, serially; steady-state feeds (same row count) touch only the replica's own input nodes
// and run inside its parallel task.
Scalar DataParallelGradient::compute_over_ranks(Communicator& comm, const Tensor& X, const Tensor& Y,
                                                std::span<const Index> rows, std::uint64_t step, Vector& gradient) {
  const Index n = static_cast<Index>(rows.size());
  const ChunkLayout layout(n, chunks(), comm.size());
  const IndexRange mine = layout.rank_chunks(comm.rank());
  const auto replica = [&](Index c) -> Replica& { return replicas_[static_cast<std::size_t>(c - mine.begin)]; };
  bool reshaped = false;
  for (Index c = mine.begin; c < mine.end; ++c)
    if (replica(c).x.rows() != layout.chunk_rows(c).size()) reshaped = true;
  if (reshaped)
    for (Index c = mine.begin; c < mine.end; ++c) feed(replica(c), c, layout.chunk_rows(c), X, Y, rows, step);
  if (comm.size() == 1) return compute_in_process(layout, X, Y, rows, step, reshaped, gradient);
  const std::vector<StatisticNode>& statistics = replicas_.front().statistics;
  Index width = 1 + num_parameters_;
  for (const StatisticNode& stat : statistics) width += stat.batch_value.value().size();
  Vector& sum = step_sum_;
  deterministic_chunk_sum(comm, layout, width, [&](const ChunkRows& chunk, std::span<double> partial) {
    Replica& r = replica(chunk.chunk);
    if (!reshaped) feed(r, chunk.chunk, chunk.global, X, Y, rows, step);
    r.executor->run();
    const Scalar w = static_cast<Scalar>(chunk.global.size()) / static_cast<Scalar>(n);
    Index at = 0;
    partial[static_cast<std::size_t>(at++)] = w * r.loss.item();
    const auto put = [&](const Tensor& t) {
      Eigen::Map<Vector>(partial.data() + at, t.size()) = w * Eigen::Map<const Vector>(t.data(), t.size());
      at += t.size();
    };
    for (const Var& g : r.grads) put(g.value());
    for (const StatisticNode& stat : r.statistics) put(stat.batch_value.value());
  }, step_workspace_, sum);
  gradient = sum.segment(1, num_parameters_);
  Index at = 1 + num_parameters_;
  for (std::size_t s = 0; s < statistics.size(); ++s) {
    const Tensor& value = statistics[s].batch_value.value();
    fold_statistics(s, Eigen::Map<const Tensor>(sum.data() + at, value.rows(), value.cols()));
    at += value.size();
  }
  return sum(0);
}

// Note [Chunk sums in one process]
// Over ranks, each chunk writes its term s_c = (n_c/n)·[ℓ_c, ∇ℓ_c, …] into a partial and the
// partials are added in chunk order (Note [Fixed-order chunk sums]). In one process every
// replica's gradient is already in memory, so each piece of θ adds its entries straight from the
// replicas' gradient nodes, S = (…(0 + w_0·g_0) + …) + w_{C−1}·g_{C−1}: the very products and
// additions of the partials path, in the same order, so the same bits, without writing and
// reading back C partials and a sum of θ's size at every step.
Scalar DataParallelGradient::compute_in_process(const ChunkLayout& layout, const Tensor& X, const Tensor& Y,
                                                std::span<const Index> rows, std::uint64_t step, bool fed,
                                                Vector& gradient) {
  const Index chunks = layout.num_chunks();
  tbb::parallel_for(
      tbb::blocked_range<Index>(0, chunks, 1),
      [&](const tbb::blocked_range<Index>& range) {
        for (Index c = range.begin(); c != range.end(); ++c) {
          Replica& r = replicas_[static_cast<std::size_t>(c)];
          if (!fed) feed(r, c, layout.chunk_rows(c), X, Y, rows, step);
          r.executor->run();
        }
      },
      tbb::simple_partitioner());
  const auto weight = [&](Index c) {
    return static_cast<Scalar>(layout.chunk_rows(c).size()) / static_cast<Scalar>(layout.num_rows());
  };
  const auto replica = [&](Index c) -> const Replica& { return replicas_[static_cast<std::size_t>(c)]; };
  gradient.resize(num_parameters_);
  for_each_piece([&](const Piece& piece) {
    auto out = gradient.segment(piece.offset, piece.size);
    out.setZero();
    for (Index c = 0; c < chunks; ++c)
      out +=
          weight(c) * Eigen::Map<const Vector>(replica(c).grads[piece.index].value().data() + piece.begin, piece.size);
  });
  Scalar loss = 0;
  for (Index c = 0; c < chunks; ++c) loss += weight(c) * replica(c).loss.item();
  statistic_sums_.resize(replicas_.front().statistics.size());
  for (std::size_t s = 0; s < statistic_sums_.size(); ++s) {
    const Var& first = replicas_.front().statistics[s].batch_value;
    Tensor& mean = statistic_sums_[s];
    mean.setZero(first.rows(), first.cols());
    for (Index c = 0; c < chunks; ++c) mean += weight(c) * replica(c).statistics[s].batch_value.value();
    fold_statistics(s, mean);
  }
  return loss;
}

}  // namespace dagml::nn
