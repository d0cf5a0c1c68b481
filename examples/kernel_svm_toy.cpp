// A kernel SVM on a 2-D toy problem: two interleaved half-moons (200 points, seeded noise),
// an RBF SVC, and its decision values on a 101×101 grid written to CSV for a picture (the zero
// level set is the boundary, ±1 the margins).
//
//   kernel_svm_toy [GRID.csv [POINTS.csv]]   (defaults kernel_svm_grid.csv, kernel_svm_points.csv)
//
// POINTS.csv lists the training points with their label, decision value and whether each is a
// support vector. The picture kernel_svm_regions.png (with its gnuplot script) shows the predicted
// classes over the plane and the training points.
#include <fmt/format.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "graph/error.h"
#include "models/classify/svc.h"
#include "models/data/csv.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/plots.h"
#include "plane_grid_support.h"

using namespace dagml;

int main(int argc, char** argv) try {
  const std::string grid_path = argc > 1 ? argv[1] : "kernel_svm_grid.csv";
  const std::string points_path = argc > 2 ? argv[2] : "kernel_svm_points.csv";
  // Two moons: class 0 on the upper arc, class 1 on the lower arc shifted right, noise σ = 0.15.
  const Index n = 200;
  // Gaussian noise by Box–Muller from the engine's raw words (portable, Note [Portable randomness]).
  std::mt19937_64 rng(42);
  auto uniform = [&] { return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53; };
  auto noise = [&] { return 0.15 * std::sqrt(-2 * std::log(uniform())) * std::cos(2 * std::numbers::pi * uniform()); };
  Tensor X(n, 2);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    const bool lower = i >= n / 2;
    const double t = std::numbers::pi * static_cast<double>(i % (n / 2)) / static_cast<double>(n / 2 - 1);
    X(i, 0) = (lower ? 1 - std::cos(t) : std::cos(t)) + noise();
    X(i, 1) = (lower ? 0.5 - std::sin(t) : std::sin(t)) + noise();
    y(i) = lower ? 1 : 0;
  }
  SVC svm({.C = 10.0, .kernel = std::make_shared<RbfKernel>(2.0), .tolerance = 1e-4});
  svm.fit(X, y);
  fmt::print("kernel {}: {} support vectors ({} + {}), training accuracy {:.3f}, SMO {} iterations{}\n",
             svm.kernel_name(), svm.support().size(), svm.num_support()[0], svm.num_support()[1], svm.score(X, y),
             svm.fit_report()[0].iterations, svm.converged() ? "" : " (not converged)");

  const Index g = 101;
  const Tensor grid = plane_grid::regular_grid(g, -1.5, 2.5, -1.25, 1.5);
  const Tensor f = svm.decision_function(grid);
  Tensor table(g * g, 3);
  table << grid, f;
  write_csv(grid_path, table, {"x1", "x2", "decision"});

  const Tensor fx = svm.decision_function(X);
  Tensor points(n, 5);
  points.leftCols(2) = X;
  points.col(2) = y;
  points.col(3) = fx.col(0);
  points.col(4).setZero();
  for (Index i : svm.support()) points(i, 4) = 1;
  write_csv(points_path, points, {"x1", "x2", "label", "decision", "support_vector"});
  fmt::print("wrote {} ({}×{} grid) and {}\n", grid_path, g, g, points_path);
  plot::Figure regions = plot::decision_regions([&](const Tensor& P) -> Vector { return svm.predict(P); }, X, y,
                                                {"upper moon", "lower moon"});
  regions.title = "RBF SVM on two moons: predicted classes";
  fmt::print("{}\n", plot::write_plot(regions, "kernel_svm_regions").message);
  return 0;
} catch (const Error& e) {
  fmt::print(stderr, "kernel_svm_toy: {}\n", e.what());
  return 1;
}
