// Gradient-boosting regressor on histogram trees (Note [Gradient boosting] in gradient_boosting.h,
// Note [Gradient tree] in models/tree/gradient_tree.h): F(x) = F⁰ + Σ_t f_t(x), each tree a Newton
// step on the loss (Note [Boosting losses] in boosting_loss.h), prediction F(x) (e^{F(x)} for the
// Poisson loss). scikit-learn's HistGradientBoostingRegressor with the same options grows the
// same model up to the binning of features with more than max_bins distinct values, and its
// single-precision gradients. fit(X, y, loss) boosts any BoostingLoss, e.g. a graph loss
// (graph_loss.h).
#pragma once

#include "graph/enum_names.h"
#include "models/ensemble/gradient_boosting.h"

namespace dagml {

enum class RegressionBoostingLoss { SquaredError, AbsoluteError, Huber, Poisson };
constexpr auto enum_names(RegressionBoostingLoss) {
  return std::to_array<EnumName<RegressionBoostingLoss>>({{RegressionBoostingLoss::SquaredError, "squared_error"},
                                                          {RegressionBoostingLoss::AbsoluteError, "absolute_error"},
                                                          {RegressionBoostingLoss::Huber, "huber"},
                                                          {RegressionBoostingLoss::Poisson, "poisson"}});
}

struct GradientBoostingRegressorOptions {
  RegressionBoostingLoss loss = RegressionBoostingLoss::SquaredError;
  Scalar huber_delta = 1;  // δ > 0 of the Huber loss
  BoostingOptions boosting = {};

  template <class V>
  void visit(V&& v) {
    v("loss", loss, "squared_error, absolute_error, huber or poisson (log link; y ≥ 0)");
    v("huber_delta", huber_delta, "> 0, where the Huber loss turns from quadratic to linear");
    v("boosting", boosting, "boosting rounds, trees, subsampling and early stopping");
  }
};

class GradientBoostingRegressor : public GradientBoosting<GradientBoostingRegressor, GradientBoostingRegressorOptions> {
 public:
  static constexpr const char* kTypeName = "gradient_boosting_regressor";
  static constexpr std::uint32_t kModelVersion = tree::kBoostingCategoricalLayout;  // layout 1: no categories

  // ValueError for an option out of range.
  explicit GradientBoostingRegressor(GradientBoostingRegressorOptions options = {});

  // X n×d (finite; NaN allowed with boosting.allow_missing), y n finite targets (≥ 0, not all 0,
  // for Poisson), sample_weight empty (all 1) or n finite values ≥ 0 with a positive sum.
  // ValueError / ShapeError otherwise. The callbacks see every round.
  GradientBoostingRegressor& fit(const Tensor& X, const Vector& y, const Vector& sample_weight = Vector(),
                                 const CallbackList& callbacks = {});
  // The same with `loss` instead of options().loss: any loss with one raw output per row
  // (ValueError otherwise). Its link is saved with the model; the loss itself is not.
  GradientBoostingRegressor& fit(const Tensor& X, const Vector& y, const BoostingLoss& loss,
                                 const Vector& sample_weight = Vector(), const CallbackList& callbacks = {});

  // The same on rows spread across ranks (Note [Gradient boosting over ranks]): X, y and
  // sample_weight are this rank's rows of `layout` (ValueError otherwise), the checks apply to all
  // rows, and every rank gets the same model. ValueError for early_stopping, and for the
  // absolute_error loss over more than one rank.
  GradientBoostingRegressor& fit(Communicator& comm, const ChunkLayout& layout, const Tensor& X, const Vector& y,
                                 const Vector& sample_weight = Vector(), const CallbackList& callbacks = {});

  Vector predict(const Tensor& X) const;                 // the link of F (n)
  std::vector<Vector> staged_predict(const Tensor& X) const;  // after each round
  Scalar score(const Tensor& X, const Vector& y) const;  // R²

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(ensemble_);
    if constexpr (Archive::is_loading::value) check_loaded_ensemble(ar, 1);
  }
};

extern template class Estimator<GradientBoostingRegressor, GradientBoostingRegressorOptions>;

}  // namespace dagml
