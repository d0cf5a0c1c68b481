#include "models/linear/lasso.h"

#include <algorithm>
#include <cmath>

#include "models/data/validate.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<Lasso, LassoOptions>;
namespace {

// The λ of the notes' objective for these options and n samples (Note [LASSO scaling]).
Scalar notes_lambda(Scalar lambda, LassoScaling scaling, Index n) {
  return scaling == LassoScaling::ScikitLearn ? 2 * static_cast<Scalar>(n) * lambda : lambda;
}

// S(a, λ) = sign(a) max(|a| − λ, 0).
Scalar soft_threshold(Scalar a, Scalar lambda) {
  if (a > lambda) return a - lambda;
  if (a < -lambda) return a + lambda;
  return 0;
}

struct LassoSolution {
  Vector w;
  Result result;
  Scalar objective = 0;
};

// The sufficient statistics of the centred data, computed once per fit or per path.
struct LassoGram {
  explicit LassoGram(const CenteredData& c)
      : G(c.X.transpose() * c.X), cy(c.X.transpose() * c.y), yy(c.y.squaredNorm()) {}
  Tensor G;   // XcᵀXc
  Vector cy;  // Xcᵀyc
  Scalar yy;  // ycᵀyc
};

// Coordinate descent on ‖Xc w − yc‖² + λ‖w‖₁ (λ in the notes' scale) from w0.
LassoSolution solve_lasso(const LassoGram& gram, Scalar lambda, const Vector& w0, const LassoOptions& o,
                          const CallbackList& callbacks = {}) {
  const Tensor& G = gram.G;
  const Vector& cy = gram.cy;
  const Scalar yy = gram.yy;
  const Index d = G.rows();
  // ‖Xw − y‖² = wᵀGw − 2cᵀw + yᵀy; gradient of the smooth part 2(Gw − c).
  FunctionObjective objective({.dimension = d,
                               .value_and_gradient =
                                   [&](const Vector& w, Vector& gradient) {
                                     const Vector Gw = G * w;
                                     gradient = 2 * (Gw - cy) + lambda * w.cwiseSign();
                                     return w.dot(Gw) - 2 * cy.dot(w) + yy + lambda * w.lpNorm<1>();
                                   },
                               .value =
                                   [&](const Vector& w) {
                                     // wᵀGw entry by entry: evaluated after every sweep, so no temporary vector
                                     Scalar quadratic = 0;
                                     for (Index i = 0; i < d; ++i) quadratic += w(i) * G.row(i).dot(w.transpose());
                                     return quadratic - 2 * cy.dot(w) + yy + lambda * w.lpNorm<1>();
                                   }});
  // q = c − Gw is kept up to date as the coordinates change (the covariance update: an axpy with
  // row j of the symmetric G when w_j moves, nothing when it stays), so a_j = 2(q_j + G_jj w_j)
  // costs no dot product.
  // 1/b_j = 1/(2 G_jj), taken once: a division per coordinate is the slowest link of the chain
  // of dependent operations a sweep is.
  const Vector inverse_b = G.diagonal().unaryExpr([](Scalar g) { return g == 0 ? Scalar(0) : 1 / (2 * g); });
  Vector q = cy - G * w0;
  const auto minimizer = [&](const Vector& w, Index j) -> Scalar {
    if (inverse_b(j) == 0) return 0;  // a zero column: any w_j fits equally; the penalty picks 0
    const Scalar z = soft_threshold(2 * (q(j) + G(j, j) * w(j)), lambda) * inverse_b(j);
    if (z != w(j)) q.noalias() -= (z - w(j)) * G.row(j).transpose();  // G symmetric: row j is column j
    return z;
  };
  // Note [LASSO duality gap], with α = λ/2.
  const auto duality_gap = [&](const Vector& w) {
    const Scalar alpha = lambda / 2, cw = cy.dot(w);
    const Scalar residual_sq = yy - cw - q.dot(w), residual_y = yy - cw;
    const Scalar dual_norm = q.cwiseAbs().maxCoeff();
    const Scalar s = dual_norm > alpha ? alpha / dual_norm : 1;
    return 0.5 * residual_sq * (1 + s * s) + alpha * w.lpNorm<1>() - s * residual_y;
  };
  CoordinateDescentOptions cd{.stop = {.max_iterations = o.max_iterations,
                                       .gradient_tolerance = 0,
                                       .value_tolerance = 0,
                                       .step_tolerance = o.tolerance},
                              .order = o.order,
                              .seed = o.seed,
                              .coordinate_minimizer = minimizer,
                              .active_set = true,
                              .duality_gap = o.gap_tolerance > 0 ? std::function<Scalar(const Vector&)>(duality_gap)
                                                                 : std::function<Scalar(const Vector&)>(),
                              .gap_tolerance = o.gap_tolerance * yy};
  LassoSolution s;
  s.result = minimize(objective, w0, cd, callbacks);
  s.w = s.result.x;
  s.objective = s.result.value;
  return s;
}

}  // namespace

