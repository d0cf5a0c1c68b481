// LASSO: least squares with an ℓ1 penalty, by coordinate descent with the soft-threshold update;
// λ_max and the regularisation path with warm starts.
//
//   Lasso lasso({.lambda = 50.0});
//   lasso.fit(X, y);                                   // sparse lasso.coef()
//   LassoPath path = lasso_path(X, y, geometric_lambdas(Lasso::lambda_max(X, y), 1e-3, 100));
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/linear/linear_model.h"
#include "optim/coordinate_descent.h"

namespace dagml {

// Note [LASSO scaling]
// dagml's λ is the notes' (notes 000 §2.6): minimise ‖Xw − y‖² + λ‖w‖₁, sums as everywhere in
// the regression family. scikit-learn's Lasso(alpha) minimises (1/(2n))‖Xw − y‖² + α‖w‖₁, the same
// minimiser for λ = 2nα. Either choose `.scaling = LassoScaling::ScikitLearn` and give α as
// `lambda`, or convert: λ = 2 n α.
enum class LassoScaling { Notes, ScikitLearn };
constexpr auto enum_names(LassoScaling) {
  return std::to_array<EnumName<LassoScaling>>({{LassoScaling::Notes, "notes"}, {LassoScaling::ScikitLearn, "scikit_learn"}});
}

struct LassoOptions {
  Scalar lambda = 1.0;  // ≥ 0, in the convention of `scaling`
  LassoScaling scaling = LassoScaling::Notes;
  bool fit_intercept = true;  // unpenalised, by centring
  Index max_iterations = 10000;   // ≥ 1 passes over all coordinates
  Scalar tolerance = 1e-12;   // stop when max_j |Δw_j| / max(|w_j|, 1) ≤ tolerance over a sweep
  CoordinateOrder order = CoordinateOrder::Cyclic;  // or Random (seeded permutation per sweep)
  std::uint64_t seed = 0;
  Vector initial_coef{};  // warm start (empty: w = 0), one entry per feature
  // > 0: also stop when the duality gap ≤ gap_tolerance · ‖yc‖² (Note [LASSO duality gap];
  // scikit-learn's tol). Model-file layout 2 added it.
  Scalar gap_tolerance = 0;

  template <class V>
  void visit(V&& v) {
    v("lambda", lambda, "λ ≥ 0, the weight of the L1 penalty, in the convention of scaling");
    v("scaling", scaling, "notes (‖Xw − y‖² + λ‖w‖₁) or scikit_learn (‖Xw − y‖²/(2n) + λ‖w‖₁)");
    v("fit_intercept", fit_intercept, "fit an unpenalised intercept");
    v("max_iterations", max_iterations, "≥ 1 coordinate-descent sweeps");
    v("tolerance", tolerance, "stop when max_j |Δw_j| / max(|w_j|, 1) ≤ tolerance over a sweep");
    v("order", order, "cyclic or random (a seeded permutation per sweep)");
    v("seed", seed, "for order = random");
    v("initial_coef", initial_coef, "warm start (empty: 0), one entry per feature");
    v("gap_tolerance", gap_tolerance,
      "≥ 0; > 0: also stop when the duality gap ≤ gap_tolerance · ‖y − ȳ‖² (scikit-learn's tol)");
  }
  static constexpr std::uint32_t field_layout(std::string_view field) { return field == "gap_tolerance" ? 2 : 1; }
};

// Note [LASSO duality gap]
// With α = λ/2, L(w) = 2 P(w), P(w) = ½‖y − Xw‖² + α‖w‖₁, whose dual is
// D(θ) = ½‖y‖² − ½‖y − θ‖² over ‖Xᵀθ‖_∞ ≤ α. The residual R = y − Xw scaled into the dual's
// feasible set, θ = s R with s = min(1, α / ‖XᵀR‖_∞), gives the gap
//   P(w) − D(θ) = ½‖R‖²(1 + s²) + α‖w‖₁ − s Rᵀy  ≥ P(w) − min P,
// a certificate that w is within it of the minimum (scikit-learn's enet_coordinate_descent_gram,
// which stops at gap < tol · ‖y‖²). The sweeps keep q = XᵀR = c − Gw, so with c = Xᵀy
// ‖R‖² = yᵀy − cᵀw − qᵀw and Rᵀy = yᵀy − cᵀw: O(d) per sweep. At w = 0 and λ ≥ λ_max the gap is 0.

// Objective: L(w) = ‖Xc w − yc‖² + λ‖w‖₁ on the centred data. Coordinate descent (optim/
// coordinate_descent.h) with the exact coordinate minimiser (notes 000 §2.6), with G = XcᵀXc and
// c = Xcᵀyc precomputed so that a coordinate costs O(d):
//   a_j = 2 x_jᵀ(yc − Σ_{k≠j} w_k x_k) = 2(c_j − G_j·w + G_jj w_j),   b_j = 2 G_jj,
//   w_j ← S(a_j, λ) / b_j,  S(a, λ) = sign(a) max(|a| − λ, 0)    (w_j ← 0 for a zero column).
// All coefficients are 0 exactly when λ ≥ λ_max = max_j |2 x_jᵀ yc|.
class Lasso : public LinearRegressor<Lasso, LassoOptions> {
 public:
  static constexpr const char* kTypeName = "lasso";
  // Layout 2 added the option gap_tolerance (older files load with 0).
  static constexpr std::uint32_t kModelVersion = 2;

