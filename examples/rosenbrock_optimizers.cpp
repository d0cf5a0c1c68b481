// Minimises the Rosenbrock function f(a, b) = (1 − a)² + 100 (b − a²)² from (−1.2, 1) with each
// optimizer of optim/, prints a table of iterations, final value, distance to the minimum (1, 1),
// time and status, and writes each optimizer's loss history to rosenbrock_<method>.csv.
//
//   ./build/examples/rosenbrock_optimizers [output_dir]     (default: the current directory)
//
// f is a graph; GraphObjective evaluates it (and its gradient, Hessian, Hessian-vector products)
// by replay. Gauss-Newton and Levenberg-Marquardt use the residual form r = (1 − a, 10 (b − a²)),
// ½‖r‖² = f/2, on the same graph.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <functional>

#include "dagml/dagml.h"
#include "optim/adam.h"
#include "optim/coordinate_descent.h"
#include "optim/gauss_newton.h"
#include "optim/gradient_descent.h"
#include "optim/graph_objective.h"
#include "optim/lbfgs.h"
#include "optim/levenberg_marquardt.h"
#include "optim/line_search_descent.h"
#include "optim/momentum.h"
#include "optim/nesterov.h"
#include "optim/newton.h"
#include "optim/newton_cg.h"
#include "optim/projected_gradient.h"

using namespace dagml;

int main(int argc, char** argv) {
  const std::filesystem::path out_dir = argc > 1 ? argv[1] : ".";
  std::filesystem::create_directories(out_dir);

  Graph g;
  const Var a = g.parameter("a", scalar_tensor(-1.2));
  const Var b = g.parameter("b", scalar_tensor(1.0));
  const Var r = concat_rows({1.0 - a, 10.0 * (b - square(a))});  // residuals, 2×1
  const Var f = square(1.0 - a) + 100.0 * square(b - square(a));
  GraphObjective objective(f, {a, b});
  auto residual_objective = GraphObjective::least_squares(r, {a, b});
  const Vector x0 = (Vector(2) << -1.2, 1.0).finished();
  const Vector x_star = Vector::Ones(2);

  const StopOptions first_order = {.max_iterations = 50000, .gradient_tolerance = 1e-6};
  const StepSchedule alpha = StepSchedule::constant(1e-3);
  struct Method {
    std::string name;
    std::function<Result(HistoryRecorder&)> run;
  };
  const std::vector<Method> methods = {
      {"gradient_descent",
       [&](HistoryRecorder& h) {
         return minimize(objective, x0, GradientStep({.schedule = alpha}), {.stop = first_order}, h);
       }},
      {"momentum",
       [&](HistoryRecorder& h) {
         return minimize(objective, x0, Momentum({.schedule = alpha, .beta = 0.9}), {.stop = first_order}, h);
       }},
      {"nesterov",
       [&](HistoryRecorder& h) {
         return minimize(objective, x0, Nesterov({.schedule = alpha, .beta = 0.9}), {.stop = first_order}, h);
       }},
      {"adam",
       [&](HistoryRecorder& h) {
         return minimize(objective, x0, Adam({.schedule = StepSchedule::constant(0.02)}), {.stop = first_order}, h);
       }},
      {"projected_gradient",  // box [−2, 2]², backtracking along the projection arc
       [&](HistoryRecorder& h) {
         return minimize(
             objective, x0,
             ProjectedGradientOptions{.stop = first_order, .box = {Vector::Constant(2, -2), Vector::Constant(2, 2)}},
             h);
       }},
      {"steepest_descent_exact",  // notes 000 Algorithm 8: −∇f with Brent's exact line search
       [&](HistoryRecorder& h) {
         return minimize(objective, x0,
                         LineSearchDescentOptions{.stop = first_order,
                                                  .line_search = {.kind = LineSearchKind::Exact, .max_step = 1}},
                         h);
       }},
      {"coordinate_descent",
       [&](HistoryRecorder& h) {
         return minimize(objective, x0,
                         CoordinateDescentOptions{.stop = {.max_iterations = 50000, .gradient_tolerance = 1e-6}}, h);
       }},
      {"newton", [&](HistoryRecorder& h) { return minimize(objective, x0, NewtonOptions{}, h); }},
      {"newton_cg", [&](HistoryRecorder& h) { return minimize(objective, x0, NewtonCgOptions{}, h); }},
      {"lbfgs", [&](HistoryRecorder& h) { return minimize(objective, x0, LbfgsOptions{}, h); }},
      {"gauss_newton", [&](HistoryRecorder& h) { return minimize(*residual_objective, x0, GaussNewtonOptions{}, h); }},
      {"levenberg_marquardt",
       [&](HistoryRecorder& h) { return minimize(*residual_objective, x0, LevenbergMarquardtOptions{}, h); }},
  };

  fmt::print("Rosenbrock from (-1.2, 1); minimum 0 at (1, 1)\n\n");
  fmt::print("{:<24} {:>10} {:>12} {:>12} {:>10}  {}\n", "method", "iterations", "final f", "|x - x*|", "time ms",
             "status");
  for (const Method& m : methods) {
    HistoryRecorder history;
    const auto start = std::chrono::steady_clock::now();
    const Result res = m.run(history);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    // Gauss-Newton and LM minimise ½‖r‖² = f/2: report f itself.
    const double value = objective.value(res.x);
    fmt::print("{:<24} {:>10} {:>12.3e} {:>12.3e} {:>10.2f}  {}\n", m.name, res.iterations, value,
               (res.x - x_star).norm(), ms, to_string(res.status));
    history.write_csv((out_dir / fmt::format("rosenbrock_{}.csv", m.name)).string());
  }
  fmt::print("\nloss histories written to {}/rosenbrock_<method>.csv\n", out_dir.string());
  return 0;
}
