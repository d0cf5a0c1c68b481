// GraphObjective: a graph loss and its parameter nodes as an Objective over one flat vector.
//
//   Graph g;
//   Var X = g.input("X", X_train), y = g.input("y", y_train);
//   Var w = g.parameter("w", Tensor::Zero(d, 1)), b = g.parameter("b", Tensor::Zero(1, 1));
//   Var loss = binary_cross_entropy_with_logits(matmul(X, w) + b, y) + scale(squared_l2_norm(w), 0.5 * l2);
//   GraphObjective objective(loss, {w, b}, {.data = {{X, X_train}, {y, y_train}}});
//   Result r = minimize(objective, objective.parameters_vector(), NewtonOptions{});
//   objective.set_parameters(r.x);  // writes the solution back into w and b
//
// x is the concatenation of the parameters' values, each flattened row-major, in the order given.
// Evaluating writes x into the parameter nodes and replays the graph with an Executor: gradient
// nodes are built once, at construction; Hessian, Hessian-vector-product and Jacobian nodes are
// built on first use; no evaluation rebuilds the graph. After an evaluation the parameter nodes
// hold x and every node the matching value.
//
// Minibatches: `data` lists the input nodes that hold one sample per row, with their full values
// (same row count n). The loss must then be a mean over those rows, so that a batch B of rows fed
// in their place gives f_B = (1/|B|) Σ_{i∈B} fᵢ; batch_value_and_gradient feeds those rows.
// Full-data evaluations (value, gradient, Hessian…) feed the full tensors back first.
//
// Residual form: least_squares(r, params) makes f = ½‖r‖² with residuals() and the Jacobian
// ∂r/∂x from autodiff, for Gauss-Newton and Levenberg-Marquardt.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "graph/executor.h"
#include "graph/graph.h"
#include "optim/callbacks.h"
#include "optim/gradient_descent.h"
#include "optim/objective.h"

namespace dagml {

struct GraphObjectiveOptions {
  std::vector<std::pair<Var, Tensor>> data = {};  // (input node, full value with n rows), for minibatches
};

class GraphObjective final : public Objective {
 public:
  // Throws ShapeError unless loss is 1×1; ValueError if `parameters` is empty, has a node that is
  // not a Parameter of loss's graph or appears twice, or if the data are not Input nodes of that
  // graph with equal row counts n ≥ 1, the input's column count and finite values.
  GraphObjective(Var loss, std::vector<Var> parameters, GraphObjectiveOptions options = {});

  // f = ½‖r‖², r = `residuals` flattened row-major. Throws as the constructor.
  static std::unique_ptr<GraphObjective> least_squares(Var residuals, std::vector<Var> parameters,
                                                       GraphObjectiveOptions options = {});

  Index dimension() const override { return dimension_; }
  Scalar value(const Vector& x) override;
  Scalar value_and_gradient(const Vector& x, Vector& gradient) override;
  bool has_hessian() const override { return true; }
  void hessian(const Vector& x, Tensor& hessian) override;
  Scalar value_gradient_and_hessian(const Vector& x, Vector& gradient, Tensor& hessian) override;
  bool has_hessian_vector_product() const override { return true; }
  void hessian_vector_product(const Vector& x, const Vector& v, Vector& product) override;
  bool has_residuals() const override { return residuals_.valid(); }
  void residuals(const Vector& x, Vector& r, Tensor* jacobian) override;
  Index num_samples() const override { return num_samples_; }
  Scalar batch_value_and_gradient(const Vector& x, std::span<const Index> rows, Vector& gradient) override;

  // The parameters' current values as one flat vector (a natural x0).
  Vector parameters_vector() const;
  // Writes x into the parameter nodes (ShapeError if its length is not dimension()).
  void set_parameters(const Vector& x);
  const std::vector<Var>& parameters() const { return parameters_; }
  Var loss() const { return loss_; }

 private:
  void feed_full();
  void read_gradient(Vector& gradient) const;
  void build_hessian();
  void read_hessian(Tensor& hessian) const;
  // Through the loss node, so the objective follows its graph when the Graph is moved.
  Graph& graph() const { return loss_.graph(); }

  Var loss_;
  Var residuals_;
  std::vector<Var> parameters_;
  std::vector<Index> offsets_;  // parameter k occupies x[offsets_[k], offsets_[k+1])
  Index dimension_ = 0;
  GraphObjectiveOptions options_;
  Index num_samples_ = 0;
  bool full_fed_ = true;
  std::vector<Tensor> batch_scratch_;

  std::vector<Var> gradients_;
  std::unique_ptr<Executor> value_exec_;
  std::unique_ptr<Executor> gradient_exec_;
  std::vector<Var> hessian_blocks_;  // one per pair i ≤ j, see hessian()
  std::vector<bool> hessian_block_transposed_;
  std::unique_ptr<Executor> hessian_exec_;
  std::unique_ptr<Executor> fused_exec_;  // loss, gradients and Hessian blocks in one plan
  std::vector<Var> hvp_inputs_, hvp_outputs_;
  std::unique_ptr<Executor> hvp_exec_;
  Tensor hvp_scratch_;
  std::vector<Var> jacobian_blocks_;  // ∂r/∂p_j
  std::unique_ptr<Executor> jacobian_exec_;
};

// The one-call forms for models: minimise `loss` (or ½‖residuals‖²) over `parameters`, starting
// from their current values, and write the solution back into the parameter nodes. `options` is
// any optimizer's options (NewtonOptions, LbfgsOptions, GaussNewtonOptions, …); the first-order
// form takes an update rule and FirstOrderOptions. Throws as GraphObjective and the method.
//
//   Result r = minimize_graph(loss, {w, b}, NewtonOptions{});          // w, b hold the fit
//   Result r = minimize_graph(loss, {w}, Adam({}), FirstOrderOptions{.batch_size = 32},
//                             {.data = {{X, X_train}, {y, y_train}}});
template <class Options>
Result minimize_graph(Var loss, std::vector<Var> parameters, const Options& options, GraphObjectiveOptions data = {},
                      const CallbackList& callbacks = {}) {
  GraphObjective objective(loss, std::move(parameters), std::move(data));
  Result result;
  if constexpr (std::derived_from<Options, UpdateRule>) {
    result = minimize(objective, objective.parameters_vector(), options, FirstOrderOptions{}, callbacks);
  } else {
    result = minimize(objective, objective.parameters_vector(), options, callbacks);
  }
  objective.set_parameters(result.x);
  return result;
}

inline Result minimize_graph(Var loss, std::vector<Var> parameters, const UpdateRule& rule,
                             const FirstOrderOptions& options, GraphObjectiveOptions data = {},
                             const CallbackList& callbacks = {}) {
  GraphObjective objective(loss, std::move(parameters), std::move(data));
  Result result = minimize(objective, objective.parameters_vector(), rule, options, callbacks);
  objective.set_parameters(result.x);
  return result;
}

template <class Options>
Result minimize_residuals(Var residuals, std::vector<Var> parameters, const Options& options,
                          GraphObjectiveOptions data = {}, const CallbackList& callbacks = {}) {
  auto objective = GraphObjective::least_squares(residuals, std::move(parameters), std::move(data));
  Result result = minimize(*objective, objective->parameters_vector(), options, callbacks);
  objective->set_parameters(result.x);
  return result;
}

}  // namespace dagml
