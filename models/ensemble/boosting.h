// What the stagewise boosting estimators share (AdaBoostClassifier, LogitBoostClassifier,
// L2BoostRegressor; notes 004 §2.5.5, notes 000 §7.3): fitting one weak learner — a CART tree of
// the given growth options — on weighted rows, by reweighting or by resampling, the seeds of
// round t, the weak learners' predictions, and the load checks of a fitted sequence.
//
// Note [Boosting rounds and seeds]
// Round t (0-based) of a fit with seed s draws its resample (when resampling) from
// std::mt19937_64 seeded with derive_seed(s, 2t) and grows its tree with growth.seed =
// derive_seed(s, 2t + 1) (the feature draws when max_features < d), as the forests do per tree
// (Note [Forest determinism]); so round t depends only on (s, t) and the weights it is given.
// Resampling (notes 000 §7.3, "weighted training by resampling"): n rows drawn with replacement
// with probabilities w_i / Σw (inverse-CDF on a uniform [0, 1) draw, Note [Portable randomness]);
// the tree is grown on the rows drawn, row i with weight c_i (the times it was drawn), while the
// weighted error and the weight update still use w over all n rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graph/tensor.h"
#include "models/tree/presorted_features.h"
#include "models/tree/split_criterion.h"
#include "models/tree/tree.h"
#include "models/tree/tree_builder.h"
#include "optim/result.h"

namespace dagml::boosting {

// A weak learner whose weighted error is within this relative distance of chance (1 − 1/K) counts
// as no better than chance: its weight would be of the order of the rounding of the weights.
inline constexpr Scalar kChanceTolerance = 1e-12;

// How many times each row is drawn in n draws with probabilities w_i / Σw (w ≥ 0, Σw > 0),
// from std::mt19937_64 seeded with `seed`.
Vector weighted_resample_counts(const Vector& w, std::uint64_t seed);

// The weak learner of round t (Note [Boosting rounds and seeds]): a tree of `growth` on (X, y)
// weighted by w (resample = false) or on a weighted resample of the rows (resample = true).
// `kind`, `num_classes` and `sorted` as tree::fit_tree (num_classes = 0 for a regression tree; `sorted` from
// tree::presort_for(X, growth) once per fit).
tree::Tree fit_weak_learner(const Tensor& X, const Vector& y, const Vector& w, tree::ImpurityKind kind,
                            Index num_classes, const TreeGrowthOptions& growth, bool resample, std::uint64_t seed,
                            Index round, const char* who, const tree::PresortedFeatures* sorted);

// The class (argmax of the leaf proportions, ties to the smaller class) a classification tree
// gives each row of X.
Vector tree_labels(const tree::Tree& tree, const Tensor& X);

// The iterate the callbacks of a boosting fit see: the weights of the T = num_estimators
// possible rounds, (w_1, …, w_t, 0, …, 0) after round t — a round not run has weight 0, and every
// round run has a positive weight. Its length stays T, so EarlyStopping can put an earlier
// round's iterate back in the result.
Vector round_weights(const std::vector<Scalar>& weights, Index num_estimators);
// The rounds a fit keeps out of `fitted`: the leading positive entries of the run's result x
// (fewer than `fitted` when a callback's on_end put an earlier round's iterate back), at least one.
std::size_t kept_rounds(const Result& result, std::size_t fitted);

// "" when a loaded sequence is consistent: as many trees as weights (and as `others` entries
// when others ≥ 0), 1 ≤ count ≤ max_count when fitted and 0 otherwise, every tree valid for
// num_features and `outputs` (Tree::check), every weight finite; else what is wrong.
std::string check_loaded_learners(const std::vector<tree::Tree>& trees, const Vector& weights, Index others,
                                  bool fitted, Index max_count, Index num_features, Index outputs);

}  // namespace dagml::boosting