Lasso::Lasso(const LassoOptions& options) : LinearRegressor(options) {
  const char* who = "Lasso";
  if (!(options.lambda >= 0) || !std::isfinite(options.lambda)) {
    throw ValueError(fmt::format("{}: expected lambda ≥ 0 and finite, found {}", who, options.lambda));
  }
  if (options.max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", who, options.max_iterations));
  if (!(options.tolerance >= 0))
    throw ValueError(fmt::format("{}: expected tolerance ≥ 0, found {}", who, options.tolerance));
  if (!(options.gap_tolerance >= 0) || !std::isfinite(options.gap_tolerance))
    throw ValueError(fmt::format("{}: expected gap_tolerance ≥ 0 and finite, found {}", who, options.gap_tolerance));
  check_finite(options.initial_coef, who);
}

Lasso& Lasso::fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
  const char* who = "Lasso::fit";
  check_regression_data(X, y, who);
  const Index d = X.cols();
  if (options_.initial_coef.size() != 0 && options_.initial_coef.size() != d) {
    throw ShapeError(fmt::format("{}: expected an initial_coef with one entry per feature ({}), found {}", who, d,
                                 options_.initial_coef.size()));
  }
  const Vector w0 = options_.initial_coef.size() ? options_.initial_coef : Vector::Zero(d);
  const CenteredData c = center_data(X, y, options_.fit_intercept);
  LassoSolution s =
      solve_lasso(LassoGram(c), notes_lambda(options_.lambda, options_.scaling, X.rows()), w0, options_, callbacks);
  result_ = std::move(s.result);
  objective_ = s.objective;
  const Scalar b = c.y_mean - c.x_mean.dot(s.w);
  set_fit(std::move(s.w), b);
  return *this;
}

Scalar Lasso::lambda_max(const Tensor& X, const Vector& y, bool fit_intercept, LassoScaling scaling) {
  check_regression_data(X, y, "Lasso::lambda_max");
  const CenteredData c = center_data(X, y, fit_intercept);
  const Scalar notes = 2 * (c.X.transpose() * c.y).cwiseAbs().maxCoeff();
  return scaling == LassoScaling::ScikitLearn ? notes / (2 * static_cast<Scalar>(X.rows())) : notes;
}

LassoPath lasso_path(const Tensor& X, const Vector& y, const std::vector<Scalar>& lambdas,
                     const LassoOptions& options) {
  const char* who = "lasso_path";
  Lasso check(options);  // validates the options
  check_regression_data(X, y, who);
  if (lambdas.empty()) throw ValueError(fmt::format("{}: expected at least one lambda, found none", who));
  for (std::size_t k = 0; k < lambdas.size(); ++k) {
    if (!(lambdas[k] >= 0) || !std::isfinite(lambdas[k]) || (k > 0 && !(lambdas[k] < lambdas[k - 1]))) {
      throw ValueError(fmt::format("{}: expected finite, non-negative, strictly decreasing lambdas, found {} at {}",
                                   who, lambdas[k], k));
    }
  }
  const CenteredData c = center_data(X, y, options.fit_intercept);
  const Index d = X.cols();
  LassoPath path;
  path.lambdas = lambdas;
  path.coefs = Tensor::Zero(d, static_cast<Index>(lambdas.size()));
  path.intercepts = Vector::Zero(static_cast<Index>(lambdas.size()));
  const LassoGram gram(c);
  Vector w = Vector::Zero(d);
  std::vector<bool> seen(static_cast<std::size_t>(d), false);
  for (std::size_t k = 0; k < lambdas.size(); ++k) {
    w = solve_lasso(gram, notes_lambda(lambdas[k], options.scaling, X.rows()), w, options).w;  // warm start
    const Index col = static_cast<Index>(k);
    path.coefs.col(col) = w;
    path.intercepts(col) = c.y_mean - c.x_mean.dot(w);
    for (Index j = 0; j < d; ++j) {
      if (w(j) != 0 && !seen[static_cast<std::size_t>(j)]) {
        seen[static_cast<std::size_t>(j)] = true;
        path.entering.push_back(j);
      }
    }
  }
  return path;
}

std::vector<Scalar> geometric_lambdas(Scalar largest, Scalar ratio, Index count) {
  if (count < 2 || !(largest > 0) || !std::isfinite(largest) || !(ratio > 0 && ratio < 1)) {
    throw ValueError(
        fmt::format("geometric_lambdas: expected largest > 0, 0 < ratio < 1 and count ≥ 2, found {}, "
                    "{}, {}",
                    largest, ratio, count));
  }
  std::vector<Scalar> v;
  for (Index k = 0; k < count; ++k) {
    v.push_back(largest * std::pow(ratio, static_cast<Scalar>(k) / static_cast<Scalar>(count - 1)));
  }
  return v;
}

}  // namespace dagml
