#include "optim/graph_objective.h"

#include <fmt/format.h>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/norms.h"
#include "autodiff/reduce.h"
#include "graph/error.h"

namespace dagml {

GraphObjective::GraphObjective(Var loss, std::vector<Var> parameters, GraphObjectiveOptions options)
    : loss_(loss),
      parameters_(std::move(parameters)),
      options_(std::move(options)) {
  if (!loss.valid()) throw ValueError("GraphObjective: the loss is not a node");
  if (!loss.shape().is_scalar())
    throw ShapeError(fmt::format("GraphObjective: the loss must be 1x1, got {}", to_string(loss.shape())));
  if (parameters_.empty()) throw ValueError("GraphObjective: no parameters given");
  offsets_.push_back(0);
  for (std::size_t k = 0; k < parameters_.size(); ++k) {
    const Var p = parameters_[k];
    graph().check_owns(p, "GraphObjective parameter");
    if (graph().node(p.id()).kind != NodeKind::Parameter)
      throw ValueError(fmt::format("GraphObjective: {} is not a parameter node", describe(graph(), p.id())));
    for (std::size_t j = 0; j < k; ++j)
      if (parameters_[j] == p)
        throw ValueError(fmt::format("GraphObjective: parameter {} is listed twice", describe(graph(), p.id())));
    offsets_.push_back(offsets_.back() + p.value().size());
  }
  dimension_ = offsets_.back();
  for (const auto& [input, value] : options_.data) {
    graph().check_owns(input, "GraphObjective data");
    if (graph().node(input.id()).kind != NodeKind::Input)
      throw ValueError(fmt::format("GraphObjective: data node {} is not an input", describe(graph(), input.id())));
    if (value.cols() != input.cols())
      throw ValueError(fmt::format("GraphObjective: data for {} must have {} columns, got {}",
                                   describe(graph(), input.id()), input.cols(), value.cols()));
    if (value.rows() < 1 || (num_samples_ > 0 && value.rows() != num_samples_))
      throw ValueError(
          fmt::format("GraphObjective: every data tensor must have the same row count n >= 1; "
                      "{} has {} rows, expected {}",
                      describe(graph(), input.id()), value.rows(), num_samples_));
    if (!value.allFinite())
      throw ValueError(
          fmt::format("GraphObjective: data for {} has NaN or infinite values", describe(graph(), input.id())));
    num_samples_ = value.rows();
  }
  batch_scratch_.resize(options_.data.size());
  full_fed_ = false;
  gradients_ = gradients(loss_, parameters_);
  value_exec_ = std::make_unique<Executor>(graph(), std::vector<Var>{loss_});
  std::vector<Var> outs{loss_};
  outs.insert(outs.end(), gradients_.begin(), gradients_.end());
  gradient_exec_ = std::make_unique<Executor>(graph(), outs);
}

std::unique_ptr<GraphObjective> GraphObjective::least_squares(Var residuals, std::vector<Var> parameters,
                                                              GraphObjectiveOptions options) {
  if (!residuals.valid()) throw ValueError("GraphObjective::least_squares: the residuals are not a node");
  const Var loss = scale(squared_l2_norm(residuals), 0.5).named("half_squared_residuals");
  auto objective = std::make_unique<GraphObjective>(loss, std::move(parameters), std::move(options));
  objective->residuals_ = residuals;
  return objective;
}

Vector GraphObjective::parameters_vector() const {
  Vector x(dimension_);
  for (std::size_t k = 0; k < parameters_.size(); ++k) {
    const Tensor& v = parameters_[k].value();
    x.segment(offsets_[k], v.size()) = Eigen::Map<const Vector>(v.data(), v.size());
  }
  return x;
}

void GraphObjective::set_parameters(const Vector& x) {
  if (x.size() != dimension_)
    throw ShapeError(fmt::format("GraphObjective: x must have {} entries, got {}", dimension_, x.size()));
  for (std::size_t k = 0; k < parameters_.size(); ++k) {
    Tensor& v = graph().parameter_value(parameters_[k]);
    Eigen::Map<Vector>(v.data(), v.size()) = x.segment(offsets_[k], v.size());
  }
}

void GraphObjective::feed_full() {
  if (full_fed_) return;
  for (const auto& [input, value] : options_.data) graph().set_value(input, value);
  full_fed_ = true;
}

void GraphObjective::read_gradient(Vector& gradient) const {
  gradient.resize(dimension_);
  for (std::size_t k = 0; k < parameters_.size(); ++k) {
    const Tensor& v = gradients_[k].value();
    gradient.segment(offsets_[k], v.size()) = Eigen::Map<const Vector>(v.data(), v.size());
  }
}

Scalar GraphObjective::value(const Vector& x) {
  set_parameters(x);
  feed_full();
  value_exec_->run();
  return loss_.item();
}

Scalar GraphObjective::value_and_gradient(const Vector& x, Vector& gradient) {
  set_parameters(x);
  feed_full();
  gradient_exec_->run();
  read_gradient(gradient);
  return loss_.item();
}

Scalar GraphObjective::batch_value_and_gradient(const Vector& x, std::span<const Index> rows, Vector& gradient) {
  if (num_samples_ == 0) not_offered("minibatch evaluation (no data were given)");
  if (rows.empty()) throw ValueError("GraphObjective: an empty batch");
  set_parameters(x);
  for (std::size_t d = 0; d < options_.data.size(); ++d) {
    const Tensor& full = options_.data[d].second;
    Tensor& batch = batch_scratch_[d];
    batch.resize(static_cast<Index>(rows.size()), full.cols());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (rows[i] < 0 || rows[i] >= num_samples_)
        throw ValueError(fmt::format("GraphObjective: batch row {} is outside [0, {})", rows[i], num_samples_));
      batch.row(static_cast<Index>(i)) = full.row(rows[i]);
    }
    graph().set_value(options_.data[d].first, batch);
  }
  full_fed_ = false;
  gradient_exec_->run();
  read_gradient(gradient);
  return loss_.item();
}

