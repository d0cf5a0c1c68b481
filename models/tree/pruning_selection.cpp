#include "models/tree/pruning_selection.h"

namespace dagml::tree {

Vector pruning_candidates(const Vector& path_alphas) {
  const Index m = path_alphas.size();
  Vector beta(m);
  for (Index k = 0; k < m; ++k) {
    beta(k) = k + 1 < m ? std::sqrt(path_alphas(k) * path_alphas(k + 1)) : path_alphas(k);
  }
  return beta;
}

Index choose_pruning(const Vector& mean_scores, const Vector& standard_errors, bool one_standard_error) {
  Index best = 0;
  for (Index c = 1; c < mean_scores.size(); ++c) {
    if (mean_scores(c) >= mean_scores(best)) best = c;  // ≥: the larger α among equals
  }
  if (!one_standard_error) return best;
  const Scalar threshold = mean_scores(best) - standard_errors(best);
  Index chosen = best;
  for (Index c = best + 1; c < mean_scores.size(); ++c) {
    if (mean_scores(c) >= threshold) chosen = c;
  }
  return chosen;
}

}  // namespace dagml::tree
