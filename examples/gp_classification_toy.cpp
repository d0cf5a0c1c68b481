// Gaussian process classification on a 2-D toy problem: two interleaved half-moons (noise
// σ = 0.2, 150 training points and 150 test points from other seeds), a Laplace-approximation GP
// classifier whose kernel constant * rbf is fitted by maximising the approximate marginal
// likelihood (2 restarts), and p(class 1) on a 101×101 grid written to CSV for a contour plot (the
// 0.5 level is the boundary; far from the data the probability returns towards 0.5). The same
// fit with multi_class = softmax (the joint multi-class model, here with K = 2) is printed beside it.
//
//   ./build/examples/gp_classification_toy
//
// Writes build/example-output/gp_classification_grid.csv (x1, x2, p(class 1)) and
// gp_classification_points.csv (x1, x2, label, p(class 1), whether the point is a test point).
#include <fmt/format.h>

#include <cmath>
#include <numbers>
#include <random>

#include "graph/error.h"
#include "models/data/csv.h"
#include "models/gp/gaussian_process_classifier.h"
#include "plane_grid_support.h"

using namespace dagml;

namespace {

struct LabelledPoints {
  Tensor X;
  Vector y;
};

// n points on two moons: class 0 on the upper arc, class 1 on the lower arc shifted right, with
// Gaussian noise σ by Box–Muller from the engine's raw words (portable, Note [Portable randomness]).
LabelledPoints noisy_moons(Index n, Scalar sigma, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform = [&] { return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53; };
  auto noise = [&] { return sigma * std::sqrt(-2 * std::log(uniform())) * std::cos(2 * std::numbers::pi * uniform()); };
  LabelledPoints out{Tensor(n, 2), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    const bool lower = i % 2 == 1;
    const double t = std::numbers::pi * uniform();
    out.X(i, 0) = (lower ? 1 - std::cos(t) : std::cos(t)) + noise();
    out.X(i, 1) = (lower ? 0.5 - std::sin(t) : std::sin(t)) + noise();
    out.y(i) = lower ? 1 : 0;
  }
  return out;
}

}  // namespace

int main() try {
  const LabelledPoints train = noisy_moons(150, 0.2, 42);
  const LabelledPoints test = noisy_moons(150, 0.2, 7);
  GaussianProcessClassifier gpc({.kernel = parse_kernel("constant(value=1) * rbf(length_scale=1)"), .restarts = 2});
  gpc.fit(train.X, train.y);
  fmt::print("two moons (noise σ = 0.2): {} training and {} test points\n", train.X.rows(), test.X.rows());
  fmt::print("fitted kernel: {}\n", gpc.binary_gps()[0].kernel()->name());
  fmt::print("approximate log marginal likelihood {:.4f}\n", gpc.log_marginal_likelihood());
  fmt::print("accuracy: training {:.3f}, test {:.3f}\n", gpc.score(train.X, train.y), gpc.score(test.X, test.y));
  // The same data with multi_class = softmax: with two classes the softmax model with kernel k is
  // the binary model with kernel 2k on f₁ − f₂, so the fitted amplitude halves and log q agrees
  // (to the optimiser's tolerance). Its probabilities are a Monte Carlo average, not the binary
  // model's error-function approximation, so points near the boundary may be classified otherwise.
  GaussianProcessClassifier softmax({.kernel = parse_kernel("constant(value=1) * rbf(length_scale=1)"),
                                     .restarts = 2,
                                     .multi_class = GpcMultiClass::Softmax});
  softmax.fit(train.X, train.y);
  fmt::print("multi_class = softmax: fitted kernel {}, log q {:.4f}, test accuracy {:.3f}\n",
             softmax.softmax_gp().kernel()->name(), softmax.log_marginal_likelihood(), softmax.score(test.X, test.y));

  const Index g = 101;
  const Tensor grid = plane_grid::regular_grid(g, -1.5, 2.5, -1.25, 1.5);
  const Tensor p = gpc.predict_proba(grid);
  Tensor table(g * g, 3);
  table << grid, p.col(1);
  write_csv("gp_classification_grid.csv", table, {"x1", "x2", "p_class1"});
  fmt::print("p(class 1) on the grid: from {:.3f} to {:.3f}\n", p.col(1).minCoeff(), p.col(1).maxCoeff());

  const Index n = train.X.rows() + test.X.rows();
  Tensor points(n, 5);
  points.leftCols(2) << train.X, test.X;
  points.col(2) << train.y, test.y;
  points.col(3) << gpc.predict_proba(train.X).col(1), gpc.predict_proba(test.X).col(1);
  points.col(4) << Vector::Zero(train.X.rows()), Vector::Ones(test.X.rows());
  write_csv("gp_classification_points.csv", points, {"x1", "x2", "label", "p_class1", "test"});
  fmt::print("wrote gp_classification_grid.csv ({}×{} grid) and gp_classification_points.csv\n", g, g);
  return 0;
} catch (const Error& e) {
  fmt::print(stderr, "gp_classification_toy: {}\n", e.what());
  return 1;
}
