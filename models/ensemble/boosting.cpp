#include "models/ensemble/boosting.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "graph/random.h"
#include "models/classify/score_labels.h"
#include "models/tree/decision_tree.h"

namespace dagml::boosting {

Vector weighted_resample_counts(const Vector& w, std::uint64_t seed) {
  const Index n = w.size();
  std::vector<Scalar> cumulative(static_cast<std::size_t>(n));
  Scalar total = 0;
  for (Index i = 0; i < n; ++i) cumulative[static_cast<std::size_t>(i)] = total += w(i);
  std::mt19937_64 rng(seed);
  Vector counts = Vector::Zero(n);
  for (Index draw = 0; draw < n; ++draw) {
    // The first row whose cumulative weight exceeds u·Σw; rows of weight 0 are never drawn.
    const Scalar u = uniform01(rng) * total;
    auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
    if (it == cumulative.end()) --it;  // u·Σw rounded up to Σw
    Index i = static_cast<Index>(it - cumulative.begin());
    while (w(i) <= 0 && i > 0) --i;  // the rounding case above may land on a trailing zero weight
    counts(i) += 1;
  }
  return counts;
}

tree::Tree fit_weak_learner(const Tensor& X, const Vector& y, const Vector& w, tree::ImpurityKind kind,
                            Index num_classes, const TreeGrowthOptions& growth, bool resample, std::uint64_t seed,
                            Index round, const char* who, const tree::PresortedFeatures* sorted) {
  TreeGrowthOptions options = growth;
  const auto t = static_cast<std::uint64_t>(round);
  options.seed = derive_seed(seed, 2 * t + 1);
  const Vector weight = resample ? weighted_resample_counts(w, derive_seed(seed, 2 * t)) : w;
  return tree::fit_tree(X, y, weight, kind, num_classes, 2, options, true, who, sorted);
}

Vector tree_labels(const tree::Tree& tree, const Tensor& X) { return argmax_rows(tree.predict(X)); }

Vector round_weights(const std::vector<Scalar>& weights, Index num_estimators) {
  Vector x = Vector::Zero(std::max<Index>(num_estimators, static_cast<Index>(weights.size())));
  for (std::size_t t = 0; t < weights.size(); ++t) x(static_cast<Index>(t)) = weights[t];
  return x;
}

std::size_t kept_rounds(const Result& result, std::size_t fitted) {
  std::size_t leading = 0;
  while (leading < fitted && static_cast<Index>(leading) < result.x.size() && result.x(static_cast<Index>(leading)) > 0)
    ++leading;
  return std::max<std::size_t>(1, leading);
}

std::string check_loaded_learners(const std::vector<tree::Tree>& trees, const Vector& weights, Index others,
                                  bool fitted, Index max_count, Index num_features, Index outputs) {
  const auto count = static_cast<Index>(trees.size());
  if (weights.size() != count)
    return fmt::format("expected one weight per weak learner ({}), found {}", count, weights.size());
  if (others >= 0 && others != count)
    return fmt::format("expected one error per weak learner ({}), found {}", count, others);
  if (!fitted) return count == 0 ? "" : fmt::format("expected no weak learners in an unfitted model, found {}", count);
  if (count < 1 || count > max_count)
    return fmt::format("expected 1 to {} weak learners, found {}", max_count, count);
  if (!weights.allFinite()) return "expected finite weak-learner weights, found a NaN or infinity";
  for (Index t = 0; t < count; ++t) {
    const std::string fault = trees[static_cast<std::size_t>(t)].check(num_features, outputs);
    if (!fault.empty()) return fmt::format("weak learner {}: {}", t, fault);
  }
  return "";
}

}  // namespace dagml::boosting
