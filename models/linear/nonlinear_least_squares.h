// Nonlinear least squares: a model f(x; w) written by the user as a graph, fitted by Gauss-Newton
// or Levenberg-Marquardt with the Jacobian from autodiff.
//
//   // Sensor localisation (notes 000 §4.1): f(xᵢ; w) = ‖xᵢ − w‖, w ∈ ℝ².
//   NonlinearLeastSquares nls({
//       .model = [](Var X, Var w) { return sqrt(row_sums(square(X - transpose(w)))); },
//       .initial_params = Vector::Zero(2)});
//   nls.fit(sensors, distances);
//   nls.params();                                   // the estimated position
#pragma once

#include <functional>
#include <string>

#include "graph/error.h"
#include "graph/op.h"
#include "optim/result.h"

namespace dagml {

struct NonlinearLeastSquaresOptions {
  // Builds the predictions f(X; w) as an n×1 node from the input node X (n×d) and the parameter
  // node w (p×1), with autodiff ops. It is called once per fit and once per predict, on a fresh
  // graph each time; it must not keep the nodes it is given.
  std::function<Var(Var X, Var w)> model = {};
  Vector initial_params{};  // w₀ (p ≥ 1 entries): the solution depends on it (non-convex)
  enum class Method { GaussNewton, LevenbergMarquardt } method = Method::LevenbergMarquardt;
  Index max_iterations = 200;  // ≥ 1
  Scalar tolerance = 1e-12;    // relative loss change and relative parameter change, ≥ 0
};

// Objective (notes 000 §4.1): L(w) = ½ Σᵢ (yᵢ − f(xᵢ; w))² = ½‖r(w)‖², r = F(w) − y. Gauss-Newton
// steps Δ = argmin ‖J Δ + r‖² (J = ∂F/∂w, from the graph); Levenberg-Marquardt damps them
// (optim/gauss_newton.h, optim/levenberg_marquardt.h). Not converging is reported by
// optimizer_result(), not thrown.
class NonlinearLeastSquares {
 public:
  // Throws ValueError for a missing model, an empty or non-finite initial_params, or bad
  // max_iterations / tolerance.
  explicit NonlinearLeastSquares(const NonlinearLeastSquaresOptions& options);

  // X n×d, y length n. Throws ValueError (empty, NaN), ShapeError (lengths, or a model whose
  // output is not n×1) and whatever the model's ops throw.
  NonlinearLeastSquares& fit(const Tensor& X, const Vector& y);
  Vector predict(const Tensor& X) const;                 // f(X; ŵ); NotFittedError before fit
  Scalar score(const Tensor& X, const Vector& y) const;  // R²

  bool fitted() const { return fitted_; }
  const Vector& params() const;  // ŵ
  Scalar loss() const;           // ½‖F(ŵ) − y‖² on the training data
  const Result& optimizer_result() const { return result_; }
  const NonlinearLeastSquaresOptions& options() const { return options_; }

  // Saves ŵ and the options' numbers; the model function is code, so load needs it again.
  void save(const std::string& path) const;
  static NonlinearLeastSquares load(const std::string& path, std::function<Var(Var X, Var w)> model);

 private:
  NonlinearLeastSquaresOptions options_;
  Vector params_;
  Result result_;
  Index num_inputs_ = 0;
  bool fitted_ = false;
};

}  // namespace dagml
