// CART regression tree (notes 001 L1048 "piecewise constant", notes 004 Algorithm 12): splits
// x_j < θ / x_j ≥ θ chosen greedily to minimise W_L i(S_L) + W_R i(S_R) with
//   squared_error   i(S) = Σ w (y − ȳ)² / W   (the population variance; leaves predict the
//                   weighted mean ȳ), or
//   absolute_error  i(S) = Σ w |y − m| / W    (leaves predict the weighted median m, the rule of
//                   split_criterion.h);
// growth, stopping and pruning as for the classifier (tree_builder.h, tree_pruning.h). Sample
// weights w ≥ 0 weight every sum; rows with w = 0 are left out.
#pragma once

#include "graph/enum_names.h"
#include "models/tree/decision_tree.h"

namespace dagml {

enum class RegressionCriterion { SquaredError, AbsoluteError };
constexpr auto enum_names(RegressionCriterion) {
  return std::to_array<EnumName<RegressionCriterion>>(
      {{RegressionCriterion::SquaredError, "squared_error"}, {RegressionCriterion::AbsoluteError, "absolute_error"}});
}

struct DecisionTreeRegressorOptions {
  RegressionCriterion criterion = RegressionCriterion::SquaredError;
  TreeGrowthOptions growth = {};

  template <class V>
  void visit(V&& v) {
    v("criterion", criterion, "squared_error (mean leaves) or absolute_error (median leaves)");
    v("growth", growth, "tree growth and stopping");
  }
};

class DecisionTreeRegressor : public DecisionTree<DecisionTreeRegressor, DecisionTreeRegressorOptions> {
 public:
  static constexpr const char* kTypeName = "decision_tree_regressor";
  static constexpr std::uint32_t kModelVersion = tree::kTreeModelVersion;  // Note [Tree model layouts]
  static constexpr bool kClassifier = false;

  explicit DecisionTreeRegressor(DecisionTreeRegressorOptions options = {});  // ValueError: see tree_builder.h

  // X n×d finite (NaN allowed with growth.allow_missing), y n finite targets, sample_weight empty (all 1) or n finite
  // values ≥ 0 with a positive sum; ValueError / ShapeError otherwise, also for max_features_count > d. Constant y or
  // constant features give a single leaf.
  DecisionTreeRegressor& fit(const Tensor& X, const Vector& y, const Vector& sample_weight = Vector());

  Vector predict(const Tensor& X) const;                 // the leaf values
  Scalar score(const Tensor& X, const Vector& y) const;  // R²

  // As DecisionTreeClassifier::cost_complexity_pruning_path.
  tree::CostComplexityPath cost_complexity_pruning_path(const Tensor& X, const Vector& y,
                                                        const Vector& sample_weight = Vector()) const;

  std::string_view impurity_name() const { return enum_name(options_.criterion); }

  template <class Archive>
  void serialize(Archive& ar) {
    if constexpr (Archive::is_loading::value) tree::expect_tree_layout(ar, kTypeName);
    serialize_estimator(ar);
    ar(tree_);
    if constexpr (Archive::is_loading::value) check_loaded_tree(ar, 1);
  }

 private:
  tree::Tree grow(const Tensor& X, const Vector& y, const Vector& sample_weight, bool prune) const;
};

extern template class Estimator<DecisionTreeRegressor, DecisionTreeRegressorOptions>;

}  // namespace dagml
