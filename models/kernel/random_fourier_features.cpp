#include "models/kernel/random_fourier_features.h"

#include <cmath>
#include <numbers>
#include <random>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/kernel/kernel_algebra.h"
#include "models/kernel/stationary_kernels.h"

namespace dagml {

template class Estimator<RandomFourierFeatures, RandomFourierFeaturesOptions>;

SpectralDensity spectral_density(const Kernel& kernel, const char* who) {
  if (const auto* rbf = dynamic_cast<const RbfKernel*>(&kernel)) {
    // exp(−γ‖τ‖²) = exp(−‖τ‖²/(2ℓ²)) with 1/ℓ = √(2γ).
    return {.inverse_length = Vector::Constant(1, std::sqrt(2 * rbf->gamma()))};
  }
  if (const auto* se = dynamic_cast<const SquaredExponentialKernel*>(&kernel)) {
    return {.inverse_length = se->length_scale().cwiseInverse()};
  }
  if (const auto* matern = dynamic_cast<const MaternKernel*>(&kernel)) {
    return {.inverse_length = matern->length_scale().cwiseInverse(),
            .degrees_of_freedom = static_cast<Index>(std::lround(2 * matern->nu()))};
  }
  if (const auto* product = dynamic_cast<const CompositeKernel*>(&kernel);
      product && product->operation() == CompositeKernel::Operation::Product) {
    // c · k: the spectral density of k, κ(0) scaled by c.
    const auto* left = dynamic_cast<const ConstantKernel*>(product->left().get());
    const auto* right = dynamic_cast<const ConstantKernel*>(product->right().get());
    if (left || right) {
      SpectralDensity density = spectral_density(left ? *product->right() : *product->left(), who);
      density.amplitude *= left ? left->value() : right->value();
      return density;
    }
  }
  throw ValueError(fmt::format(
      "{}: expected a kernel with a known spectral density: rbf(gamma=…), rbf(length_scale=…) (one or one per "
      "feature), matern(nu=0.5|1.5|2.5, length_scale=…), or constant(value=c) times one of them; found {}",
      who, kernel.name()));
}

namespace {

// One frequency row ω̂ (Note [Spectral densities]): g ⊙ (1/ℓ) for a Gaussian density, and
// g ⊙ (1/ℓ) / √(u/ν') with u = Σ of ν' squared normals for a Student t with ν' degrees of freedom.
void draw_spectral_frequency(const SpectralDensity& density, std::mt19937_64& rng, Eigen::Ref<Vector> omega) {
  for (Index k = 0; k < omega.size(); ++k) omega(k) = standard_normal(rng);
  if (density.inverse_length.size() == 1) {
    omega *= density.inverse_length(0);
  } else {
    omega.array() *= density.inverse_length.array();
  }
  if (density.degrees_of_freedom > 0) {
    Scalar chi_squared = 0;
    for (Index k = 0; k < density.degrees_of_freedom; ++k) chi_squared += std::pow(standard_normal(rng), 2);
    omega /= std::sqrt(chi_squared / static_cast<Scalar>(density.degrees_of_freedom));
  }
}

}  // namespace

RandomFourierFeatures::RandomFourierFeatures(RandomFourierFeaturesOptions options) : Estimator(std::move(options)) {
  if (!options_.kernel) throw ValueError(fmt::format("{}: expected a kernel, found a null pointer", kTypeName));
  (void)spectral_density(*options_.kernel, kTypeName);
  if (options_.num_components < 1)
    throw ValueError(fmt::format("{}: expected num_components ≥ 1, found {}", kTypeName, options_.num_components));
}

RandomFourierFeatures& RandomFourierFeatures::fit(const Tensor& X) {
  const char* who = "random_fourier_features::fit";
  check_fit_data(X, who);
  const SpectralDensity density = spectral_density(*options_.kernel, who);
  const Index d = X.cols(), m = options_.num_components;
  if (density.inverse_length.size() != 1 && density.inverse_length.size() != d)
    throw ShapeError(fmt::format("{}: the kernel {} has {} length scales (one per feature), found X with {} columns",
                                 who, options_.kernel->name(), density.inverse_length.size(), d));
  std::mt19937_64 rng(options_.seed);
  Tensor omega(m, d);
  Vector row(d);
  for (Index j = 0; j < m; ++j) {
    draw_spectral_frequency(density, rng, row);
    omega.row(j) = row.transpose();
  }
  Vector b(m);
  for (Index j = 0; j < m; ++j) b(j) = 2 * std::numbers::pi * uniform01(rng);
  frequencies_ = std::move(omega);
  phases_ = std::move(b);
  set_fitted(d);
  return *this;
}

Tensor RandomFourierFeatures::fit_transform(const Tensor& X) { return fit(X).transform(X); }

Tensor RandomFourierFeatures::transform(const Tensor& X) const {
  check_input(X);
  const Scalar amplitude = spectral_density(*options_.kernel, "random_fourier_features::transform").amplitude;
  const Scalar scale = std::sqrt(2 * amplitude / static_cast<Scalar>(frequencies_.rows()));
  Tensor features = X * frequencies_.transpose();
  features.rowwise() += phases_.transpose();
  return scale * features.array().cos().matrix();
}

void RandomFourierFeatures::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  if (frequencies_.rows() < 1 || frequencies_.cols() != num_features() || phases_.size() != frequencies_.rows())
    ar.fail(fmt::format("{}: expected frequencies m×{} with m ≥ 1 and m phases, found {}×{} and {}", kTypeName,
                        num_features(), frequencies_.rows(), frequencies_.cols(), phases_.size()));
  if (!frequencies_.allFinite() || !phases_.allFinite())
    ar.fail(fmt::format("{}: expected finite frequencies and phases, found a NaN or infinity", kTypeName));
}

}  // namespace dagml
