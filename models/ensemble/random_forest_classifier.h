// Random forest classifier (Breiman 2001; notes 000 §7.2, notes 001 L1091, notes 004 Algorithm 12):
// num_trees CART classification trees (models/tree/decision_tree_classifier.h), each grown on a
// bootstrap sample of the rows with a fresh random subset of max_features features tried at every
// node (default ⌊√d⌋, the notes' m = √d), predicting the mean of the trees' class proportions
// (argmax for the label). Growth in parallel, bitwise the same for any thread count, out-of-bag
// accuracy and impurity importances: Note [Forest determinism] in forest.h.
#pragma once

#include "models/ensemble/forest.h"
#include "models/tree/decision_tree_classifier.h"

namespace dagml {

struct RandomForestClassifierOptions {
  Index num_trees = 100;
  ClassificationCriterion criterion = ClassificationCriterion::Gini;
  bool bootstrap = true;
  bool oob_score = false;
  std::uint64_t seed = 0;
  TreeGrowthOptions growth = {};

  template <class V>
  void visit(V&& v) {
    v("num_trees", num_trees, "≥ 1 trees");
    v("criterion", criterion, "gini, entropy (bits) or misclassification");
    v("bootstrap", bootstrap, "grow each tree on a bootstrap sample (else on all rows)");
    v("oob_score", oob_score, "compute the out-of-bag accuracy (needs bootstrap)");
    v("seed", seed, "the forest's seed; tree t uses seeds derived from (seed, t), not growth.seed");
    v("growth", growth, "growth and stopping of every tree (max_features = auto: sqrt)");
  }
};

class RandomForestClassifier : public Forest<RandomForestClassifier, RandomForestClassifierOptions> {
 public:
  static constexpr MaxFeatures kAutoFeatures = MaxFeatures::Sqrt;  // growth.max_features = auto
  static constexpr const char* kTypeName = "random_forest_classifier";
  static constexpr std::uint32_t kModelVersion = tree::kTreeModelVersion;  // Note [Tree model layouts]

  // ValueError: num_trees < 1, growth options out of range, oob_score without bootstrap.
  explicit RandomForestClassifier(RandomForestClassifierOptions options = {});

  // X n×d finite (NaN allowed with growth.allow_missing), y labels 0..K−1 (two classes or more, all present),
  // sample_weight empty or n finite values ≥ 0 with a positive sum; errors as DecisionTreeClassifier::fit.
  RandomForestClassifier& fit(const Tensor& X, const Vector& y, const Vector& sample_weight = Vector());

  Tensor predict_proba(const Tensor& X) const;  // n×K, the mean of the trees' leaf proportions
  Vector predict(const Tensor& X) const;        // argmax (ties: the smaller class)
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  Index num_classes() const { return fitted_value(num_classes_); }

  template <class Archive>
  void serialize(Archive& ar) {
    if constexpr (Archive::is_loading::value) tree::expect_tree_layout(ar, kTypeName);
    serialize_estimator(ar);
    ar(num_classes_, trees_, oob_score_);
    if constexpr (Archive::is_loading::value) {
      if (fitted() && num_classes_ < 2) ar.fail(fmt::format("{}: expected K ≥ 2 classes, found {}", kTypeName, num_classes_));
      check_loaded_forest(ar, num_classes_);
    }
  }

 private:
  Index num_classes_ = 0;
};

extern template class Estimator<RandomForestClassifier, RandomForestClassifierOptions>;

}  // namespace dagml
