// Least-squares workloads (see bench/RESULTS.md), beside SciPy in bench/reference_nist.py:
//   nist_lm          the 27 NIST StRD problems × 2 starts solved by Levenberg–Marquardt with
//                    default options (graph and objective built per run, as a user does); counters:
//                    solved runs (LRE ≥ 4) and average LRE (models/data/nist_strd.h)
//   gauss_residual/N   the 8-parameter NIST Gauss model's residuals at n = N points
//   gauss_jacobian/N   residuals and their N×8 Jacobian from autodiff (forward mode, chosen by
//                      jacobian()'s Auto rule for this tall Jacobian)
//   gauss_jacobian_reverse/N  the same Jacobian by the batched reverse sweep, for comparison
// The Gauss problems at N points spread Gauss1's x-range [1, 250] over N points, with y the
// certified model plus Gauss1's own noise pattern repeated (the values do not change the cost).
#include <benchmark/benchmark.h>

#include <memory>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "graph/executor.h"
#include "graph/graph.h"
#include "models/data/nist_strd.h"
#include "optim/graph_objective.h"
#include "optim/levenberg_marquardt.h"

using namespace dagml;

namespace {

void nist_lm(benchmark::State& state) {
  std::vector<NistProblem> problems;
  for (const std::string& name : nist_problem_names()) problems.push_back(load_nist_problem(name));
  double solved = 0, lre_sum = 0;
  for (auto _ : state) {
    solved = 0, lre_sum = 0;
    for (const NistProblem& p : problems) {
      for (int start = 0; start < 2; ++start) {
        Graph g;
        Var b = g.parameter("b", p.starts[start]);
        Var r = nist_model(p.name, b, g.constant(p.x)) - g.constant(p.y);
        const Result fit = minimize_residuals(r, {b}, LevenbergMarquardtOptions{});
        const Scalar lre = log_relative_error(fit.x, p.certified);
        lre_sum += lre;
        solved += lre >= 4;
      }
    }
  }
  state.counters["solved"] = solved;
  state.counters["average_lre"] = lre_sum / (2.0 * static_cast<double>(problems.size()));
}
BENCHMARK(nist_lm)->Unit(benchmark::kMillisecond);

struct GaussProblem {
  Graph g;
  Var b_node, residuals;
  std::unique_ptr<GraphObjective> objective;
  Vector b;
  explicit GaussProblem(Index n) {
    const NistProblem p = load_nist_problem("Gauss1");
    Tensor x(n, 1), y(n, 1);
    Graph model_graph;
    for (Index i = 0; i < n; ++i) x(i, 0) = 1 + 249.0 * static_cast<double>(i) / static_cast<double>(n - 1);
    const Tensor fitted = nist_model("Gauss1", model_graph.constant(p.certified), model_graph.constant(x)).value();
    for (Index i = 0; i < n; ++i) y(i, 0) = fitted(i, 0) + (p.y[i % p.y.size()] - p.y.mean()) * 1e-2;
    b = p.starts[1];
    b_node = g.parameter("b", b);
    residuals = nist_model("Gauss1", b_node, g.constant(x)) - g.constant(y);
    objective = GraphObjective::least_squares(residuals, {b_node});
  }
};

void gauss_residual(benchmark::State& state) {
  GaussProblem p(state.range(0));
  Vector r;
  for (auto _ : state) {
    p.objective->residuals(p.b, r, nullptr);
    benchmark::DoNotOptimize(r.data());
  }
}
void gauss_jacobian(benchmark::State& state) {
  GaussProblem p(state.range(0));
  Vector r;
  Tensor J;
  for (auto _ : state) {
    p.objective->residuals(p.b, r, &J);
    benchmark::DoNotOptimize(J.data());
  }
}
void gauss_jacobian_reverse(benchmark::State& state) {
  GaussProblem p(state.range(0));
  const Var J = jacobian(p.residuals, p.b_node, JacobianMode::Reverse);
  Executor replay(p.g, {p.residuals, J});
  for (auto _ : state) {
    p.g.set_value(p.b_node, p.b);
    replay.run();
    benchmark::DoNotOptimize(J.value().data());
  }
}
BENCHMARK(gauss_residual)->Arg(25)->Arg(200)->Arg(800)->Unit(benchmark::kMicrosecond);
BENCHMARK(gauss_jacobian)->Arg(25)->Arg(200)->Arg(800)->Unit(benchmark::kMicrosecond);
BENCHMARK(gauss_jacobian_reverse)->Arg(25)->Arg(200)->Arg(800)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
