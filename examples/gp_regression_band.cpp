// Gaussian process regression in one dimension: 15 noisy samples (σ = 0.3, seeded) of
// f(x) = x sin x on [0, 10], the kernel constant * rbf + white with its hyperparameters fitted by
// maximising the log marginal likelihood (3 restarts), and the posterior on a 201-point grid: the
// mean, the band mean ± 2 std (the fitted white noise is part of the kernel, so the band is the
// one of a new noisy observation y, as scikit-learn's) and three posterior draws (of y too: the
// white noise is on the diagonal of their covariance, so they scatter about a smooth curve). Then
// three observations are added with add_observation (O(n²) each, hyperparameters kept) where the
// band is widest, and the printout shows the band shrinking there.
//
//   ./build/examples/gp_regression_band
//
// Writes build/example-output/gp_regression_band.csv (x, true f, mean, lower, upper, the band after
// the added points, three posterior draws of the first fit), gp_regression_points.csv (x, y,
// whether the point was added after the fit) and the picture of the first fit's band,
// gp_regression_band.png (with its gnuplot script; models/plot/plots.h).
#include <fmt/format.h>

#include <cmath>
#include <numbers>
#include <random>

#include "graph/error.h"
#include "models/data/csv.h"
#include "models/gp/gaussian_process_regressor.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/plots.h"

using namespace dagml;

namespace {

Scalar smooth_target(Scalar x) { return x * std::sin(x); }

}  // namespace

int main() try {
  // Training inputs uniform on [0, 10], Gaussian noise by Box–Muller from the engine's raw words
  // (portable, Note [Portable randomness]).
  std::mt19937_64 rng(3);
  auto uniform = [&] { return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53; };
  auto noise = [&] { return 0.3 * std::sqrt(-2 * std::log(uniform())) * std::cos(2 * std::numbers::pi * uniform()); };
  const Index n = 15;
  Tensor X(n, 1);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    X(i, 0) = 10 * uniform();
    y(i) = smooth_target(X(i, 0)) + noise();
  }

  GaussianProcessRegressor gp(
      {.kernel = parse_kernel("constant(value=1) * rbf(length_scale=1) + white(noise=0.1)"), .restarts = 3, .seed = 0});
  gp.fit(X, y);
  fmt::print("{} noisy samples of x sin x (noise σ = 0.3, variance 0.09)\n", n);
  fmt::print("fitted kernel: {}\n", gp.fitted_kernel()->name());
  fmt::print("log marginal likelihood {:.4f}, jitter {:.3g}, {} optimiser runs\n", gp.log_marginal_likelihood(),
             gp.fit_report().jitter, gp.fit_report().search.runs.size());

  const Index m = 201;
  Tensor grid(m, 1);
  for (Index j = 0; j < m; ++j) grid(j, 0) = 10.0 * static_cast<double>(j) / static_cast<double>(m - 1);
  const auto before = gp.predict_with_std(grid);
  const Tensor draws = gp.sample_posterior(grid, 3, 7);
  fmt::print("R² of the mean against f on the grid: {:.4f}\n", [&] {
    Vector f(m);
    for (Index j = 0; j < m; ++j) f(j) = smooth_target(grid(j, 0));
    return 1 - (f - before.mean).squaredNorm() / (f.array() - f.mean()).square().sum();
  }());

  // Three new observations, each where the current band is widest.
  Tensor added(3, 2);
  for (Index k = 0; k < 3; ++k) {
    Index widest = 0;
    gp.predict_with_std(grid).std.maxCoeff(&widest);
    const Scalar x = grid(widest, 0);
    added(k, 0) = x;
    added(k, 1) = smooth_target(x) + noise();
    gp.add_observation(Vector::Constant(1, x), added(k, 1));
  }
  const auto after = gp.predict_with_std(grid);
  fmt::print("\nadded observations where the band was widest (std of y at x, before → after):\n");
  for (Index k = 0; k < 3; ++k) {
    const Index j = static_cast<Index>(std::lround(added(k, 0) / 10.0 * static_cast<double>(m - 1)));
    fmt::print("  x = {:5.2f}  y = {:7.3f}   std {:.3f} → {:.3f}\n", added(k, 0), added(k, 1), before.std(j),
               after.std(j));
  }
  fmt::print("mean std over the grid {:.3f} → {:.3f}; largest {:.3f} → {:.3f}\n", before.std.mean(), after.std.mean(),
             before.std.maxCoeff(), after.std.maxCoeff());

  Tensor band(m, 11);
  for (Index j = 0; j < m; ++j) {
    band(j, 0) = grid(j, 0);
    band(j, 1) = smooth_target(grid(j, 0));
    band(j, 2) = before.mean(j);
    band(j, 3) = before.mean(j) - 2 * before.std(j);
    band(j, 4) = before.mean(j) + 2 * before.std(j);
    band(j, 5) = after.mean(j);
    band(j, 6) = after.mean(j) - 2 * after.std(j);
    band(j, 7) = after.mean(j) + 2 * after.std(j);
  }
  band.rightCols(3) = draws;
  write_csv("gp_regression_band.csv", band,
            {"x", "f", "mean", "lower", "upper", "mean_added", "lower_added", "upper_added", "sample1", "sample2",
             "sample3"});
  Tensor points(n + 3, 3);
  points.col(2).setZero();
  points.topLeftCorner(n, 1) = X;
  points.block(0, 1, n, 1) = y;
  points.bottomLeftCorner(3, 2) = added;
  points.bottomRightCorner(3, 1).setOnes();
  write_csv("gp_regression_points.csv", points, {"x", "y", "added"});
  fmt::print("wrote gp_regression_band.csv ({} grid points) and gp_regression_points.csv\n", m);

  plot::Figure picture = plot::posterior_band(grid.col(0), before.mean, before.std, X.col(0), y);
  picture.title = "GP regression of x sin x: the mean and mean ± 2 std of y";
  picture.series.push_back(plot::line_series("x sin x", grid.col(0), band.col(1), 7));
  fmt::print("{}\n", plot::write_plot(picture, "gp_regression_band").message);
  return 0;
} catch (const Error& e) {
  fmt::print(stderr, "gp_regression_band: {}\n", e.what());
  return 1;
}
