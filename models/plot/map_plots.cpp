// The kinds of plots.h drawn over the plane or as bars: decision regions, a confusion-matrix heat
// map, embeddings, mixture ellipses and feature importances.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/io/registry.h"
#include "models/plot/plots.h"

namespace dagml::plot {
namespace {

std::string class_name(const std::vector<std::string>& names, Index k, const char* fallback) {
  return k < static_cast<Index>(names.size()) ? names[static_cast<std::size_t>(k)] : fmt::format("{} {}", fallback, k);
}

void check_plane_points(const Tensor& points, const Vector& labels, const char* who) {
  check_not_empty(points, who);
  check_columns(points, 2, who);
  check_finite(points, who);
  if (labels.size() > 0) check_same_rows(points, labels, who);
}

// The points of each label k in colour k, named names[k] or "<fallback> k"; all in colour 0 without
// labels.
void add_class_points(Figure& f, const Tensor& points, const Vector& labels, const std::vector<std::string>& names,
                      const char* fallback, const char* who) {
  if (labels.size() == 0) {
    f.series.push_back(point_series("", points.col(0), points.col(1), 0));
    return;
  }
  const Index K = check_labels(labels, who);
  for (Index k = 0; k < K; ++k) {
    std::vector<Index> rows;
    for (Index i = 0; i < labels.size(); ++i)
      if (labels(i) == static_cast<Scalar>(k)) rows.push_back(i);
    if (!rows.empty())
      f.series.push_back(point_series(class_name(names, k, fallback), points(rows, 0), points(rows, 1), k));
  }
}

// [min − 5 % of the span, max + 5 %] of a column (± 0.5 around a constant one).
Range padded_range(const Vector& v) {
  const Scalar lo = v.minCoeff(), hi = v.maxCoeff(), pad = hi > lo ? 0.05 * (hi - lo) : 0.5;
  return {lo - pad, hi + pad};
}

}  // namespace

Figure decision_regions(const ClassPredictor& predict, const Tensor& X, const Vector& y,
                        const std::vector<std::string>& class_names, Index resolution) {
  const char* who = "decision_regions";
  check_plane_points(X, y, who);
  if (y.size() == 0) throw ValueError("decision_regions: expected one label per point, found no labels");
  if (resolution < 2) throw ValueError(fmt::format("decision_regions: expected resolution >= 2, found {}", resolution));
  const Range rx = padded_range(X.col(0)), ry = padded_range(X.col(1));
  // Grid row a·m + b at (x_b, y_a): x varies fastest, as a heat map's rows.
  const Index m = resolution;
  Tensor grid(m * m, 3);
  for (Index a = 0; a < m; ++a)
    for (Index b = 0; b < m; ++b) {
      grid(a * m + b, 0) = rx.low + (rx.high - rx.low) * static_cast<Scalar>(b) / static_cast<Scalar>(m - 1);
      grid(a * m + b, 1) = ry.low + (ry.high - ry.low) * static_cast<Scalar>(a) / static_cast<Scalar>(m - 1);
    }
  const Vector predicted = predict(grid.leftCols(2));
  if (predicted.size() != m * m)
    throw ShapeError(fmt::format("decision_regions: expected {} predictions (one per grid point), found {}", m * m,
                                 predicted.size()));
  const Index K = std::max({check_labels(predicted, "decision_regions (predictions)"), check_labels(y, who),
                            static_cast<Index>(class_names.size())});
  grid.col(2) = predicted;
  Figure f{.title = "Decision regions",
           .x = {.label = "x1", .range = rx},
           .y = {.label = "x2", .range = ry},
           .legend = Legend::OutsideRight,
           .heat_map_classes = K};
  f.series.push_back(Series{.kind = SeriesKind::HeatMap, .data = grid});
  add_class_points(f, X, y, class_names, "class", who);
  return f;
}

Figure decision_regions(const AnyEstimator& classifier, const Tensor& X, const Vector& y,
                        const std::vector<std::string>& class_names, Index resolution) {
  if (classifier.info().task != Task::Classification)
    throw ValueError(fmt::format("decision_regions: expected a classifier, found '{}'", classifier.name()));
  return decision_regions([&](const Tensor& points) -> Vector { return classifier.predict(points).col(0); }, X, y,
                          class_names, resolution);
}

Figure confusion_heat_map(const Tensor& counts, const std::vector<std::string>& class_names) {
  const char* who = "confusion_heat_map";
  check_not_empty(counts, who);
  check_finite(counts, who);
  if (counts.rows() != counts.cols())
    throw ShapeError(
        fmt::format("confusion_heat_map: expected a square matrix, found {}×{}", counts.rows(), counts.cols()));
  const Index K = counts.rows();
  Tensor cells(K * K, 3);
  for (Index i = 0; i < K; ++i)
    for (Index j = 0; j < K; ++j) cells.row(i * K + j) << static_cast<Scalar>(j), static_cast<Scalar>(i), counts(i, j);
  const Range range{-0.5, static_cast<Scalar>(K) - 0.5};
  Figure f{.title = "Confusion matrix",
           .x = {.label = "predicted class", .range = range},
           .y = {.label = "true class", .range = Range{range.high, range.low}},
           .legend = Legend::Hidden,
           .equal_axes = true,
           .grid = false};
  for (Index k = 0; k < K; ++k) {
    const std::string name = class_name(class_names, k, "class");
    f.x.ticks.emplace_back(static_cast<Scalar>(k), name);
    f.y.ticks.emplace_back(static_cast<Scalar>(k), name);
  }
  f.series.push_back(Series{.kind = SeriesKind::HeatMap, .data = cells, .annotate = true});
  return f;
}

Figure embedding_scatter(const Tensor& points, const Vector& labels, const std::vector<std::string>& class_names) {
  check_plane_points(points, labels, "embedding_scatter");
  Figure f{.title = "Embedding",
           .x = {.label = "component 1"},
           .y = {.label = "component 2"},
           .legend = Legend::OutsideRight};
  add_class_points(f, points, labels, class_names, "class", "embedding_scatter");
  return f;
}

Vector covariance_ellipse(const Vector& mean, const Tensor& covariance, Scalar sigmas) {
  if (mean.size() != 2 || covariance.rows() != 2 || covariance.cols() != 2)
    throw ShapeError(fmt::format("covariance_ellipse: expected a mean of 2 and a 2×2 covariance, found {} and {}×{}",
                                 mean.size(), covariance.rows(), covariance.cols()));
  const Scalar a = covariance(0, 0), b = covariance(0, 1), c = covariance(1, 1);
  const Scalar root = std::hypot((a - c) / 2, b), lambda1 = (a + c) / 2 + root, lambda2 = (a + c) / 2 - root;
  // Rounding may leave λ₂ slightly below 0 for a singular Σ.
  const Scalar tolerance = 1e-12 * std::max(std::abs(a) + std::abs(c), Scalar(1e-300));
  if (!std::isfinite(root) || b != covariance(1, 0) || lambda2 < -tolerance || !(sigmas > 0))
    throw ValueError(
        fmt::format("covariance_ellipse: expected a symmetric positive semi-definite covariance and "
                    "sigmas > 0, found [{} {}; {} {}] and {}",
                    a, b, covariance(1, 0), c, sigmas));
  return Vector{{mean(0), mean(1), sigmas * std::sqrt(lambda1), sigmas * std::sqrt(std::max(lambda2, Scalar(0))),
                 std::atan2(2 * b, a - c) / 2}};
}

Figure mixture_ellipses(const Tensor& points, const Vector& labels, const Tensor& means,
                        const std::vector<Tensor>& covariances, Scalar sigmas) {
  const char* who = "mixture_ellipses";
  check_plane_points(points, labels, who);
  check_columns(means, 2, who);
  if (means.rows() < 1 || static_cast<Index>(covariances.size()) != means.rows())
    throw ShapeError(fmt::format("mixture_ellipses: expected one covariance per mean (at least one), found {} and {}",
                                 covariances.size(), means.rows()));
  Figure f{.title = fmt::format("Clusters and {:g}σ ellipses", sigmas),
           .x = {.label = "x1"},
           .y = {.label = "x2"},
           .legend = Legend::OutsideRight,
           .equal_axes = true};
  add_class_points(f, points, labels, {}, "cluster", who);
  for (Index k = 0; k < means.rows(); ++k) {
    const Vector ellipse =
        covariance_ellipse(means.row(k).transpose(), covariances[static_cast<std::size_t>(k)], sigmas);
    f.series.push_back(Series{.kind = SeriesKind::Ellipse, .data = ellipse.transpose(), .color = k});
  }
  return f;
}

Figure feature_importances(const Vector& importances, const std::vector<std::string>& feature_names, Index top) {
  const char* who = "feature_importances";
  if (importances.size() == 0) throw ValueError("feature_importances: expected at least one importance, found none");
  check_finite(importances, who);
  if (!feature_names.empty() && static_cast<Index>(feature_names.size()) != importances.size())
    throw ShapeError(fmt::format("feature_importances: expected {} feature names, found {}", importances.size(),
                                 feature_names.size()));
  if (top < 0) throw ValueError(fmt::format("feature_importances: expected top >= 0, found {}", top));
  std::vector<Index> order(static_cast<std::size_t>(importances.size()));
  std::iota(order.begin(), order.end(), Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return importances(a) > importances(b); });
  if (top > 0 && top < importances.size()) order.resize(static_cast<std::size_t>(top));
  const auto shown = static_cast<Index>(order.size());
  Figure f{.title = "Feature importances",
           .x = {.range = Range{-0.6, static_cast<Scalar>(shown) - 0.4}},
           .y = {.label = "importance"},
           .legend = Legend::Hidden};
  for (Index r = 0; r < shown; ++r)
    f.x.ticks.emplace_back(static_cast<Scalar>(r),
                           class_name(feature_names, order[static_cast<std::size_t>(r)], "feature"));
  f.x.rotate_ticks = true;
  f.series.push_back(bar_series("", positions(shown), importances(order), 0));
  return f;
}

}  // namespace dagml::plot
