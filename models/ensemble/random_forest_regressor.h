// Random forest regressor (Breiman 2001; notes 000 §7.2, notes 001 L1091, notes 004 Algorithm 12):
// num_trees CART regression trees (models/tree/decision_tree_regressor.h) on bootstrap samples,
// max_features features tried per node (default ⌊d/3⌋, the notes' m = d/3 for regression;
// scikit-learn 1.2 defaults to all d), predicting the mean of the trees. Parallel growth,
// determinism, out-of-bag R² and importances: Note [Forest determinism] in forest.h.
#pragma once

#include "models/ensemble/forest.h"
#include "models/tree/decision_tree_regressor.h"

namespace dagml {

struct RandomForestRegressorOptions {
  Index num_trees = 100;
  RegressionCriterion criterion = RegressionCriterion::SquaredError;
  bool bootstrap = true;
  bool oob_score = false;
  std::uint64_t seed = 0;
  TreeGrowthOptions growth = {};

  template <class V>
  void visit(V&& v) {
    v("num_trees", num_trees, "≥ 1 trees");
    v("criterion", criterion, "squared_error or absolute_error");
    v("bootstrap", bootstrap, "grow each tree on a bootstrap sample (else on all rows)");
    v("oob_score", oob_score, "compute the out-of-bag R² (needs bootstrap)");
    v("seed", seed, "the forest's seed; tree t uses seeds derived from (seed, t), not growth.seed");
    v("growth", growth, "growth and stopping of every tree (max_features = auto: third)");
  }
};

class RandomForestRegressor : public Forest<RandomForestRegressor, RandomForestRegressorOptions> {
 public:
  static constexpr MaxFeatures kAutoFeatures = MaxFeatures::Third;  // growth.max_features = auto
  static constexpr const char* kTypeName = "random_forest_regressor";
  static constexpr std::uint32_t kModelVersion = tree::kTreeModelVersion;  // Note [Tree model layouts]

  // ValueError: num_trees < 1, growth options out of range, oob_score without bootstrap.
  explicit RandomForestRegressor(RandomForestRegressorOptions options = {});

  // X n×d finite (NaN allowed with growth.allow_missing), y n finite targets, sample_weight as
  // DecisionTreeRegressor::fit.
  RandomForestRegressor& fit(const Tensor& X, const Vector& y, const Vector& sample_weight = Vector());

  Vector predict(const Tensor& X) const;                 // the mean of the trees
  Scalar score(const Tensor& X, const Vector& y) const;  // R²

  template <class Archive>
  void serialize(Archive& ar) {
    if constexpr (Archive::is_loading::value) tree::expect_tree_layout(ar, kTypeName);
    serialize_estimator(ar);
    ar(trees_, oob_score_);
    if constexpr (Archive::is_loading::value) check_loaded_forest(ar, 1);
  }
};

extern template class Estimator<RandomForestRegressor, RandomForestRegressorOptions>;

}  // namespace dagml
