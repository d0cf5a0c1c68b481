// Gradient-boosting classifier on histogram trees (Note [Gradient boosting] in gradient_boosting.h,
// Note [Gradient tree] in models/tree/gradient_tree.h): two classes boost the binary logistic
// loss on one raw score F (P(y = 1 | x) = σ(F(x))); K > 2 classes the softmax loss with one tree
// per class per round (P(y = k | x) = softmax(F(x))_k) (Note [Boosting losses]). scikit-learn's
// HistGradientBoostingClassifier and XGBoost's `hist` (binary:logistic; for multi:softprob
// XGBoost doubles the Hessian) grow the same model up to their binning and rounding.
// fit(X, y, loss) boosts any BoostingLoss with the classifier's link (sigmoid with one output for
// two classes, softmax with K outputs), e.g. a graph loss (graph_loss.h).
#pragma once

#include "models/ensemble/gradient_boosting.h"

namespace dagml {

struct GradientBoostingClassifierOptions {
  BoostingOptions boosting = {};

  template <class V>
  void visit(V&& v) {
    v("boosting", boosting, "boosting rounds, trees, subsampling and early stopping");
  }
};

class GradientBoostingClassifier
    : public GradientBoosting<GradientBoostingClassifier, GradientBoostingClassifierOptions> {
 public:
  static constexpr const char* kTypeName = "gradient_boosting_classifier";
  static constexpr std::uint32_t kModelVersion = tree::kBoostingCategoricalLayout;  // layout 1: no categories

  // ValueError for an option out of range.
  explicit GradientBoostingClassifier(GradientBoostingClassifierOptions options = {});

  // X n×d (finite; NaN allowed with boosting.allow_missing), y labels 0..K−1 with every class
  // present, K ≥ 2, sample_weight empty (all 1) or n finite values ≥ 0 with a positive sum.
  // ValueError / ShapeError otherwise. The callbacks see every round.
  GradientBoostingClassifier& fit(const Tensor& X, const Vector& y, const Vector& sample_weight = Vector(),
                                  const CallbackList& callbacks = {});
  // The same with `loss`: for K = 2 a loss with one raw output and the sigmoid link, for K > 2
  // one with K outputs and the softmax link (ValueError otherwise). The loss is not saved.
  GradientBoostingClassifier& fit(const Tensor& X, const Vector& y, const BoostingLoss& loss,
                                  const Vector& sample_weight = Vector(), const CallbackList& callbacks = {});

  // The same on rows spread across ranks (Note [Gradient boosting over ranks]): X, y and
  // sample_weight are this rank's rows of `layout` (ValueError otherwise), the checks apply to all
  // rows (every class present somewhere), and every rank gets the same model. ValueError for
  // early_stopping.
  GradientBoostingClassifier& fit(Communicator& comm, const ChunkLayout& layout, const Tensor& X, const Vector& y,
                                  const Vector& sample_weight = Vector(), const CallbackList& callbacks = {});

  Tensor predict_proba(const Tensor& X) const;  // n×K class probabilities
  std::vector<Tensor> staged_predict_proba(const Tensor& X) const;  // after each round
  Vector predict(const Tensor& X) const;        // argmax (ties: the smaller class)
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  Index num_classes() const { return fitted_value(num_classes_); }

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(num_classes_, ensemble_);
    if constexpr (Archive::is_loading::value) {
      if (fitted() && num_classes_ < 2) ar.fail(fmt::format("{}: expected K ≥ 2 classes, found {}", kTypeName, num_classes_));
      if (fitted() && ensemble_.link != (num_classes_ == 2 ? BoostingLink::Sigmoid : BoostingLink::Softmax))
        ar.fail(fmt::format("{}: expected the {} link for {} classes, found {}", kTypeName,
                            num_classes_ == 2 ? "sigmoid" : "softmax", num_classes_, enum_name(ensemble_.link)));
      check_loaded_ensemble(ar, num_classes_ == 2 ? 1 : num_classes_);
    }
  }

 private:
  // The probabilities of raw predictions F (n × K).
  Tensor probabilities(const Tensor& F) const;

  Index num_classes_ = 0;
};

extern template class Estimator<GradientBoostingClassifier, GradientBoostingClassifierOptions>;

}  // namespace dagml
