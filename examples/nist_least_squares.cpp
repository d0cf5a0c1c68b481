// The NIST StRD nonlinear regression problems solved by Levenberg–Marquardt with its default
// options: each of the 27 models written as a graph (models/data/nist_strd.h), the Jacobian from
// autodiff, both of NIST's starting points. Prints, for each run, the status, the log relative
// error LRE against NIST's certified parameters (≥ 4 counts as solved), the final and certified
// residual sums of squares and the evaluations, then the solved count and the average LRE.
// Usage: nist_least_squares [--initial-damping=TAU] [--geodesic] [--verbose] [PROBLEM...]
// (default: all 27; --geodesic turns on geodesic acceleration; --verbose prints every run's stop
// message, not only those of unsolved or unconverged runs)
#include <fmt/format.h>

#include <chrono>
#include <string>
#include <vector>

#include "autodiff/elementwise.h"
#include "graph/graph.h"
#include "models/data/nist_strd.h"
#include "optim/graph_objective.h"
#include "optim/levenberg_marquardt.h"

using namespace dagml;

int main(int argc, char** argv) {
  std::vector<std::string> names;
  LevenbergMarquardtOptions lm_options{};
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.starts_with("--initial-damping=")) lm_options.initial_damping = std::stod(arg.substr(18));
    else if (arg == "--geodesic") lm_options.geodesic_acceleration = true;
    else if (arg == "--verbose") verbose = true;
    else names.push_back(arg);
  }
  if (names.empty()) names = nist_problem_names();
  fmt::print("{:<9} {:>5} {:<24} {:>5} {:>12} {:>12} {:>6} {:>8}\n", "problem", "start", "status", "LRE", "RSS",
             "certified", "evals", "ms");
  int solved = 0, runs = 0;
  double lre_sum = 0;
  for (const std::string& name : names) {
    const NistProblem p = load_nist_problem(name);
    for (int start = 0; start < 2; ++start) {
      Graph g;
      Var b = g.parameter("b", p.starts[start]);
      Var residuals = nist_model(p.name, b, g.constant(p.x)) - g.constant(p.y);
      const auto t0 = std::chrono::steady_clock::now();
      const Result r = minimize_residuals(residuals, {b}, lm_options);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      const Scalar lre = log_relative_error(r.x, p.certified);
      ++runs;
      lre_sum += lre;
      if (lre >= 4) ++solved;
      fmt::print("{:<9} {:>5} {:<24} {:>5.1f} {:>12.6e} {:>12.6e} {:>6} {:>8.2f}{}\n", p.name, start + 1,
                 to_string(r.status), lre, 2 * r.value, p.certified_rss, r.evaluations, ms,
                 lre >= 4 ? "" : "  NOT SOLVED");
      if (lre < 4 || !r.converged() || verbose) fmt::print("          {}\n", r.message);
    }
  }
  fmt::print("\nsolved {} of {} runs (LRE >= 4); average LRE {:.2f}\n", solved, runs, lre_sum / runs);
  return 0;
}
