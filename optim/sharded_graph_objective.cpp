#include "optim/sharded_graph_objective.h"

#include <fmt/format.h>

#include <Eigen/QR>
#include <algorithm>

namespace dagml {

// Chunk c's copy of the loss: a clone of the caller's graph fed with the chunk's rows.
struct ShardedGraphObjective::Replica {
  Graph graph;
  std::unique_ptr<GraphObjective> objective;
  Scalar weight = 0;  // n_c / n
};

ShardedGraphObjective::ShardedGraphObjective(Communicator& comm, Var loss, std::vector<Var> parameters,
                                             ShardedGraphObjectiveOptions options)
    : ShardedGraphObjective(comm, loss, std::move(parameters), std::move(options), false) {}

std::unique_ptr<ShardedGraphObjective> ShardedGraphObjective::least_squares(Communicator& comm, Var residuals,
                                                                            std::vector<Var> parameters,
                                                                            ShardedGraphObjectiveOptions options) {
  return std::unique_ptr<ShardedGraphObjective>(
      new ShardedGraphObjective(comm, residuals, std::move(parameters), std::move(options), true));
}

// `loss` is the residuals node in the residual form.
ShardedGraphObjective::ShardedGraphObjective(Communicator& comm, Var loss, std::vector<Var> parameters,
                                             ShardedGraphObjectiveOptions options, bool residual_form)
    : comm_(comm), options_(std::move(options)), residual_form_(residual_form) {
  const char* who = "ShardedGraphObjective";
  const ChunkLayout& layout = options_.layout;
  if (!loss.valid()) throw ValueError(fmt::format("{}: the loss is not a node", who));
  if (options_.data.empty())
    throw ValueError(fmt::format("{}: no data given (the inputs holding one sample per row, with this rank's rows)", who));
  for (const auto& [input, value] : options_.data) check_shard(comm, layout, value.rows(), who);
  const IndexRange mine = layout.rank_rows(comm.rank()), chunks = layout.rank_chunks(comm.rank());
  if (chunks.size() == 0)
    throw ValueError(fmt::format("{}: {} ranks but only {} chunks; expected at least one chunk per rank", who,
                                 comm.size(), layout.num_chunks()));
  // Each clone is made while the caller's graph holds the values of the chunk's rows alone
  // (inputs set, then a forward pass), so that no replica copies the rank's whole data and every
  // replica's nodes have its chunk's shapes; the caller's graph gets its values back afterwards.
  Graph& caller = loss.graph();
  Executor forward(caller, {loss});
  for (Index c = chunks.begin; c < chunks.end; ++c) {
    auto replica = std::make_unique<Replica>();
    const IndexRange rows = layout.chunk_rows(c);
    for (const auto& [input, value] : options_.data)
      caller.set_value(input, value.middleRows(rows.begin - mine.begin, rows.size()));
    forward.run();
    replica->graph = caller.clone();
    // f = Σ_c (n_c/n) f_c for a mean; f = Σ_c ½‖r_c‖² for residuals.
    replica->weight = residual_form ? 1 : static_cast<Scalar>(rows.size()) / static_cast<Scalar>(layout.num_rows());
    GraphObjectiveOptions chunk_data;
    for (const auto& [input, value] : options_.data)
      chunk_data.data.emplace_back(replica->graph.var(input.id()), value.middleRows(rows.begin - mine.begin, rows.size()));
    std::vector<Var> chunk_parameters;
    for (const Var& p : parameters) chunk_parameters.push_back(replica->graph.var(p.id()));
    const Var chunk_output = replica->graph.var(loss.id());
    replica->objective = residual_form ? GraphObjective::least_squares(chunk_output, std::move(chunk_parameters),
                                                                       std::move(chunk_data))
                                       : std::make_unique<GraphObjective>(chunk_output, std::move(chunk_parameters),
                                                                          std::move(chunk_data));
    replicas_.push_back(std::move(replica));
  }
  for (const auto& [input, value] : options_.data) caller.set_value(input, value);
  forward.run();
  // After the clones, so that they do not copy this objective's gradient nodes.
  caller_ = residual_form ? GraphObjective::least_squares(loss, std::move(parameters))
                          : std::make_unique<GraphObjective>(loss, std::move(parameters));
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

namespace {

// The upper-triangular factor R of A = Q R (Householder), as a k×k matrix, k = A.cols(): the
// first min(m, k) rows of R and zeros below. ‖A v‖ = ‖R v‖ for every v.
void write_triangular_factor(const Eigen::Ref<const Tensor>& A, Eigen::Ref<Tensor> R) {
  const Index k = A.cols(), rows = std::min(A.rows(), k);
  const Eigen::HouseholderQR<Tensor> qr(A);  // A: m×k, m ≥ 1
  R.setZero();
  R.topRows(rows) = qr.matrixQR().topRows(rows).triangularView<Eigen::Upper>();
}

}  // namespace

// Note [Sharded least squares]: R of the stacked [J r] by a TSQR over the chunks.
void ShardedGraphObjective::residuals(const Vector& x, Vector& r, Tensor* jacobian) {
  if (!residual_form_) not_offered("residuals");
  if (jacobian == nullptr)
    throw ValueError(
        "ShardedGraphObjective: residuals without their Jacobian are not offered: the residuals of data spread over "
        "ranks are given in a rotated basis that changes with x (Note [Sharded least squares]), so residuals at two "
        "points cannot be compared (for Levenberg–Marquardt, turn geodesic_acceleration off)");
  set_parameters(x);
  const Index p = dimension_, k = p + 1;
  const ChunkLayout& layout = options_.layout;
  const Index first = layout.rank_chunks(comm_.rank()).begin;
  gather_chunk_results(
      comm_, layout, k * k,
      [&](const ChunkRows& chunk, std::span<double> partial) {
        Vector r_c;
        Tensor J_c;
        replicas_[static_cast<std::size_t>(chunk.chunk - first)]->objective->residuals(x, r_c, &J_c);
        Tensor system(r_c.size(), k);
        system << J_c, r_c;
        write_triangular_factor(system, Eigen::Map<Tensor>(partial.data(), k, k));
      },
      factors_);
  // (R_0; …; R_{C−1}) = Q' R: the factor of all rows, the same bits on every rank.
  const Eigen::Map<const Tensor> stacked(factors_.gathered.data(), layout.num_chunks() * k, k);
  Tensor R(k, k);
  write_triangular_factor(stacked, R);
  *jacobian = R.leftCols(p);
  r = R.col(p);
}

}  // namespace dagml
