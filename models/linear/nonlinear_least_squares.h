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

#include "graph/enum_names.h"
#include "graph/error.h"
#include "graph/op.h"
#include "models/io/estimator.h"
#include "optim/levenberg_marquardt.h"
#include "optim/result.h"

namespace dagml {

class ModelFile;

struct NonlinearLeastSquaresOptions {
  using ModelFunction = std::function<Var(Var X, Var w)>;
  // Builds the predictions f(X; w) as an n×1 node from the input node X (n×d) and the parameter
  // node w (p×1), with autodiff ops. It is called once per fit and once per predict, on a fresh
  // graph each time; it must not keep the nodes it is given.
  ModelFunction model = {};
  Vector initial_params{};  // w₀ (p ≥ 1 entries): the solution depends on it (non-convex)
  enum class Method { GaussNewton, LevenbergMarquardt } method = Method::LevenbergMarquardt;
  Index max_iterations = 200;  // ≥ 1
  Scalar tolerance = 1e-12;    // relative loss change and relative parameter change, ≥ 0
  // Levenberg–Marquardt's own options (optim/levenberg_marquardt.h): the first damping τ and
  // Marquardt's scaling. Model-file layout 2 added them; they are written after the other options
  // (see serialize), so that layout-1 files still load, with these defaults.
  Scalar initial_damping = LevenbergMarquardtOptions{}.initial_damping;  // τ > 0
  bool scale_by_diagonal = LevenbergMarquardtOptions{}.scale_by_diagonal;

  // Every field but `model`: it is code, which no file holds (load takes it again).
  template <class V>
  void visit(V&& v) {
    v("initial_params", initial_params, "w₀, p ≥ 1 starting parameters");
    v("method", method, "gauss_newton or levenberg_marquardt");
    v("max_iterations", max_iterations, "≥ 1 iterations");
    v("tolerance", tolerance, "≥ 0: stop on a relative loss or parameter change below it");
  }
  // The fields model-file layout 2 added (NonlinearLeastSquares::serialize).
  template <class V>
  void visit_layout_2(V&& v) {
    v("initial_damping", initial_damping, "> 0: Levenberg–Marquardt's first damping τ (μ₀ = τ with the scaling)");
    v("scale_by_diagonal", scale_by_diagonal, "Marquardt's scaling D = diag(max ‖J_j‖) (false: D = I)");
  }
};
constexpr auto enum_names(NonlinearLeastSquaresOptions::Method) {
  using Method = NonlinearLeastSquaresOptions::Method;
  return std::to_array<EnumName<Method>>(
      {{Method::GaussNewton, "gauss_newton"}, {Method::LevenbergMarquardt, "levenberg_marquardt"}});
}

// Objective (notes 000 §4.1): L(w) = ½ Σᵢ (yᵢ − f(xᵢ; w))² = ½‖r(w)‖², r = F(w) − y. Gauss-Newton
// steps Δ = argmin ‖J Δ + r‖² (J = ∂F/∂w, from the graph); Levenberg-Marquardt damps them
// (optim/gauss_newton.h, optim/levenberg_marquardt.h). Not converging is reported by
// optimizer_result(), not thrown.
//
// On the estimator contract (models/io/estimator.h) except for loading: the model function is
// code, so a file alone cannot rebuild the estimator. save and to_bytes are the Estimator's;
// load and from_model_file take the model function again, and the estimator is not in the
// registry (models/io/registry.h), which loads files by name alone.
class NonlinearLeastSquares : public Estimator<NonlinearLeastSquares, NonlinearLeastSquaresOptions> {
 public:
  using ModelFunction = NonlinearLeastSquaresOptions::ModelFunction;
  static constexpr const char* kTypeName = "nonlinear_least_squares";

  // Throws ValueError for a missing model, an empty or non-finite initial_params, or bad
  // max_iterations / tolerance.
  explicit NonlinearLeastSquares(const NonlinearLeastSquaresOptions& options);

  // X n×d, y length n. Throws ValueError (empty, NaN), ShapeError (lengths, or a model whose
  // output is not n×1) and whatever the model's ops throw.
  NonlinearLeastSquares& fit(const Tensor& X, const Vector& y);
  Vector predict(const Tensor& X) const;                 // f(X; ŵ); NotFittedError before fit
  Scalar score(const Tensor& X, const Vector& y) const;  // R²

  const Vector& params() const { return fitted_value(params_); }  // ŵ
  Scalar loss() const { return fitted_value(result_.value); }    // ½‖F(ŵ) − y‖² on the training data
  // The optimizer's result of the last fit; on a loaded model only x (= ŵ) and value (the loss).
  const Result& optimizer_result() const { return result_; }

  // Reads a file written by save() (Note [Model file format]), with `model`, the function the
  // saved model was fitted with (the file cannot check that it is): IoError, ParseError (also
  // for a file whose ŵ is not of the length of initial_params), or ValueError for a missing model.
  static NonlinearLeastSquares load(const std::string& path, ModelFunction model);
  static NonlinearLeastSquares from_model_file(const ModelFile& file, ModelFunction model);

  // Layout 2 added initial_damping and scale_by_diagonal, written after the estimator's part;
  // a layout-1 file has neither and keeps their defaults.
  static constexpr std::uint32_t kModelVersion = 2;

  // The options but the model function, ŵ and the training loss.
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    bool layout_2 = true;
    if constexpr (Archive::is_loading::value) layout_2 = ar.model_version() >= 2;
    if (layout_2) options_.visit_layout_2([&](const char*, auto& field, const char*) { ar(field); });
    ar(params_, result_.value);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  // The estimator to read a file into: the model function and default options, unchecked (the
  // options read back are checked after reading).
  explicit NonlinearLeastSquares(ModelFunction model);
  void check_loaded(const class ModelInputArchive& ar);

  Vector params_;
  Result result_;
};

// Only save and to_bytes: the Estimator's load and from_model_file need a default-constructible
// estimator, which this is not.
extern template void Estimator<NonlinearLeastSquares, NonlinearLeastSquaresOptions>::save(const std::string&) const;
extern template std::string Estimator<NonlinearLeastSquares, NonlinearLeastSquaresOptions>::to_bytes() const;

}  // namespace dagml