// H = [∂g_i/∂p_j] block by block: g_i = ∂f/∂p_i is a graph node, so its Jacobian is autodiff again
// (one batched reverse pass whose seeds are the entries of g_i). H is symmetric, so each
// off-diagonal pair is built once, seeded from the smaller parameter: block (i, j) = J(g_i, p_j) when
// size(p_i) ≤ size(p_j), else block (j, i) = J(g_j, p_i); the other block is its transpose.
void GraphObjective::build_hessian() {
  if (hessian_exec_) return;
  const std::size_t k = parameters_.size();
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = i; j < k; ++j) {
      const bool rows_from_i = parameters_[i].value().size() <= parameters_[j].value().size();
      hessian_blocks_.push_back(rows_from_i ? jacobian(gradients_[i], parameters_[j], JacobianMode::Reverse)
                                            : jacobian(gradients_[j], parameters_[i], JacobianMode::Reverse));
      hessian_block_transposed_.push_back(!rows_from_i);
    }
  }
  hessian_exec_ = std::make_unique<Executor>(graph(), hessian_blocks_);
  std::vector<Var> outs{loss_};
  outs.insert(outs.end(), gradients_.begin(), gradients_.end());
  outs.insert(outs.end(), hessian_blocks_.begin(), hessian_blocks_.end());
  fused_exec_ = std::make_unique<Executor>(graph(), outs);
}

void GraphObjective::read_hessian(Tensor& hessian) const {
  const std::size_t k = parameters_.size();
  hessian.resize(dimension_, dimension_);
  std::size_t b = 0;
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = i; j < k; ++j, ++b) {
      const Index ri = offsets_[i], ni = offsets_[i + 1] - ri, rj = offsets_[j], nj = offsets_[j + 1] - rj;
      const Tensor& block = hessian_blocks_[b].value();
      if (hessian_block_transposed_[b]) {
        hessian.block(rj, ri, nj, ni) = block;
        hessian.block(ri, rj, ni, nj) = block.transpose();
      } else {
        hessian.block(ri, rj, ni, nj) = block;
        if (i != j) hessian.block(rj, ri, nj, ni) = block.transpose();
      }
    }
  }
}

