#include "models/nn/data_parallel.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

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
  BuildContext ctx(graph_, Mode::Train, derive_seed(options.seed, ~std::uint64_t{0}));
  const std::vector<Parameter*> parameters = model.parameters();
  replicas_.resize(static_cast<std::size_t>(options.chunks));
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

  const Index used = std::min(n, chunks());
  // Chunk c's rows, targets and noise. Feeding a replica whose row count changes moves the
  // graph's shape version, so those feeds run first, serially; steady-state feeds (same row
  // count) touch only the replica's own input nodes and run inside its parallel task.
  auto feed = [&](Index c) {
    Replica& r = replicas_[static_cast<std::size_t>(c)];
    const IndexRange chunk = even_split(n, used, c);
    const Index begin = chunk.begin, m = chunk.size();
    r.x_buffer.resize(m, X.cols());
    for (Index i = 0; i < m; ++i) r.x_buffer.row(i) = X.row(rows[static_cast<std::size_t>(begin + i)]);
    graph_.set_value(r.x, r.x_buffer);
    if (r.y) {
      r.y_buffer.resize(m, Y.cols());
      for (Index i = 0; i < m; ++i) r.y_buffer.row(i) = Y.row(rows[static_cast<std::size_t>(begin + i)]);
      graph_.set_value(r.y, r.y_buffer);
    }
    std::mt19937_64 rng(
        derive_seed(options_.seed, step * static_cast<std::uint64_t>(chunks()) + static_cast<std::uint64_t>(c)));
    for (const NoiseNode& noise : r.noise) {
      draw_noise(noise, m, rng, r.noise_buffer);
      graph_.set_value(noise.input, r.noise_buffer);
    }
  };
  bool reshaped = false;
  for (Index c = 0; c < used; ++c)
    if (replicas_[static_cast<std::size_t>(c)].x.rows() != even_split(n, used, c).size()) reshaped = true;
  if (reshaped)
    for (Index c = 0; c < used; ++c) feed(c);
  tbb::parallel_for(
      tbb::blocked_range<Index>(0, used, 1),
      [&](const tbb::blocked_range<Index>& range) {
        for (Index c = range.begin(); c != range.end(); ++c) {
          if (!reshaped) feed(c);
          replicas_[static_cast<std::size_t>(c)].executor->run();
        }
      },
      tbb::simple_partitioner());

  // Σ_c (n_c/n)·(loss, gradient, statistics), in chunk order.
  gradient.resize(num_parameters_);
  Scalar loss = 0;
  for (Index c = 0; c < used; ++c) {
    const Replica& r = replicas_[static_cast<std::size_t>(c)];
    loss += (static_cast<Scalar>(r.x.rows()) / static_cast<Scalar>(n)) * r.loss.item();
  }
  for_each_piece([&](const Piece& piece) {
    auto out = gradient.segment(piece.offset, piece.size);
    out.setZero();
    for (Index c = 0; c < used; ++c) {
      const Replica& r = replicas_[static_cast<std::size_t>(c)];
      const Scalar w = static_cast<Scalar>(r.x.rows()) / static_cast<Scalar>(n);
      out += w * Eigen::Map<const Vector>(r.grads[piece.index].value().data() + piece.begin, piece.size);
    }
  });
  for (std::size_t s = 0; s < first.statistics.size(); ++s) {
    const StatisticNode& stat = first.statistics[s];
    Tensor& running = running_[s]->value;
    statistic_sum_.setZero(running.rows(), running.cols());
    for (Index c = 0; c < used; ++c) {
      const Replica& r = replicas_[static_cast<std::size_t>(c)];
      statistic_sum_ +=
          (static_cast<Scalar>(r.x.rows()) / static_cast<Scalar>(n)) * r.statistics[s].batch_value.value();
    }
    running = (1 - stat.momentum) * running + stat.momentum * statistic_sum_;
  }
  return loss;
}

}  // namespace dagml::nn
