// Optimizer workloads (see bench/RESULTS.md): L2-regularised logistic regression on the bundled
// breast-cancer data (569 × 30, standardised), mean loss
//   f(w, b) = (1/n) Σᵢ BCE(σ(xᵢᵀw + b), yᵢ) + (λ/2)‖w‖²,   λ = 1e-2 (bias not penalised),
// minimised from 0 to ‖∇f‖ ≤ 1e-8. The graph, the objective and its derivative nodes (gradient,
// and the Hessian or Hessian-vector-product nodes the method uses) are built once, before timing,
// as SciPy's Python functions are defined once; each timed iteration runs the optimizer from 0.
// logreg_build times that one-off construction (graph, gradient, Hessian and HVP nodes). The
// counters report the optimizer's iterations and final gradient norm.
//   logreg_newton     Newton (dense Hessian from autodiff, Cholesky, Armijo)
//   logreg_newton_cg  Newton-CG (Hessian-vector products from autodiff)
//   logreg_lbfgs      L-BFGS (m = 10, strong Wolfe)
#include <benchmark/benchmark.h>

#include <memory>

#include "dagml/dagml.h"
#include "models/data/datasets.h"
#include "models/data/standard_scaler.h"
#include "optim/graph_objective.h"
#include "optim/lbfgs.h"
#include "optim/newton.h"
#include "optim/newton_cg.h"

using namespace dagml;

namespace {

constexpr double kL2 = 1e-2;
constexpr double kTolerance = 1e-8;

struct Data {
  Tensor X;
  Tensor y;
};

const Data& data() {
  static const Data d = [] {
    const Dataset ds = load_dataset("breast_cancer");
    Data out;
    out.X = StandardScaler().fit_transform(ds.features);
    out.y = Tensor(ds.target.size(), 1);
    out.y.col(0) = ds.target;
    return out;
  }();
  return d;
}

struct Problem {
  Graph g;
  std::unique_ptr<GraphObjective> objective;
  // Builds the graph, the gradient nodes, and (warm) the Hessian and HVP nodes.
  Problem() {
    const Data& d = data();
    const Var X = g.input("X", d.X);
    const Var y = g.input("y", d.y);
    const Var w = g.parameter("w", Tensor::Zero(d.X.cols(), 1));
    const Var b = g.parameter("b", Tensor::Zero(1, 1));
    const Var loss = binary_cross_entropy_with_logits(matmul(X, w) + b, y) + (0.5 * kL2) * squared_l2_norm(w);
    objective = std::make_unique<GraphObjective>(loss, std::vector<Var>{w, b});
    const Vector x = Vector::Zero(objective->dimension());
    Tensor H;
    Vector hv;
    objective->hessian(x, H);
    objective->hessian_vector_product(x, x, hv);
  }
};

void logreg_build(benchmark::State& state) {
  for (auto _ : state) {
    Problem p;
    benchmark::DoNotOptimize(p.objective.get());
  }
}

template <class Options>
void run(benchmark::State& state, const Options& options) {
  Problem p;
  Result r;
  for (auto _ : state) {
    r = minimize(*p.objective, Vector::Zero(p.objective->dimension()), options);
    benchmark::DoNotOptimize(r.x.data());
  }
  if (!r.converged()) state.SkipWithError(r.message.c_str());
  state.counters["iterations"] = static_cast<double>(r.iterations);
  state.counters["gradient_norm"] = r.gradient_norm;
  state.counters["value"] = r.value;
}

void logreg_newton(benchmark::State& state) {
  run(state, NewtonOptions{.stop = {.max_iterations = 100, .gradient_tolerance = kTolerance}});
}
void logreg_newton_cg(benchmark::State& state) {
  run(state, NewtonCgOptions{.stop = {.max_iterations = 200, .gradient_tolerance = kTolerance}});
}
void logreg_lbfgs(benchmark::State& state) {
  run(state, LbfgsOptions{.stop = {.max_iterations = 2000, .gradient_tolerance = kTolerance}});
}

}  // namespace

BENCHMARK(logreg_build)->Unit(benchmark::kMillisecond);
BENCHMARK(logreg_newton)->Unit(benchmark::kMillisecond);
BENCHMARK(logreg_newton_cg)->Unit(benchmark::kMillisecond);
BENCHMARK(logreg_lbfgs)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
