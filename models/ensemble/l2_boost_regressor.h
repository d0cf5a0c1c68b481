// L2-Boost as the notes give it (notes 004 §2.5.5 L845: "squared loss; each weak learner is fitted
// to the residuals"; notes 000 §7.3: gradient boosting with L = ½(y − ŷ)², −∇ = the residuals,
// "matching pursuit"; Bühlmann & Yu 2003): f_0 = 0 (or the weighted mean of y with
// fit_intercept), and for t = 1..T
//   r_i = y_i − f_{t−1}(x_i),   h_t = the least-squares regression tree of `growth` fitted to r
//   (sample weights s),   f_t = f_{t−1} + ν h_t.
// The line search of the general recipe is exact and trivial here: a least-squares tree's leaves
// are the means of the residuals they hold, so argmin_β Σ s_i (r_i − β h_t(x_i))² = 1 and the
// step is the shrinkage ν = learning_rate alone (1: the notes).
// Training loss (the callbacks' value and the history): the weighted mean squared error
// Σ s_i (y_i − f_t(x_i))² / Σ s_i. The fit ends early, converged (ValueTolerance), when the
// residuals are all 0; with tolerance > 0 also when the loss changes by at most tolerance·L_{t−1}
// in a round (Note [Stopping rules]). Callbacks through IterationLoop: x = (ν, …, ν, 0, …, 0), the
// weights of all num_estimators rounds (ν for each round run), so an on_end that puts an earlier
// round's x back (EarlyStopping) keeps the rounds of positive weight in it (at least one).
#pragma once

#include <cstdint>
#include <vector>

#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "models/tree/decision_tree_regressor.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

struct L2BoostRegressorOptions {
  Index num_estimators = 100;
  Scalar learning_rate = 1;
  bool fit_intercept = false;
  Scalar tolerance = 0;
  std::uint64_t seed = 0;
  TreeGrowthOptions growth = {.max_depth = 1};

  template <class V>
  void visit(V&& v) {
    v("num_estimators", num_estimators, "≥ 1, the rounds (weak learners) at most");
    v("learning_rate", learning_rate, "ν in (0, 1], the shrinkage of every round");
    v("fit_intercept", fit_intercept, "start from the weighted mean of y (else from 0, the notes)");
    v("tolerance", tolerance, "≥ 0: stop when a round changes the training loss by at most tolerance·L (0: off)");
    v("seed", seed, "round t's feature draws (max_features < d) use seeds derived from (seed, t)");
    v("growth", growth, "growth of every regression tree (default max_depth 1: stumps)");
  }
};

class L2BoostRegressor : public Estimator<L2BoostRegressor, L2BoostRegressorOptions> {
 public:
  static constexpr const char* kTypeName = "l2_boost_regressor";
  static constexpr std::uint32_t kModelVersion = tree::kTreeModelVersion;  // Note [Tree model layouts]

  // ValueError: num_estimators < 1, learning_rate outside (0, 1], tolerance < 0, growth options.
  explicit L2BoostRegressor(L2BoostRegressorOptions options = {});

  // X n×d finite (NaN allowed with growth.allow_missing), y n finite targets, sample_weight empty or n finite values ≥
  // 0 with a positive sum; ValueError / ShapeError otherwise.
  L2BoostRegressor& fit(const Tensor& X, const Vector& y, const Vector& sample_weight = Vector(),
                        const CallbackList& callbacks = {});
  L2BoostRegressor& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
    return fit(X, y, Vector(), callbacks);
  }

  Vector predict(const Tensor& X) const;                 // f_T(x)
  Scalar score(const Tensor& X, const Vector& y) const;  // R²
  std::vector<Vector> staged_predict(const Tensor& X) const;  // f_1 … f_T

  const std::vector<tree::Tree>& trees() const { return fitted_value(trees_); }
  Scalar intercept() const { return fitted_value(intercept_); }  // f_0
  // The fit's run: value = the final training loss, status, message, history (the loss of f_0
  // first). Not saved in files.
  const Result& fit_result() const { return fitted_value(result_); }

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(intercept_, trees_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Scalar intercept_ = 0;
  std::vector<tree::Tree> trees_;
  Result result_;
};

extern template class Estimator<L2BoostRegressor, L2BoostRegressorOptions>;

}  // namespace dagml
