#include "models/kernel/stationary_kernels.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "autodiff/elementwise.h"
#include "graph/error.h"

namespace dagml {
namespace {
KernelHyperparameter named(KernelHyperparameter h, const char* name) {
  h.name = name;
  return h;
}
}  // namespace

Var distances_from_squared(Var s) {
  return sqrt(clamp(s, std::numeric_limits<Scalar>::min(), std::numeric_limits<Scalar>::infinity()));
}

// --- The shared part ------------------------------------------------------------------------------

StationaryKernel::StationaryKernel(KernelHyperparameter length_scale, const char* who)
    : length_scale_(named(std::move(length_scale), "length_scale")) {
  check_hyperparameter(length_scale_, who);
}

Scalar StationaryKernel::operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const {
  if (anisotropic() && x.size() != length_scale().size())
    throw ShapeError(fmt::format("{}: expected {} features (one per length scale), found {}", name(),
                                 length_scale().size(), x.size()));
  const Scalar s = anisotropic() ? ((x - z).array() / length_scale().array()).square().sum()
                                 : (x - z).squaredNorm() / (length_scale()[0] * length_scale()[0]);
  const std::vector<Scalar> extra = extra_values();
  return profile(s, extra);
}

void StationaryKernel::gram_block(const Tensor& A_rows, const RowsRef& B, Index, Eigen::Ref<Tensor> out) const {
  if (anisotropic() && A_rows.cols() != length_scale().size())
    throw ShapeError(fmt::format("{}: expected {} features (one per length scale), found {}", name(),
                                 length_scale().size(), A_rows.cols()));
  const Eigen::Array<Scalar, 1, Eigen::Dynamic> inverse =
      anisotropic() ? Eigen::Array<Scalar, 1, Eigen::Dynamic>(1 / length_scale().array().transpose())
                    : Eigen::Array<Scalar, 1, Eigen::Dynamic>::Constant(A_rows.cols(), 1 / length_scale()[0]);
  const std::vector<Scalar> extra = extra_values();
  for (Index j = 0; j < B.rows(); ++j) {
    const Eigen::Array<Scalar, 1, Eigen::Dynamic> b = B.row(j).array() * inverse;
    for (Index i = 0; i < A_rows.rows(); ++i)
      out(i, j) = profile((A_rows.row(i).array() * inverse - b).square().sum(), extra);
  }
}

// s = D(A, B)/ℓ² (isotropic) or D(A/ℓ, B/ℓ) (ARD), ℓ = e^{θ₀}.
Var StationaryKernel::build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const {
  Var s;
  if (anisotropic()) {
    if (rows.A.cols() != length_scale().size())
      throw ShapeError(fmt::format("{}: expected {} features (one per length scale), found {}", name(),
                                   length_scale().size(), rows.A.cols()));
    const Var inverse = exp(neg(log_values[0]));  // 1×d
    s = squared_distances_graph({rows.A * inverse, rows.B * inverse, rows.same});
  } else {
    s = squared_distances_graph(rows) * exp(log_values[0] * -2.0);
  }
  const Var r = needs_distance() ? distances_from_squared(s) : Var{};
  return profile_graph(s, r, log_values.subspan(1));
}

// --- Squared exponential ----------------------------------------------------------------------------

SquaredExponentialKernel::SquaredExponentialKernel(KernelHyperparameter length_scale)
    : StationaryKernel(std::move(length_scale), "SquaredExponentialKernel") {}

std::string SquaredExponentialKernel::name() const { return fmt::format("rbf({})", format_hyperparameter(length_scale_)); }

Scalar SquaredExponentialKernel::profile(Scalar s, std::span<const Scalar>) const { return std::exp(-0.5 * s); }

Var SquaredExponentialKernel::profile_graph(Var s, Var, std::span<const Var>) const { return exp(s * -0.5); }

KernelPtr SquaredExponentialKernel::with_values(const std::vector<KernelHyperparameter>& values) const {
  return std::make_shared<SquaredExponentialKernel>(values[0]);
}

// --- Matérn -------------------------------------------------------------------------------------------

MaternKernel::MaternKernel(Scalar nu, KernelHyperparameter length_scale)
    : StationaryKernel(std::move(length_scale), "MaternKernel"), nu_(nu) {
  if (nu != 0.5 && nu != 1.5 && nu != 2.5)
    throw ValueError(fmt::format("MaternKernel: expected nu = 0.5, 1.5 or 2.5 (the closed forms), found {}", nu));
}

std::string MaternKernel::name() const {
  return fmt::format("matern(nu={}, {})", nu_, format_hyperparameter(length_scale_));
}

Scalar MaternKernel::profile(Scalar s, std::span<const Scalar>) const {
  const Scalar r = std::sqrt(s);
  if (nu_ == 0.5) return std::exp(-r);
  if (nu_ == 1.5) {
    const Scalar a = std::numbers::sqrt3 * r;
    return (1 + a) * std::exp(-a);
  }
  const Scalar a = std::sqrt(Scalar(5)) * r;
  return (1 + a + a * a / 3) * std::exp(-a);
}

Var MaternKernel::profile_graph(Var s, Var r, std::span<const Var>) const {
  if (nu_ == 0.5) return exp(neg(r));
  if (nu_ == 1.5) {
    const Var a = r * std::numbers::sqrt3;
    return (a + 1.0) * exp(neg(a));
  }
  const Var a = r * std::sqrt(Scalar(5));
  return (a + s * (5.0 / 3.0) + 1.0) * exp(neg(a));
}

KernelPtr MaternKernel::with_values(const std::vector<KernelHyperparameter>& values) const {
  return std::make_shared<MaternKernel>(nu_, values[0]);
}

// --- Rational quadratic ---------------------------------------------------------------------------------

RationalQuadraticKernel::RationalQuadraticKernel(KernelHyperparameter length_scale, KernelHyperparameter alpha)
    : StationaryKernel(std::move(length_scale), "RationalQuadraticKernel"), alpha_(named(std::move(alpha), "alpha")) {
  check_hyperparameter(alpha_, "RationalQuadraticKernel");
  if (anisotropic() || alpha_.value.size() != 1)
    throw ValueError("RationalQuadraticKernel: expected one length scale and one alpha (isotropic)");
}

RationalQuadraticKernel::RationalQuadraticKernel(Scalar length_scale, Scalar alpha)
    : RationalQuadraticKernel(scalar_hyperparameter("length_scale", length_scale), scalar_hyperparameter("alpha", alpha)) {}

std::string RationalQuadraticKernel::name() const {
  return fmt::format("rational_quadratic({}, {})", format_hyperparameter(length_scale_), format_hyperparameter(alpha_));
}

Scalar RationalQuadraticKernel::profile(Scalar s, std::span<const Scalar> extra) const {
  return std::pow(1 + s / (2 * extra[0]), -extra[0]);
}

// (1 + s/(2α))^(−α) = exp(−α log(1 + s/(2α))), α = e^{θ}.
Var RationalQuadraticKernel::profile_graph(Var s, Var, std::span<const Var> log_extra) const {
  const Var alpha = exp(log_extra[0]);
  return exp(neg(alpha * log1p(s / (alpha * 2.0))));
}

KernelPtr RationalQuadraticKernel::with_values(const std::vector<KernelHyperparameter>& values) const {
  return std::make_shared<RationalQuadraticKernel>(values[0], values[1]);
}

// --- Periodic -------------------------------------------------------------------------------------------

PeriodicKernel::PeriodicKernel(KernelHyperparameter length_scale, KernelHyperparameter period)
    : length_scale_(named(std::move(length_scale), "length_scale")), period_(named(std::move(period), "period")) {
  check_hyperparameter(length_scale_, "PeriodicKernel");
  check_hyperparameter(period_, "PeriodicKernel");
  if (length_scale_.value.size() != 1 || period_.value.size() != 1)
    throw ValueError("PeriodicKernel: expected one length scale and one period (isotropic)");
}

PeriodicKernel::PeriodicKernel(Scalar length_scale, Scalar period)
    : PeriodicKernel(scalar_hyperparameter("length_scale", length_scale), scalar_hyperparameter("period", period)) {}

std::string PeriodicKernel::name() const {
  return fmt::format("periodic({}, {})", format_hyperparameter(length_scale_), format_hyperparameter(period_));
}

Scalar PeriodicKernel::operator()(Eigen::Ref<const Vector> x, Eigen::Ref<const Vector> z) const {
  const Scalar sine = std::sin(std::numbers::pi * (x - z).norm() / period());
  return std::exp(-2 * sine * sine / (length_scale() * length_scale()));
}

void PeriodicKernel::gram_block(const Tensor& A_rows, const RowsRef& B, Index, Eigen::Ref<Tensor> out) const {
  for (Index i = 0; i < A_rows.rows(); ++i)
    for (Index j = 0; j < B.rows(); ++j) out(i, j) = (*this)(A_rows.row(i).transpose(), B.row(j).transpose());
}

KernelPtr PeriodicKernel::with_values(const std::vector<KernelHyperparameter>& values) const {
  return std::make_shared<PeriodicKernel>(values[0], values[1]);
}

// k = exp(−2 sin²(π r/p) e^{−2θ_ℓ}), p = e^{θ_p}.
Var PeriodicKernel::build_gram_graph(const GramRows& rows, std::span<const Var> log_values) const {
  const Var r = distances_from_squared(squared_distances_graph(rows));
  const Var sine = sin(r * exp(neg(log_values[1])) * std::numbers::pi);
  return exp(square(sine) * exp(log_values[0] * -2.0) * -2.0);
}

}  // namespace dagml
