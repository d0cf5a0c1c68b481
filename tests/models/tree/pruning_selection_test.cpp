// Pruning by cross-validation: the candidates between the path's α values, the choice (best mean,
// one-standard-error rule) worked by hand, and the fold scores equal to cross_val_score of the
// same pruned trees.
#include "models/tree/pruning_selection.h"

#include <gtest/gtest.h>

#include <cmath>

#include "models/data/datasets.h"
#include "models/tree/decision_tree_classifier.h"
#include "models/tree/decision_tree_regressor.h"

namespace dagml {
namespace {

TEST(PruningSelection, CandidatesAreGeometricMidpointsOfThePath) {
  const Vector path = (Vector(4) << 0, 0.01, 0.04, 0.2).finished();
  const Vector beta = tree::pruning_candidates(path);
  EXPECT_EQ(beta(0), 0);                              // √(0 · 0.01): the unpruned tree
  EXPECT_DOUBLE_EQ(beta(1), 0.02);                    // √(0.01 · 0.04)
  EXPECT_DOUBLE_EQ(beta(2), std::sqrt(0.04 * 0.2));   // 0.0894…
  EXPECT_EQ(beta(3), 0.2);                            // the root alone
}

TEST(PruningSelection, BestMeanPrefersTheLargerAlphaAndTheOneStandardErrorRule) {
  const Vector mean = (Vector(5) << 0.90, 0.93, 0.93, 0.915, 0.80).finished();
  const Vector se = (Vector(5) << 0.01, 0.01, 0.02, 0.01, 0.01).finished();
  EXPECT_EQ(tree::choose_pruning(mean, se, false), 2);  // a tie at 0.93: the larger α
  // Within one SE of the best (0.93 − 0.02 = 0.91): index 3 (0.915), not 4 (0.80).
  EXPECT_EQ(tree::choose_pruning(mean, se, true), 3);
}

TEST(PruningSelection, FoldScoresAreThoseOfThePrunedTrees) {
  const Dataset data = load_dataset("breast_cancer");
  const StratifiedKFold folds(data.target, {.k = 5, .shuffle = true, .seed = 7});
  DecisionTreeClassifierOptions options;
  const tree::PruningSelection s = tree::select_ccp_alpha<DecisionTreeClassifier>(options, data.features, data.target, folds);
  const Vector path = DecisionTreeClassifier(options).cost_complexity_pruning_path(data.features, data.target).ccp_alphas;
  ASSERT_EQ(s.alphas.size(), path.size());
  EXPECT_EQ(s.alphas, tree::pruning_candidates(path));
  for (const Index c : {Index{0}, s.best_index, s.alphas.size() - 1}) {
    DecisionTreeClassifierOptions pruned = options;
    pruned.growth.ccp_alpha = s.alphas(c);
    const Vector scores = cross_val_score(DecisionTreeClassifier(pruned), data.features, data.target, folds);
    EXPECT_EQ(Vector(s.fold_scores.row(c).transpose()), scores) << "candidate " << c;  // the same fits, bitwise
  }
  // Pruning helps here: the chosen α beats the unpruned tree and the root alone, with fewer leaves.
  EXPECT_GE(s.mean_scores(s.best_index), s.mean_scores(0));
  EXPECT_GT(s.mean_scores(s.best_index), s.mean_scores(s.alphas.size() - 1));
  DecisionTreeClassifier full(options), chosen([&] {
    DecisionTreeClassifierOptions o = options;
    o.growth.ccp_alpha = s.best_alpha;
    return o;
  }());
  full.fit(data.features, data.target);
  chosen.fit(data.features, data.target);
  EXPECT_LT(chosen.num_leaves(), full.num_leaves());
}

TEST(PruningSelection, OneStandardErrorNeverChoosesABiggerTree) {
  const Dataset data = load_dataset("diabetes");
  const KFold folds(data.num_samples(), {.k = 5, .shuffle = true, .seed = 3});
  const auto best = tree::select_ccp_alpha<DecisionTreeRegressor>({}, data.features, data.target, folds);
  const auto one_se = tree::select_ccp_alpha<DecisionTreeRegressor>({}, data.features, data.target, folds, true);
  EXPECT_EQ(best.fold_scores, one_se.fold_scores);
  EXPECT_GE(one_se.best_alpha, best.best_alpha);
  EXPECT_GE(one_se.mean_scores(one_se.best_index), best.mean_scores(best.best_index) - best.standard_errors(best.best_index));
}

}  // namespace
}  // namespace dagml