  // Throws ValueError for a negative or non-finite λ, max_iterations < 1, a negative tolerance or
  // gap_tolerance, or a non-finite initial_coef.
  explicit Lasso(const LassoOptions& options = {});

  // X n×d, y length n. Throws ValueError (empty, NaN) and ShapeError (lengths, initial_coef).
  // The callbacks (optim/callbacks.h) run after every sweep with the objective L(w) of the notes'
  // scale as the value, x = w (centred problem, no intercept) and no gradient norm (NaN); a Stop
  // ends the fit after that sweep with Status::CallbackStop in optimizer_result(), and the model
  // holds the w of the result (EarlyStopping may restore an earlier one).
  Lasso& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});

  // λ_max for this data, in the convention of `scaling` (for ScikitLearn: max_j |x_jᵀyc| / n).
  static Scalar lambda_max(const Tensor& X, const Vector& y, bool fit_intercept = true,
                           LassoScaling scaling = LassoScaling::Notes);

  // The objective of the notes, ‖Xc w − yc‖² + λ‖w‖₁, at the fitted w (λ in the notes' scale).
  Scalar objective_value() const { return fitted_value(objective_); }
  const Result& optimizer_result() const { return result_; }  // sweeps, status, history (one L per sweep)

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_linear(ar);
    ar(objective_);
  }

 private:
  Result result_;
  Scalar objective_ = 0;
};

extern template class Estimator<Lasso, LassoOptions>;

struct LassoPath {
  std::vector<Scalar> lambdas;  // as given (descending), in the convention of options.scaling
  Tensor coefs;                 // d × (number of λ): column k is w(λ_k)
  Vector intercepts;            // one per λ
  std::vector<Index> entering;  // features in the order they first become non-zero along the path
};

// Fits λ_0 > λ_1 > … in turn, each warm-started from the previous solution (options.lambda and
// options.initial_coef are ignored). Throws ValueError unless the λ are finite, ≥ 0 and
// strictly decreasing, and as Lasso::fit.
LassoPath lasso_path(const Tensor& X, const Vector& y, const std::vector<Scalar>& lambdas,
                     const LassoOptions& options = {});

// count values from `largest` down to largest·ratio, equally spaced in log scale (count ≥ 2,
// largest > 0, 0 < ratio < 1; ValueError otherwise). The usual path grid, from λ_max.
std::vector<Scalar> geometric_lambdas(Scalar largest, Scalar ratio, Index count);

}  // namespace dagml
