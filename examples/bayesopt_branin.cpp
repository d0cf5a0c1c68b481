// Bayesian optimisation of the Branin–Hoo function: the optimiser maximises −branin over
// x₁ ∈ [−5, 10], x₂ ∈ [0, 15] with 40 evaluations (a 10-point Latin hypercube, then expected
// improvement on a Matérn-5/2 GP refitted at every step; seed 1), against random search with the
// same budget and seed. The known minimum is f* = 0.397887 (at (−π, 12.275), (π, 2.275) and
// (9.42478, 2.475)). Then the same comparison on Hartmann-6 over [0, 1]⁶ (f* = −3.32237).
//
//   ./build/examples/bayesopt_branin
//
// Writes build/example-output/bayesopt_branin.csv and bayesopt_hartmann6.csv: method, evaluation
// index, the point, f, the best f so far and the acquisition value (NaN for the initial design and
// for random search); and the best-so-far traces beside them as bayesopt_branin.png and
// bayesopt_hartmann6.png (with their gnuplot scripts).
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <limits>
#include <random>
#include <string>

#include "graph/error.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/plots.h"
#include "models/bayesopt/bayesian_optimizer.h"
#include "models/bayesopt/test_functions.h"

using namespace dagml;

namespace {

struct Trace {
  Tensor points;       // natural coordinates, in evaluation order
  Vector values;       // the minimised f at each (not its negative)
  Vector acquisition;  // ζ at each proposed point, NaN where there was none
};

// f at n uniform points of the space (the same seeded engine as the optimiser's).
Trace random_search(const SearchSpace& space, const std::function<Scalar(const Vector&)>& f, Index n,
                    std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const Tensor unit = space.uniform(n, rng);
  Trace trace{Tensor(n, space.size()), Vector(n), Vector::Constant(n, std::numeric_limits<Scalar>::quiet_NaN())};
  for (Index i = 0; i < n; ++i) {
    trace.points.row(i) = space.decode(unit.row(i).transpose()).transpose();
    trace.values(i) = f(trace.points.row(i).transpose());
  }
  return trace;
}

// Appends the trace to the CSV, one row per evaluation, with the running minimum.
void write_trace(std::ofstream& csv, const std::string& method, const Trace& trace) {
  Scalar best = std::numeric_limits<Scalar>::infinity();
  for (Index i = 0; i < trace.values.size(); ++i) {
    best = std::min(best, trace.values(i));
    csv << fmt::format("{},{}", method, i + 1);
    for (Index j = 0; j < trace.points.cols(); ++j) csv << fmt::format(",{:.10g}", trace.points(i, j));
    csv << fmt::format(",{:.10g},{:.10g},{:.10g}\n", trace.values(i), best, trace.acquisition(i));
  }
}

// The first evaluation (1-based) whose f is within `gap` of f*, or 0 if none.
Index first_within(const Vector& values, Scalar minimum, Scalar gap) {
  for (Index i = 0; i < values.size(); ++i)
    if (values(i) - minimum <= gap) return i + 1;
  return 0;
}

// Runs Bayesian optimisation and random search on f (to be minimised) with the same budget and
// seed, prints both against the known minimum and writes both traces to `csv_path`.
void compare(const std::string& title, const SearchSpace& space, const std::function<Scalar(const Vector&)>& f,
             Scalar minimum, Index budget, std::uint64_t seed, const std::string& csv_path) {
  const auto start = std::chrono::steady_clock::now();
  const BayesianOptimizationResult bo =
      BayesianOptimizer(space, {.max_evaluations = budget, .seed = seed}).maximize([&](const Vector& x) {
        return -f(x);
      });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Trace bayesian{bo.points, -bo.values, bo.acquisition};
  const Trace random = random_search(space, f, budget, seed);
  Index random_best = 0;
  random.values.minCoeff(&random_best);
  const Vector random_best_point = random.points.row(random_best).transpose();

  fmt::print("{}: {} evaluations, seed {}, known minimum {:.6f}\n", title, budget, seed, minimum);
  fmt::print("  Bayesian optimisation  f = {:.6f} (gap {:.2e}) at ({:.4f}), {} proposals after the design, {:.2f} s\n",
             -bo.best_value, -bo.best_value - minimum, fmt::join(bo.best_point.begin(), bo.best_point.end(), ", "),
             bo.run.iterations, seconds);
  fmt::print("  random search          f = {:.6f} (gap {:.2e}) at ({:.4f})\n", random.values(random_best),
             random.values(random_best) - minimum, fmt::join(random_best_point.begin(), random_best_point.end(), ", "));
  const auto reached = [&](const Trace& t) {
    const Index i = first_within(t.values, minimum, 0.01 * (1 + std::abs(minimum)));
    return i == 0 ? std::string("never") : fmt::format("evaluation {}", i);
  };
  fmt::print("  first with f − f* ≤ 0.01 (1 + |f*|): Bayesian optimisation {}, random search {}\n", reached(bayesian),
             reached(random));

  std::ofstream csv(csv_path);
  csv << "method,evaluation";
  for (const SearchDimension& d : space.dimensions()) csv << "," << d.name;
  csv << ",f,best_so_far,acquisition\n";
  write_trace(csv, "bayesian_optimization", bayesian);
  write_trace(csv, "random_search", random);

  plot::Figure traces = plot::best_so_far({{"Bayesian optimisation", {bayesian.values.begin(), bayesian.values.end()}},
                                           {"random search", {random.values.begin(), random.values.end()}}});
  traces.series.push_back(plot::line_series("known minimum", Vector{{1.0, static_cast<Scalar>(budget)}},
                                            Vector{{minimum, minimum}}, 7));
  traces.title = fmt::format("{}: best value found so far", title);
  traces.y.label = "smallest f";
  const std::string stem = csv_path.substr(0, csv_path.rfind('.'));
  fmt::print("  {}\n", plot::write_plot(traces, stem).message);
}

}  // namespace

int main() try {
  compare("Branin", SearchSpace({SearchDimension::real("x1", -5, 10), SearchDimension::real("x2", 0, 15)}),
          test_functions::branin, test_functions::kBraninMinimum, 40, 1, "bayesopt_branin.csv");
  std::vector<SearchDimension> unit_box;
  for (int j = 1; j <= 6; ++j) unit_box.push_back(SearchDimension::real(fmt::format("x{}", j), 0, 1));
  compare("Hartmann-6", SearchSpace(unit_box), test_functions::hartmann6, test_functions::kHartmann6Minimum, 40, 1,
          "bayesopt_hartmann6.csv");
  fmt::print("wrote bayesopt_branin.csv and bayesopt_hartmann6.csv\n");
  return 0;
} catch (const Error& e) {
  fmt::print(stderr, "bayesopt_branin: {}\n", e.what());
  return 1;
}
