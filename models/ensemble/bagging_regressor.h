// Bagging regressor (notes 004 Algorithm 12 "Bagging", §2.5.3; notes 001 L1089): num_estimators
// copies of a registered regressor (by default the CART regression tree), member b fitted on its
// own rows and features (Note [Bagging draws] in bagging.h), predicting the notes' bagged
// estimator ĥ_Bag(x) = (1/B) Σ_b ĥ^b(x).
//
//   BaggingRegressor bag({.estimator = "ridge", .estimator_options = "lambda=0.1", .num_estimators = 30});
//   bag.fit(X, y);
#pragma once

#include <limits>
#include <optional>
#include <vector>

#include "models/ensemble/bagging.h"
#include "models/io/estimator.h"

namespace dagml {

class BaggingRegressor : public Estimator<BaggingRegressor, BaggingOptions> {
 public:
  static constexpr const char* kTypeName = "bagging_regressor";
  static constexpr const char* kDefaultEstimator = "decision_tree_regressor";

  // ValueError as BaggingClassifier's, for a registered regressor.
  explicit BaggingRegressor(BaggingOptions options = {});
  // Members like `prototype` (a registered regressor made by make_estimator, or a copy of one): its
  // name and its non-default options (bagging::with_prototype); the other options from `options`.
  explicit BaggingRegressor(const AnyEstimator& prototype, BaggingOptions options = {})
      : BaggingRegressor(bagging::with_prototype(std::move(options), prototype)) {}

  // X n×d finite (NaN allowed when the members allow missing values: bagging::members_allow_missing),
  // y n finite targets; ValueError / ShapeError otherwise, and whatever a member's
  // fit throws on its sample.
  BaggingRegressor& fit(const Tensor& X, const Vector& y);

  Vector predict(const Tensor& X) const;                 // the mean of the members
  Scalar score(const Tensor& X, const Vector& y) const;  // R²

  const std::vector<std::optional<AnyEstimator>>& estimators() const { return fitted_value(members_); }
  const std::vector<std::vector<Index>>& estimator_features() const { return fitted_value(features_); }
  // The out-of-bag R² of the fit (Note [Bagging draws]); NaN unless options().oob_score (or fewer
  // than two rows are out of bag).
  Scalar oob_score() const { return fitted_value(oob_score_); }

  // Options, every member's features and model file, the out-of-bag score.
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    if constexpr (Archive::is_loading::value) {
      std::vector<std::string> bytes;
      ar(features_, bytes, oob_score_);
      load_members(ar, bytes);
    } else {
      std::vector<std::string> bytes = bagging::member_bytes(members_);
      ar(features_, bytes, oob_score_);
    }
  }

 private:
  void load_members(const class ModelInputArchive& ar, const std::vector<std::string>& bytes);
  Vector member_predict(std::size_t b, const Tensor& X) const;

  std::vector<std::optional<AnyEstimator>> members_;  // every one holds an estimator
  std::vector<std::vector<Index>> features_;
  Scalar oob_score_ = std::numeric_limits<Scalar>::quiet_NaN();
};

extern template class Estimator<BaggingRegressor, BaggingOptions>;

}  // namespace dagml