void GraphObjective::hessian(const Vector& x, Tensor& hessian) {
  build_hessian();
  set_parameters(x);
  feed_full();
  hessian_exec_->run();
  read_hessian(hessian);
}

Scalar GraphObjective::value_gradient_and_hessian(const Vector& x, Vector& gradient, Tensor& hessian) {
  build_hessian();
  set_parameters(x);
  feed_full();
  fused_exec_->run();
  read_gradient(gradient);
  read_hessian(hessian);
  return loss_.item();
}

// Hv = ∇ₓ (∇f(x)ᵀ v): one more reverse pass over the gradient graph, v fed as inputs.
void GraphObjective::hessian_vector_product(const Vector& x, const Vector& v, Vector& product) {
  const std::size_t k = parameters_.size();
  if (v.size() != dimension_)
    throw ShapeError(fmt::format("GraphObjective: v must have {} entries, got {}", dimension_, v.size()));
  if (!hvp_exec_) {
    std::vector<Var> terms;
    for (std::size_t i = 0; i < k; ++i) {
      const Var p = parameters_[i];
      hvp_inputs_.push_back(graph().input(fmt::format("hvp_v{}", i), Tensor::Zero(p.rows(), p.cols())));
      terms.push_back(sum(mul(gradients_[i], hvp_inputs_.back())));
    }
    hvp_outputs_ = gradients(add_n(terms), parameters_);
    hvp_exec_ = std::make_unique<Executor>(graph(), hvp_outputs_);
  }
  set_parameters(x);
  feed_full();
  for (std::size_t i = 0; i < k; ++i) {
    const Var p = parameters_[i];
    hvp_scratch_ = Eigen::Map<const Tensor>(v.data() + offsets_[i], p.rows(), p.cols());
    graph().set_value(hvp_inputs_[i], hvp_scratch_);
  }
  hvp_exec_->run();
  product.resize(dimension_);
  for (std::size_t i = 0; i < k; ++i) {
    const Tensor& h = hvp_outputs_[i].value();
    product.segment(offsets_[i], h.size()) = Eigen::Map<const Vector>(h.data(), h.size());
  }
}

void GraphObjective::residuals(const Vector& x, Vector& r, Tensor* jac) {
  if (!residuals_.valid()) not_offered("residuals (build it with GraphObjective::least_squares)");
  set_parameters(x);
  feed_full();
  if (jac == nullptr) {
    value_exec_->run();  // the loss depends on every residual
  } else {
    if (!jacobian_exec_) {
      // The Jacobian's nodes are built for the shapes of the nodes' values: those of the data
      // just fed, which may differ from the values the graph was built with (a sharded chunk).
      value_exec_->run();
      for (const Var& p : parameters_) jacobian_blocks_.push_back(jacobian(residuals_, p));
      std::vector<Var> outs{residuals_};  // a Jacobian need not depend on r itself (linear r)
      outs.insert(outs.end(), jacobian_blocks_.begin(), jacobian_blocks_.end());
      jacobian_exec_ = std::make_unique<Executor>(graph(), outs);
    }
    jacobian_exec_->run();
    const Index m = residuals_.value().size();
    jac->resize(m, dimension_);
    for (std::size_t j = 0; j < parameters_.size(); ++j)
      jac->middleCols(offsets_[j], offsets_[j + 1] - offsets_[j]) = jacobian_blocks_[j].value();
  }
  const Tensor& rv = residuals_.value();
  r = Eigen::Map<const Vector>(rv.data(), rv.size());
}

}  // namespace dagml
