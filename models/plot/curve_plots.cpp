// The curve kinds of plots.h: learning curves, ROC and precision–recall curves, best-so-far
// traces, state paths, episode returns and Gaussian-process bands.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/metrics/scoring_metrics.h"
#include "models/plot/plots.h"

namespace dagml::plot {
namespace {

Vector as_vector(const std::vector<Scalar>& values) {
  return Eigen::Map<const Vector>(values.data(), static_cast<Index>(values.size()));
}

void check_named(const std::vector<NamedValues>& series, const char* who) {
  if (series.empty()) throw ValueError(fmt::format("{}: expected at least one series, found none", who));
  for (const NamedValues& s : series)
    if (s.values.empty()) throw ValueError(fmt::format("{}: series '{}' has no values", who, s.name));
}

// One line per scored classifier on the unit square of `frame` (its title, labels, legend):
// curve_of(y, scores) gives the (x, y) points and the value its legend shows.
template <class CurveOf>
Figure scored_curves(Figure frame, const Vector& y_true, const std::vector<NamedScores>& classifiers, const char* who,
                     CurveOf curve_of) {
  if (classifiers.empty()) throw ValueError(fmt::format("{}: expected at least one classifier, found none", who));
  frame.x.range = Range{0, 1};
  frame.y.range = Range{0, 1.02};
  for (const NamedScores& c : classifiers) {
    const auto [x, y, legend] = curve_of(y_true, c.scores);
    frame.series.push_back(line_series(fmt::format("{} ({})", c.name, legend), x, y));
  }
  return frame;
}

}  // namespace

Figure learning_curves(const std::vector<NamedValues>& histories, bool log_y) {
  check_named(histories, "learning_curves");
  Figure f{.title = "Learning curves", .x = {.label = "iteration"}, .y = {.label = "loss", .log_scale = log_y}};
  for (const NamedValues& h : histories) {
    const Vector values = as_vector(h.values);
    if (log_y && (values.array() <= 0).any())
      throw ValueError(
          fmt::format("learning_curves: a logarithmic axis needs values > 0, '{}' has {}", h.name, values.minCoeff()));
    f.series.push_back(line_series(h.name, positions(values.size()), values));
  }
  return f;
}

Figure roc_curves(const Vector& y_true, const std::vector<NamedScores>& classifiers) {
  const Figure frame{.title = "ROC curves",
                     .x = {.label = "false positive rate"},
                     .y = {.label = "true positive rate"},
                     .legend = Legend::BottomRight};
  Figure f = scored_curves(frame, y_true, classifiers, "roc_curves", [](const Vector& y, const Vector& s) {
    const RocCurve roc = roc_curve(y, s);
    return std::tuple{roc.fpr, roc.tpr, fmt::format("AUC = {:.3f}", roc_auc_score(y, s))};
  });
  f.series.push_back(line_series("chance", Vector{{0.0, 1.0}}, Vector{{0.0, 1.0}}, 7));
  f.series.back().line_width = 1;
  return f;
}

Figure precision_recall_curves(const Vector& y_true, const std::vector<NamedScores>& classifiers) {
  const Figure frame{.title = "Precision and recall",
                     .x = {.label = "recall"},
                     .y = {.label = "precision"},
                     .legend = Legend::BottomLeft};
  return scored_curves(frame, y_true, classifiers, "precision_recall_curves", [](const Vector& y, const Vector& s) {
    const PrecisionRecallCurve pr = precision_recall_curve(y, s);
    return std::tuple{pr.recall, pr.precision, fmt::format("AP = {:.3f}", average_precision_score(y, s))};
  });
}

Figure best_so_far(const std::vector<NamedValues>& evaluations, bool maximize) {
  check_named(evaluations, "best_so_far");
  Figure f{.title = "Best value so far",
           .x = {.label = "evaluation"},
           .y = {.label = maximize ? "largest value" : "smallest value"}};
  for (const NamedValues& e : evaluations) {
    Vector best = as_vector(e.values);
    for (Index i = 1; i < best.size(); ++i)
      best(i) = maximize ? std::max(best(i), best(i - 1)) : std::min(best(i), best(i - 1));
    f.series.push_back(step_series(e.name, positions(best.size()).array() + 1, best));
  }
  return f;
}

Figure state_paths(const std::vector<NamedValues>& paths, const std::vector<std::string>& state_names) {
  check_named(paths, "state_paths");
  auto num_states = static_cast<Index>(state_names.size());
  Figure f{
      .title = "State paths", .x = {.label = "time step"}, .y = {.label = "state"}, .legend = Legend::OutsideRight};
  for (std::size_t k = 0; k < paths.size(); ++k) {
    const Vector states = as_vector(paths[k].values);
    num_states = std::max(num_states, check_labels(states, "state_paths", static_cast<Index>(state_names.size())));
    // The last state held for one step too: n + 1 step corners.
    Vector held(states.size() + 1);
    held << states, states(states.size() - 1);
    Series path = step_series(paths[k].name, positions(held.size()), held);
    path.line_width = k == 0 ? 6 : 2;
    f.series.push_back(path);
  }
  f.y.range = Range{-0.5, static_cast<Scalar>(num_states) - 0.5};
  for (Index s = 0; s < num_states; ++s)
    f.y.ticks.emplace_back(static_cast<Scalar>(s),
                           state_names.empty() ? fmt::format("{}", s) : state_names[static_cast<std::size_t>(s)]);
  return f;
}

// The trailing mean m_i = (1/w_i) Σ_{j = i−w_i+1..i} r_j with w_i = min(window, i) (episodes 1-based).
Figure episode_returns(const std::vector<Scalar>& returns, Index window) {
  if (returns.empty()) throw ValueError("episode_returns: expected at least one return, found none");
  if (window < 1) throw ValueError(fmt::format("episode_returns: expected window >= 1, found {}", window));
  const Vector r = as_vector(returns);
  Vector mean(r.size());
  Scalar sum = 0;
  for (Index i = 0; i < r.size(); ++i) {
    sum += r(i) - (i >= window ? r(i - window) : 0);
    mean(i) = sum / static_cast<Scalar>(std::min(window, i + 1));
  }
  const Vector episode = positions(r.size()).array() + 1;
  Figure f{.title = "Returns", .x = {.label = "episode"}, .y = {.label = "return"}, .legend = Legend::BottomRight};
  f.series.push_back(line_series("return", episode, r, 0));
  f.series.back().line_width = 1;
  f.series.push_back(line_series(fmt::format("mean of the last {}", window), episode, mean, 1));
  return f;
}

Figure posterior_band(const Vector& x, const Vector& mean, const Vector& std, const Vector& x_train,
                      const Vector& y_train) {
  if (x.size() == 0) throw ValueError("posterior_band: expected at least one point, found none");
  if (mean.size() != x.size() || std.size() != x.size() || y_train.size() != x_train.size())
    throw ShapeError(
        fmt::format("posterior_band: expected x, mean, std of one length and x_train, y_train of one "
                    "length, found {}, {}, {} and {}, {}",
                    x.size(), mean.size(), std.size(), x_train.size(), y_train.size()));
  check_finite(std, "posterior_band");
  if ((std.array() < 0).any())
    throw ValueError(fmt::format("posterior_band: expected std >= 0, found {}", std.minCoeff()));
  std::vector<Index> order(static_cast<std::size_t>(x.size()));
  std::iota(order.begin(), order.end(), Index{0});
  std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return x(a) < x(b); });
  const Vector xs = x(order), ms = mean(order), ss = std(order);
  Figure f{.title = "Gaussian-process posterior", .x = {.label = "x"}, .y = {.label = "y"}};
  f.series.push_back(band_series("mean ± 2 std", xs, ms - 2 * ss, ms + 2 * ss, 0));
  f.series.push_back(line_series("mean", xs, ms, 0));
  if (x_train.size() > 0) f.series.push_back(point_series("observations", x_train, y_train, 3));
  return f;
}

}  // namespace dagml::plot
