// Pruning by cross-validation: the α of minimal cost-complexity pruning (tree_pruning.h) chosen
// by k-fold cross-validation, the validation-driven pruning the notes ask for ("re-combine splits
// if doing so reduces validation error", notes 000 L4745, notes 001 L1068) in CART's form
// (Breiman et al. 1984, §3.4; scikit-learn's GridSearchCV over ccp_alpha).
//
// Note [Choosing α by cross-validation]
// The path of the tree grown on all of (X, y) gives α₀ = 0 < α₁ < … < α_{m−1}; the pruned full
// tree is the same for every α in [α_k, α_{k+1}), so one candidate per interval is enough:
// CART's geometric midpoints β_k = √(α_k α_{k+1}) (β₀ = 0, the unpruned tree) and β_{m−1} = α_{m−1}
// (the root alone). Each candidate's tree is grown and pruned on the training rows of every fold
// and scored on its test rows (the estimator's score: accuracy or R²); the folds run in parallel
// and deterministically (Note [Deterministic model selection]). The chosen α is the candidate of
// the best mean score (the largest α among equals, so the smallest tree), or with the one
// standard error rule the largest α whose mean is within one standard error of the best
// (CART's 1-SE rule; SE = the folds' standard deviation / √k).
//
//   PruningSelection s = select_ccp_alpha(DecisionTreeClassifierOptions{}, X, y, StratifiedKFold(y, {.k = 5}));
//   DecisionTreeClassifierOptions pruned;  pruned.growth.ccp_alpha = s.best_alpha;
#pragma once

#include <cmath>

#include "graph/tensor.h"
#include "models/data/folds.h"
#include "models/select/cross_validation.h"

namespace dagml::tree {

struct PruningSelection {
  Vector alphas;        // the candidates β_k, increasing (Note [Choosing α by cross-validation])
  Tensor fold_scores;   // candidates × folds
  Vector mean_scores;   // per candidate
  Vector standard_errors;  // per candidate: the folds' standard deviation / √k
  Index best_index = 0;
  Scalar best_alpha = 0;
};

// The candidates β_k of a path's α values (increasing, the first 0).
Vector pruning_candidates(const Vector& path_alphas);

// The index chosen among mean scores (the largest one on a tie), or with one_standard_error the
// largest index whose mean is ≥ best mean − its standard error.
Index choose_pruning(const Vector& mean_scores, const Vector& standard_errors, bool one_standard_error);

// For DecisionTreeClassifier or DecisionTreeRegressor (their Options give the growth; their
// growth.ccp_alpha is replaced). Throws as the estimator's fit, and ShapeError when X, y and the
// folds disagree.
template <class Tree>
PruningSelection select_ccp_alpha(const typename Tree::OptionsType& options, const Tensor& X, const Vector& y,
                                  const Folds& folds, bool one_standard_error = false) {
  typename Tree::OptionsType unpruned = options;
  unpruned.growth.ccp_alpha = 0;
  PruningSelection s;
  s.alphas = pruning_candidates(Tree(unpruned).cost_complexity_pruning_path(X, y).ccp_alphas);
  const auto scores = dagml::detail::evaluate_grid(
      s.alphas.size(),
      [&](Index c) {
        typename Tree::OptionsType candidate = options;
        candidate.growth.ccp_alpha = s.alphas(c);
        return Tree(candidate);
      },
      X, y, folds, false, "select_ccp_alpha");
  s.fold_scores = scores.validation;
  s.mean_scores = s.fold_scores.rowwise().mean();
  const auto k = static_cast<Scalar>(s.fold_scores.cols());
  s.standard_errors = ((s.fold_scores.colwise() - s.mean_scores).array().square().rowwise().sum() / k).sqrt() / std::sqrt(k);
  s.best_index = choose_pruning(s.mean_scores, s.standard_errors, one_standard_error);
  s.best_alpha = s.alphas(s.best_index);
  return s;
}

}  // namespace dagml::tree
