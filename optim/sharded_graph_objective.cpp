#include "optim/sharded_graph_objective.h"

#include <fmt/format.h>

namespace dagml {

// Chunk c's copy of the loss: a clone of the caller's graph fed with the chunk's rows.
struct ShardedGraphObjective::Replica {
  Graph graph;
  std::unique_ptr<GraphObjective> objective;
  Scalar weight = 0;  // n_c / n
};

ShardedGraphObjective::ShardedGraphObjective(Communicator& comm, Var loss, std::vector<Var> parameters,
                                             ShardedGraphObjectiveOptions options)
    : comm_(comm), options_(std::move(options)) {
  const char* who = "ShardedGraphObjective";
  const ChunkLayout& layout = options_.layout;
  if (!loss.valid()) throw ValueError(fmt::format("{}: the loss is not a node", who));
  if (layout.num_ranks() != comm.size())
    throw ValueError(fmt::format("{}: the layout is for {} ranks, the communicator has {}", who, layout.num_ranks(),
                                 comm.size()));
  if (options_.data.empty())
    throw ValueError(fmt::format("{}: no data given (the inputs holding one sample per row, with this rank's rows)", who));
  const IndexRange mine = layout.rank_rows(comm.rank()), chunks = layout.rank_chunks(comm.rank());
  if (chunks.size() == 0)
    throw ValueError(fmt::format("{}: {} ranks but only {} chunks; expected at least one chunk per rank", who,
                                 comm.size(), layout.num_chunks()));
  for (const auto& [input, value] : options_.data) {
    if (value.rows() != mine.size())
      throw ValueError(fmt::format("{}: rank {} holds rows [{}, {}) of {}: expected {} rows of data, found {}", who,
                                   comm.rank(), mine.begin, mine.end, layout.num_rows(), mine.size(), value.rows()));
  }
  for (Index c = chunks.begin; c < chunks.end; ++c) {
    auto replica = std::make_unique<Replica>();
    replica->graph = loss.graph().clone();
    const IndexRange rows = layout.chunk_rows(c);
    replica->weight = static_cast<Scalar>(rows.size()) / static_cast<Scalar>(layout.num_rows());
    GraphObjectiveOptions chunk_data;
    for (const auto& [input, value] : options_.data)
      chunk_data.data.emplace_back(replica->graph.var(input.id()), value.middleRows(rows.begin - mine.begin, rows.size()));
    std::vector<Var> chunk_parameters;
    for (const Var& p : parameters) chunk_parameters.push_back(replica->graph.var(p.id()));
    replica->objective = std::make_unique<GraphObjective>(replica->graph.var(loss.id()), std::move(chunk_parameters),
                                                          std::move(chunk_data));
    replicas_.push_back(std::move(replica));
  }
  // After the clones, so that they do not copy this objective's gradient nodes.
  caller_ = std::make_unique<GraphObjective>(loss, std::move(parameters));
  dimension_ = caller_->dimension();
}

ShardedGraphObjective::~ShardedGraphObjective() = default;

Vector ShardedGraphObjective::parameters_vector() const { return caller_->parameters_vector(); }

void ShardedGraphObjective::set_parameters(const Vector& x) { caller_->set_parameters(x); }

template <class Evaluate>
Vector ShardedGraphObjective::chunk_sum(Index width, Evaluate&& evaluate) {
  const Index first = options_.layout.rank_chunks(comm_.rank()).begin;
  return deterministic_chunk_sum(comm_, options_.layout, width, [&](const ChunkRows& chunk, std::span<double> partial) {
    Replica& replica = *replicas_[static_cast<std::size_t>(chunk.chunk - first)];
    Eigen::Map<Vector> s(partial.data(), width);
    evaluate(*replica.objective, s);
    s *= replica.weight;
  });
}

Scalar ShardedGraphObjective::value(const Vector& x) {
  set_parameters(x);
  return chunk_sum(1, [&](GraphObjective& f, Eigen::Map<Vector>& s) { s(0) = f.value(x); })(0);
}

Scalar ShardedGraphObjective::value_and_gradient(const Vector& x, Vector& gradient) {
  set_parameters(x);
  const Index d = dimension_;
  const Vector sum = chunk_sum(1 + d, [&](GraphObjective& f, Eigen::Map<Vector>& s) {
    Vector g;
    s(0) = f.value_and_gradient(x, g);
    s.tail(d) = g;
  });
  gradient = sum.tail(d);
  return sum(0);
}

void ShardedGraphObjective::hessian(const Vector& x, Tensor& hessian) {
  set_parameters(x);
  const Index d = dimension_;
  const Vector sum = chunk_sum(d * d, [&](GraphObjective& f, Eigen::Map<Vector>& s) {
    Tensor h;
    f.hessian(x, h);
    s = Eigen::Map<const Vector>(h.data(), d * d);
  });
  hessian = Eigen::Map<const Tensor>(sum.data(), d, d);
}

Scalar ShardedGraphObjective::value_gradient_and_hessian(const Vector& x, Vector& gradient, Tensor& hessian) {
  set_parameters(x);
  const Index d = dimension_;
  const Vector sum = chunk_sum(1 + d + d * d, [&](GraphObjective& f, Eigen::Map<Vector>& s) {
    Vector g;
    Tensor h;
    s(0) = f.value_gradient_and_hessian(x, g, h);
    s.segment(1, d) = g;
    s.tail(d * d) = Eigen::Map<const Vector>(h.data(), d * d);
  });
  gradient = sum.segment(1, d);
  hessian = Eigen::Map<const Tensor>(sum.data() + 1 + d, d, d);
  return sum(0);
}

void ShardedGraphObjective::hessian_vector_product(const Vector& x, const Vector& v, Vector& product) {
  if (v.size() != dimension_)
    throw ShapeError(fmt::format("ShardedGraphObjective: v must have {} entries, got {}", dimension_, v.size()));
  set_parameters(x);
  product = chunk_sum(dimension_, [&](GraphObjective& f, Eigen::Map<Vector>& s) {
    Vector hv;
    f.hessian_vector_product(x, v, hv);
    s = hv;
  });
}

}  // namespace dagml
