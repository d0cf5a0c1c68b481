// Regression workloads (see bench/RESULTS.md), each one fit from scratch per timed iteration,
// against scikit-learn in bench/reference_regression.py:
//   ridge_diabetes       Ridge λ = 1 on the standardised diabetes data (442 × 10), with intercept:
//                        ‖Xw + b − y‖² + λ‖w‖² (scikit-learn Ridge(alpha=1), the same sum)
//   lasso_diabetes       Lasso, scikit-learn scaling α = 1: (1/(2n))‖Xw + b − y‖² + α‖w‖₁
//                        (dagml λ = 2nα), coordinate descent from 0 until the duality gap is
//                        ≤ 1e-12·‖y − ȳ‖², scikit-learn's stopping rule at its tol = 1e-12
//   lasso_path_diabetes  the path over 100 α from α_max down to 1e-3·α_max, warm starts, the
//                        same stopping rule
//   kernel_ridge_rbf     KernelRidge, RBF kernel γ = 0.1, λ = 0.01, on n = 2000 synthetic points
//                        in 8 dimensions: Gram matrix and the Cholesky solve α = (K + λI)⁻¹y
// The synthetic points come from splitmix64, which the reference script reproduces bit for bit,
// so both sides fit the same data. Everything runs on one thread (the reference pins its BLAS to
// one thread too): main caps oneTBB at one worker. The counters report a checksum of the fit
// (Σ coefficients, or Σ αᵢ) that compare_regression.py checks against the reference's.
#include <benchmark/benchmark.h>
#include <tbb/global_control.h>

#include <cmath>
#include <cstdint>
#include <memory>

#include "models/data/datasets.h"
#include "models/data/standard_scaler.h"
#include "models/kernel/kernel.h"
#include "models/kernel/kernel_ridge.h"
#include "models/linear/lasso.h"
#include "models/linear/ridge.h"

using namespace dagml;

namespace {

struct Diabetes {
  Tensor Z;  // standardised features (population standard deviation)
  Vector y;
};

const Diabetes& diabetes() {
  static const Diabetes d = [] {
    const Dataset ds = load_dataset("diabetes");
    return Diabetes{StandardScaler().fit_transform(ds.features), ds.target};
  }();
  return d;
}

// splitmix64 (Steele, Lea, Flood 2014); u = top 53 bits · 2⁻⁵³ ∈ [0, 1).
struct SplitMix64 {
  std::uint64_t state;
  double uniform() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1p-53;
  }
};

constexpr Index kKernelSamples = 2000, kKernelFeatures = 8;

// xᵢⱼ uniform on [−1, 1), yᵢ = sin(3 xᵢ₀) + xᵢ₁² + 0.1 (uᵢ − ½), drawn row by row.
struct Synthetic {
  Tensor X;
  Vector y;
};

const Synthetic& synthetic() {
  static const Synthetic s = [] {
    SplitMix64 rng{42};
    Synthetic out{Tensor(kKernelSamples, kKernelFeatures), Vector(kKernelSamples)};
    for (Index i = 0; i < kKernelSamples; ++i) {
      for (Index j = 0; j < kKernelFeatures; ++j) out.X(i, j) = 2 * rng.uniform() - 1;
      out.y(i) = std::sin(3 * out.X(i, 0)) + out.X(i, 1) * out.X(i, 1) + 0.1 * (rng.uniform() - 0.5);
    }
    return out;
  }();
  return s;
}

void ridge_diabetes(benchmark::State& state) {
  const Diabetes& d = diabetes();
  Ridge ridge({.lambda = 1.0});
  for (auto _ : state) {
    ridge.fit(d.Z, d.y);
    benchmark::DoNotOptimize(ridge.coef().data());
  }
  state.counters["checksum"] = ridge.coef().sum() + ridge.intercept();
}

void lasso_diabetes(benchmark::State& state) {
  const Diabetes& d = diabetes();
  Lasso lasso({.lambda = 1.0, .scaling = LassoScaling::ScikitLearn, .tolerance = 0, .gap_tolerance = 1e-12});
  for (auto _ : state) {
    lasso.fit(d.Z, d.y);
    benchmark::DoNotOptimize(lasso.coef().data());
  }
  state.counters["checksum"] = lasso.coef().sum() + lasso.intercept();
  state.counters["sweeps"] = static_cast<double>(lasso.optimizer_result().iterations);
}

void lasso_path_diabetes(benchmark::State& state) {
  const Diabetes& d = diabetes();
  LassoPath path;
  for (auto _ : state) {
    // λ_max and the grid are part of the work, as in scikit-learn's lasso_path.
    const auto lambdas = geometric_lambdas(Lasso::lambda_max(d.Z, d.y, true, LassoScaling::ScikitLearn), 1e-3, 100);
    path =
        lasso_path(d.Z, d.y, lambdas, {.scaling = LassoScaling::ScikitLearn, .tolerance = 0, .gap_tolerance = 1e-12});
    benchmark::DoNotOptimize(path.coefs.data());
  }
  state.counters["checksum"] = path.coefs.sum();
}

void kernel_ridge_rbf(benchmark::State& state) {
  const Synthetic& s = synthetic();
  KernelRidge krr({.kernel = std::make_shared<RbfKernel>(0.1), .lambda = 0.01});
  for (auto _ : state) {
    krr.fit(s.X, s.y);
    benchmark::DoNotOptimize(krr.dual_coef().data());
  }
  state.counters["checksum"] = krr.dual_coef().sum();
}

}  // namespace

BENCHMARK(ridge_diabetes)->Unit(benchmark::kMicrosecond);
BENCHMARK(lasso_diabetes)->Unit(benchmark::kMicrosecond);
BENCHMARK(lasso_path_diabetes)->Unit(benchmark::kMillisecond);
BENCHMARK(kernel_ridge_rbf)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  const tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
