// Bagging classifier (notes 004 Algorithm 12 "Bagging", §2.5.3; notes 001 L1089): num_estimators
// copies of a registered classifier (by default the CART tree), member b fitted on its own rows
// and features (Note [Bagging draws] in bagging.h), predicting the mean of the members' class
// probabilities — the notes' ĥ_Bag = (1/B) Σ_b ĥ^b with "averages probabilities" — or, for
// members without predict_proba, the fraction of their votes (scikit-learn's rule). Label: the
// argmax (ties to the smaller class).
//
// A member's sample may miss classes: it is fitted on its own classes relabelled 0..K_b−1 in
// increasing order, and its probabilities are put back in the columns of those classes (the other
// columns 0). A sample of one class only holds no estimator: that member predicts its class with
// probability 1.
//
//   BaggingClassifier bag({.estimator = "knn_classifier", .estimator_options = "num_neighbors=3",
//                          .num_estimators = 50, .max_features = 0.5, .oob_score = true});
//   bag.fit(X, y);
#pragma once

#include <limits>
#include <optional>
#include <vector>

#include "models/ensemble/bagging.h"
#include "models/io/estimator.h"

namespace dagml {

class BaggingClassifier : public Estimator<BaggingClassifier, BaggingOptions> {
 public:
  static constexpr const char* kTypeName = "bagging_classifier";
  static constexpr const char* kDefaultEstimator = "decision_tree_classifier";

  // ValueError: num_estimators < 1, max_samples or max_features outside (0, 1], oob_score
  // without bootstrap, an estimator name that is not a registered classifier, or
  // estimator_options it does not take.
  explicit BaggingClassifier(BaggingOptions options = {});
  // Members like `prototype` (a registered classifier made by make_estimator, or a copy of one): its
  // name and its non-default options (bagging::with_prototype); the other options from `options`.
  explicit BaggingClassifier(const AnyEstimator& prototype, BaggingOptions options = {})
      : BaggingClassifier(bagging::with_prototype(std::move(options), prototype)) {}

  // X n×d finite (NaN allowed when the members allow missing values: bagging::members_allow_missing),
  // y labels 0..K−1 (K ≥ 2, every class present); ValueError / ShapeError
  // otherwise, and whatever a member's fit throws on its sample.
  BaggingClassifier& fit(const Tensor& X, const Vector& y);

  Tensor predict_proba(const Tensor& X) const;  // n×K, the mean over the members
  Vector predict(const Tensor& X) const;        // argmax of predict_proba
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  Index num_classes() const { return fitted_value(num_classes_); }
  // Member b's estimator (none: a one-class sample), its features and its classes.
  const std::vector<std::optional<AnyEstimator>>& estimators() const { return fitted_value(members_); }
  const std::vector<std::vector<Index>>& estimator_features() const { return fitted_value(features_); }
  const std::vector<std::vector<Index>>& estimator_classes() const { return fitted_value(classes_); }
  // The out-of-bag accuracy of the fit (Note [Bagging draws]); NaN unless options().oob_score.
  Scalar oob_score() const { return fitted_value(oob_score_); }

  // Options, K, every member's features, classes and model file, the out-of-bag score.
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    if constexpr (Archive::is_loading::value) {
      std::vector<std::string> bytes;
      ar(num_classes_, features_, classes_, bytes, oob_score_);
      load_members(ar, bytes);
    } else {
      std::vector<std::string> bytes = bagging::member_bytes(members_);
      ar(num_classes_, features_, classes_, bytes, oob_score_);
    }
  }

 private:
  void load_members(const class ModelInputArchive& ar, const std::vector<std::string>& bytes);
  // n×K: member b's class probabilities (or votes) on X (all d columns).
  Tensor member_proba(std::size_t b, const Tensor& X) const;

  Index num_classes_ = 0;
  std::vector<std::optional<AnyEstimator>> members_;
  std::vector<std::vector<Index>> features_, classes_;
  Scalar oob_score_ = std::numeric_limits<Scalar>::quiet_NaN();
};

extern template class Estimator<BaggingClassifier, BaggingOptions>;

}  // namespace dagml
