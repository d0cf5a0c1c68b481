// CART classification tree (notes 000 §7.1, notes 001 §11 Algorithm 7, notes 004 Algorithm 12):
// axis-aligned binary splits x_j < θ (left) / x_j ≥ θ (right) chosen greedily, top down, to
// minimise the weighted child impurity W_L i(S_L) + W_R i(S_R) — equivalently to maximise the
// information gain (entropy) or the Gini / misclassification decrease — over the thresholds
// between consecutive distinct values of every candidate feature (models/tree/split_criterion.h,
// exact_split_finder.h); growth and stopping as in Note [Tree growth] (tree_builder.h); optional
// minimal cost-complexity pruning (tree_pruning.h).
//
// Weights: row i counts with w_i = s_i · c_{y_i}, s the sample weights given to fit (default 1)
// and c the class weights (default 1; class_weights gives them, balanced_class_weights sets
// c_k = n / (K n_k), n_k the number of rows of class k, scikit-learn's "balanced"). Every count
// in the impurities is a sum of w; min_samples_* count rows (rows with w = 0 are left out).
// A leaf holds the weighted class proportions p_k = W_k / W of its rows: predict_proba returns
// them and predict their argmax (ties to the smaller class, Note [Ties and NaN in per-class scores]).
#pragma once

#include "graph/enum_names.h"
#include "models/tree/decision_tree.h"

namespace dagml {

enum class ClassificationCriterion { Gini, Entropy, Misclassification };
constexpr auto enum_names(ClassificationCriterion) {
  return std::to_array<EnumName<ClassificationCriterion>>({{ClassificationCriterion::Gini, "gini"},
                                                           {ClassificationCriterion::Entropy, "entropy"},
                                                           {ClassificationCriterion::Misclassification,
                                                            "misclassification"}});
}

struct DecisionTreeClassifierOptions {
  ClassificationCriterion criterion = ClassificationCriterion::Gini;
  Scalar entropy_base = 2;             // > 1; 2 gives bits (scikit-learn), e the nats of the notes
  Vector class_weights = Vector();     // K weights ≥ 0; empty: all 1
  bool balanced_class_weights = false;  // c_k = n / (K n_k); not with class_weights
  TreeGrowthOptions growth = {};

  template <class V>
  void visit(V&& v) {
    v("criterion", criterion, "gini, entropy (information gain) or misclassification");
    v("entropy_base", entropy_base, "> 1, the base of the entropy's logarithm (2: bits)");
    v("class_weights", class_weights, "K class weights ≥ 0 multiplying the sample weights (empty: all 1)");
    v("balanced_class_weights", balanced_class_weights, "class weights n / (K n_k) (not with class_weights)");
    v("growth", growth, "tree growth and stopping");
  }
};

class DecisionTreeClassifier : public DecisionTree<DecisionTreeClassifier, DecisionTreeClassifierOptions> {
 public:
  static constexpr const char* kTypeName = "decision_tree_classifier";
  static constexpr std::uint32_t kModelVersion = tree::kTreeModelVersion;  // Note [Tree model layouts]
  static constexpr bool kClassifier = true;

  // ValueError for an option out of range (tree_builder.h, entropy_base ≤ 1, negative or
  // non-finite class weights, class_weights with balanced_class_weights).
  explicit DecisionTreeClassifier(DecisionTreeClassifierOptions options = {});

  // X n×d finite (NaN allowed with growth.allow_missing); y labels 0..K−1 with at least two classes, every one present;
  // sample_weight empty (all 1) or n finite values ≥ 0 with a positive sum. ValueError / ShapeError otherwise, also for
  // class_weights of other than K entries or max_features_count > d.
  DecisionTreeClassifier& fit(const Tensor& X, const Vector& y, const Vector& sample_weight = Vector());

  Tensor predict_proba(const Tensor& X) const;  // n×K leaf class proportions
  Vector predict(const Tensor& X) const;        // argmax of predict_proba
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  // The minimal cost-complexity pruning path (tree_pruning.h) of the tree these options grow on
  // (X, y, sample_weight) without pruning (scikit-learn's cost_complexity_pruning_path). Does not
  // change the model. Throws as fit.
  tree::CostComplexityPath cost_complexity_pruning_path(const Tensor& X, const Vector& y,
                                                        const Vector& sample_weight = Vector()) const;

  Index num_classes() const { return fitted_value(num_classes_); }
  std::string_view impurity_name() const { return enum_name(options_.criterion); }

  template <class Archive>
  void serialize(Archive& ar) {
    if constexpr (Archive::is_loading::value) tree::expect_tree_layout(ar, kTypeName);
    serialize_estimator(ar);
    ar(num_classes_, tree_);
    if constexpr (Archive::is_loading::value) {
      if (fitted() && num_classes_ < 2) ar.fail(fmt::format("{}: expected K ≥ 2 classes, found {}", kTypeName, num_classes_));
      check_loaded_tree(ar, num_classes_);
    }
  }

 private:
  // The tree of (X, y, w) with these options, and K.
  tree::Tree grow(const Tensor& X, const Vector& y, const Vector& sample_weight, bool prune, Index& K) const;

  Index num_classes_ = 0;
};

extern template class Estimator<DecisionTreeClassifier, DecisionTreeClassifierOptions>;

}  // namespace dagml
