// Random Fourier features: φ(X)φ(X)ᵀ converges to the Gram matrix like 1/√m, within the bound its
// per-entry variance gives, for every supported kernel; the frequencies and phases have the
// spectral distributions of Note [Spectral densities], compared with scikit-learn 1.2.1's
// RBFSampler and SciPy's Student t (kernel_approximation_reference.py); amplitudes; errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "graph/error.h"
#include "kernel_approximation_reference.h"
#include "models/data/datasets.h"
#include "models/kernel/kernel_algebra.h"
#include "models/kernel/random_fourier_features.h"
#include "models/kernel/stationary_kernels.h"

namespace dagml {
namespace {

namespace ref = kernel_approximation_reference;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

Tensor iris_features() { return load_dataset("iris").features; }

// mean |φ(X)φ(X)ᵀ − K| over all n² entries.
Scalar rff_gram_mean_absolute_error(const KernelPtr& kernel, const Tensor& X, Index m, std::uint64_t seed) {
  RandomFourierFeatures rff({.kernel = kernel, .num_components = m, .seed = seed});
  const Tensor Phi = rff.fit_transform(X);
  return (Phi * Phi.transpose() - kernel->gram(X)).cwiseAbs().mean();
}

// The standard deviation of each entry of φφᵀ at m features (random_fourier_features.h):
// σᵢⱼ² = (κ(0)² + κ(0) k(2τ)/2 − k(τ)²)/m with τ = xᵢ − xⱼ, k(2τ) being the Gram matrix of 2X.
// Its mean over the entries, times √(2/π), is the expected mean absolute error for large m
// (E|N(0, σ²)| = σ √(2/π)).
Scalar rff_expected_mean_absolute_error(const KernelPtr& kernel, Scalar amplitude, const Tensor& X, Index m) {
  const Tensor K = kernel->gram(X);
  const Tensor K_double = kernel->gram(Tensor(2 * X));
  const Tensor variance =
      (amplitude * amplitude + amplitude * K_double.array() / 2 - K.array().square()) / static_cast<Scalar>(m);
  return std::sqrt(2 / std::numbers::pi) * variance.array().sqrt().mean();
}

struct ConvergenceCase {
  const char* name;
  KernelPtr kernel;
  Scalar amplitude;  // κ(0)
};

std::vector<ConvergenceCase> convergence_cases() {
  KernelHyperparameter ard{.name = "length_scale", .value = Vector{{1.0, 0.5, 2.0, 0.7}}};
  return {
      {"rbf(gamma=0.5)", std::make_shared<RbfKernel>(0.5), 1},
      {"rbf ARD", std::make_shared<SquaredExponentialKernel>(ard), 1},
      {"matern 0.5", std::make_shared<MaternKernel>(0.5, 1.5), 1},
      {"matern 1.5", std::make_shared<MaternKernel>(1.5, 1.0), 1},
      {"matern 2.5 ARD", std::make_shared<MaternKernel>(2.5, ard), 1},
      {"3 * rbf(length_scale=1.2)", constant(3.0) * std::make_shared<SquaredExponentialKernel>(1.2), 3},
  };
}

TEST(RandomFourierFeatures, GramErrorFallsLikeOneOverRootMWithinTheVarianceBound) {
  const Tensor X = iris_features();
  for (const auto& c : convergence_cases()) {
    SCOPED_TRACE(c.name);
    const Scalar error_100 = rff_gram_mean_absolute_error(c.kernel, X, 100, 7);
    const Scalar error_10000 = rff_gram_mean_absolute_error(c.kernel, X, 10000, 7);
    const Scalar expected_10000 = rff_expected_mean_absolute_error(c.kernel, c.amplitude, X, 10000);
    // 100× the features: √100 = 10× smaller error. The n² entries share the same m draws, so
    // one draw's mean absolute error varies by about ±40 % around its expectation (simulated over
    // seeds in NumPy): the ratio lies between 4 and 25, far from 1 (no convergence) and 100 (1/m).
    EXPECT_GT(error_100 / error_10000, 4);
    EXPECT_LT(error_100 / error_10000, 25);
    // The error at m = 10,000 is the Monte Carlo error its variance predicts, within a factor of
    // 2 (by Markov's inequality a draw exceeds twice its expectation with probability ≤ 1/2; the
    // simulated spread is 0.6–1.25). A wrong spectral density leaves a bias instead: ω off by √2 in
    // scale gives a mean absolute error of 0.09–0.10 for the RBF case, about 0.0074 expected here.
    EXPECT_LT(error_10000, 2 * expected_10000);
    EXPECT_GT(error_10000, 0.4 * expected_10000);
  }
}

TEST(RandomFourierFeatures, RbfErrorMatchesScikitLearnsRbfSampler) {
  // Another generator, the same distribution: errors of the same size as RBFSampler's, within
  // the factor 2 that one draw's spread allows (see above).
  const Tensor X = iris_features();
  const KernelPtr rbf = std::make_shared<RbfKernel>(0.5);
  for (const auto& [m, sklearn_error] :
       {std::pair<Index, Scalar>{100, ref::rbf_sampler_gram_mae_100}, {10000, ref::rbf_sampler_gram_mae_10000}}) {
    SCOPED_TRACE(m);
    const Scalar ratio = rff_gram_mean_absolute_error(rbf, X, m, 0) / sklearn_error;
    EXPECT_GT(ratio, 0.5);
    EXPECT_LT(ratio, 2);
  }
}

TEST(RandomFourierFeatures, RbfFrequenciesAndPhasesHaveRbfSamplersDistribution) {
  // ω ~ N(0, 2γ I) = N(0, I) for γ = 1/2 and b ~ U(0, 2π), as scikit-learn's RBFSampler.
  RandomFourierFeatures rff({.kernel = std::make_shared<RbfKernel>(0.5), .num_components = 10000});
  rff.fit(Tensor::Zero(1, 4));
  const Tensor& W = rff.frequencies();
  const Vector& b = rff.phases();
  ASSERT_EQ(W.rows(), 10000);
  ASSERT_EQ(W.cols(), 4);
  const Scalar N = static_cast<Scalar>(W.size());
  const Scalar mean = W.mean();
  const Scalar variance = (W.array() - mean).square().mean();
  // Standard errors: 1/√N for the mean, √(2/N) for the variance of N(0, 1) (N = 40,000); four of
  // them around the true value, and RBFSampler's own draw within the same distance.
  EXPECT_NEAR(mean, 0, 4 / std::sqrt(N));
  EXPECT_NEAR(variance, 1, 4 * std::sqrt(2 / N));
  EXPECT_NEAR(mean, ref::rbf_sampler_frequency_mean, 8 / std::sqrt(N));
  EXPECT_NEAR(variance, ref::rbf_sampler_frequency_variance, 8 * std::sqrt(2 / N));
  // U(0, 2π): mean π (standard error π/√(3m)), variance π²/3 (standard error (2π²/√45)/√m).
  const Scalar m = static_cast<Scalar>(b.size());
  const Scalar b_mean = b.mean();
  const Scalar b_variance = (b.array() - b_mean).square().mean();
  const Scalar pi = std::numbers::pi;
  EXPECT_GE(b.minCoeff(), 0);
  EXPECT_LT(b.maxCoeff(), 2 * pi);
  EXPECT_NEAR(b_mean, pi, 4 * pi / std::sqrt(3 * m));
  EXPECT_NEAR(b_variance, pi * pi / 3, 4 * 2 * pi * pi / std::sqrt(45 * m));
  EXPECT_NEAR(b_mean, ref::rbf_sampler_phase_mean, 8 * pi / std::sqrt(3 * m));
  EXPECT_NEAR(b_variance, ref::rbf_sampler_phase_variance, 8 * 2 * pi * pi / std::sqrt(45 * m));
}

TEST(RandomFourierFeatures, MaternFrequenciesAreStudentT) {
  // Each coordinate of ω ℓ is a Student t with 2ν degrees of freedom: the median of |ω_k| ℓ is
  // SciPy's t.ppf(0.75, 2ν). 40,000 draws put the sample quantile within ±0.03 (about four
  // standard errors √(p(1−p)/N)/f(q), f the t density, for the three ν).
  const Scalar length_scale = 2.0;
  const Scalar nus[] = {0.5, 1.5, 2.5};
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(nus[i]);
    RandomFourierFeatures rff(
        {.kernel = std::make_shared<MaternKernel>(nus[i], length_scale), .num_components = 10000});
    rff.fit(Tensor::Zero(1, 4));
    Tensor scaled = rff.frequencies().cwiseAbs() * length_scale;
    std::vector<Scalar> v(scaled.data(), scaled.data() + scaled.size());
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    EXPECT_NEAR(v[v.size() / 2], ref::student_t_upper_quartile[i], 0.03);
  }
}

TEST(RandomFourierFeatures, GammaAndLengthScaleFormsDrawTheSameFrequencies) {
  // exp(−γ‖τ‖²) is the squared exponential with ℓ = 1/√(2γ): the same draws, the same features.
  const Tensor X = iris_features();
  RandomFourierFeatures by_gamma({.kernel = std::make_shared<RbfKernel>(0.125), .num_components = 50, .seed = 3});
  RandomFourierFeatures by_length(
      {.kernel = std::make_shared<SquaredExponentialKernel>(2.0), .num_components = 50, .seed = 3});
  EXPECT_TRUE(by_gamma.fit_transform(X).isApprox(by_length.fit_transform(X), 1e-12));
}

TEST(RandomFourierFeatures, ConstantFactorScalesTheFeaturesByItsSquareRoot) {
  // κ(0) = c for c · k, in either factor order: φ is √c times k's features (the same draws).
  const Tensor X = iris_features();
  const KernelPtr matern = std::make_shared<MaternKernel>(1.5, 1.0);
  const Tensor base = RandomFourierFeatures({.kernel = matern, .num_components = 40, .seed = 5}).fit_transform(X);
  for (const KernelPtr& scaled : {constant(4.0) * matern, matern * constant(4.0)}) {
    SCOPED_TRACE(scaled->name());
    const Tensor Phi = RandomFourierFeatures({.kernel = scaled, .num_components = 40, .seed = 5}).fit_transform(X);
    EXPECT_TRUE(Phi.isApprox(2 * base, 1e-14));
  }
}

TEST(RandomFourierFeatures, FeaturesAreTheFormulaAndDependOnlyOnTheSeed) {
  const Tensor X = iris_features();
  RandomFourierFeatures rff({.kernel = std::make_shared<RbfKernel>(0.3), .num_components = 20, .seed = 11});
  const Tensor Phi = rff.fit_transform(X);
  ASSERT_EQ(Phi.rows(), 150);
  ASSERT_EQ(Phi.cols(), 20);
  // φ(x)_j = √(2/m) cos(ω̂ⱼᵀx + b̂ⱼ), entry by entry.
  const Scalar scale = std::sqrt(2.0 / 20);
  EXPECT_NEAR(Phi(17, 3), scale * std::cos(rff.frequencies().row(3).dot(X.row(17)) + rff.phases()(3)), 1e-14);
  // Only the column count of X is used: other rows give the same draws.
  RandomFourierFeatures again({.kernel = std::make_shared<RbfKernel>(0.3), .num_components = 20, .seed = 11});
  again.fit(Tensor::Ones(3, 4));
  EXPECT_EQ(again.frequencies(), rff.frequencies());
  EXPECT_EQ(again.phases(), rff.phases());
  RandomFourierFeatures other({.kernel = std::make_shared<RbfKernel>(0.3), .num_components = 20, .seed = 12});
  other.fit(X);
  EXPECT_NE(other.frequencies(), rff.frequencies());
}

TEST(RandomFourierFeatures, RejectsBadOptionsAndInput) {
  EXPECT_THAT([] { RandomFourierFeatures({.num_components = 0}); },
              ThrowsMessage<ValueError>(HasSubstr("expected num_components ≥ 1, found 0")));
  EXPECT_THAT([] { RandomFourierFeatures({.kernel = nullptr}); }, ThrowsMessage<ValueError>(HasSubstr("null")));
  const KernelPtr unsupported[] = {
      std::make_shared<LinearKernel>(),
      std::make_shared<PolynomialKernel>(2),
      std::make_shared<PeriodicKernel>(),
      std::make_shared<RationalQuadraticKernel>(),
      white(1.0),
      std::make_shared<RbfKernel>(1.0) + white(0.1),
      std::make_shared<RbfKernel>(1.0) * std::make_shared<MaternKernel>(1.5, 1.0),
  };
  for (const KernelPtr& kernel : unsupported) {
    SCOPED_TRACE(kernel->name());
    EXPECT_THAT([&] { RandomFourierFeatures({.kernel = kernel}); },
                ThrowsMessage<ValueError>(HasSubstr("expected a kernel with a known spectral density")));
  }
  RandomFourierFeatures rff({.num_components = 5});
  EXPECT_THROW(rff.transform(Tensor::Zero(2, 3)), NotFittedError);
  Tensor X = Tensor::Ones(4, 3);
  X(1, 2) = std::nan("");
  EXPECT_THROW(rff.fit(X), ValueError);
  rff.fit(Tensor::Ones(4, 3));
  EXPECT_THROW(rff.transform(Tensor::Ones(2, 4)), ShapeError);
  Tensor Y = Tensor::Ones(2, 3);
  Y(0, 0) = std::nan("");
  EXPECT_THROW(rff.transform(Y), ValueError);
  // Per-feature length scales need that many columns.
  KernelHyperparameter ard{.name = "length_scale", .value = Vector{{1.0, 2.0}}};
  RandomFourierFeatures ard_rff({.kernel = std::make_shared<SquaredExponentialKernel>(ard)});
  EXPECT_THAT([&] { ard_rff.fit(Tensor::Ones(4, 3)); }, ThrowsMessage<ShapeError>(HasSubstr("2 length scales")));
}

}  // namespace
}  // namespace dagml
