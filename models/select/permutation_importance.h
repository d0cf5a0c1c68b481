// Permutation importance (Breiman 2001, §10; scikit-learn's sklearn.inspection.
// permutation_importance) for any fitted model: how much a score drops when one feature's column
// is shuffled, which breaks its link with the target while keeping its distribution. Not in the
// notes (notes 004 L806 has only the heading "variable importance"); random forests' impurity
// importances are the other kind (models/ensemble/forest.h).
//
// Note [Permutation importance]
// With s(X) the score of the model on X (higher is better) and X^{(j,r)} the data with column j
// permuted by π_{j,r}:
//   importance(j, r) = s(X) − s(X^{(j,r)}),   mean_j = (1/R) Σ_r importance(j, r),
//   std_j = √((1/R) Σ_r (importance(j, r) − mean_j)²)    (population std, as numpy and scikit-learn).
// π_{j,r} = random_permutation(n, derive_seed(derive_seed(seed, j), r)) (Note [Portable
// randomness] in graph/random.h): it depends only on (seed, j, r), not on num_repeats nor on the
// other features. Features are scored in parallel (TBB, one task per feature, each into its own
// row), so the result is bitwise the same for any thread count. A feature the model never reads
// gets exactly 0; the scikit-learn values differ only by the permutations drawn (its RNG).
//
//   RandomForestClassifier forest;  forest.fit(X, y);
//   PermutationImportance p = permutation_importance(forest, X_test, y_test, {.num_repeats = 10});
//   p.mean(j) ± p.std(j)
#pragma once

#include <cstdint>
#include <functional>
#include <type_traits>

#include "graph/tensor.h"

namespace dagml {

struct PermutationImportanceOptions {
  Index num_repeats = 5;    // R ≥ 1 permutations per feature
  std::uint64_t seed = 0;   // the permutations (Note [Permutation importance])
};

struct PermutationImportance {
  Scalar baseline = 0;  // s(X)
  Tensor importances;   // d × R: s(X) − s(X^{(j,r)})
  Vector mean, std;     // d each, over the repeats
};

// The importances of the d columns of X (n×d, n ≥ 1, finite) for `score`, which maps a data set
// of X's shape to a score (higher is better) and is called from several threads at once.
// ValueError for num_repeats < 1, an empty or non-finite X.
PermutationImportance permutation_importance(const std::function<Scalar(const Tensor&)>& score, const Tensor& X,
                                             const PermutationImportanceOptions& options = {});

// For a fitted model with score(X, y) (accuracy, R², …; any dagml estimator or AnyEstimator).
template <class Model>
PermutationImportance permutation_importance(const Model& model, const Tensor& X, const Vector& y,
                                             const PermutationImportanceOptions& options = {}) {
  return permutation_importance([&](const Tensor& Xp) -> Scalar { return model.score(Xp, y); }, X, options);
}

// With a score of the model's predictions chosen by the caller: metric(y, predict(X)), higher is
// better (pass the negated error for an error metric, e.g. −mean_squared_error).
template <class Model, class Metric>
  requires std::is_invocable_r_v<Scalar, Metric, const Vector&, const Vector&>
PermutationImportance permutation_importance(const Model& model, const Tensor& X, const Vector& y, Metric metric,
                                             const PermutationImportanceOptions& options = {}) {
  return permutation_importance(
      [&](const Tensor& Xp) -> Scalar {
        const auto prediction = model.predict(Xp);
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(prediction)>, Vector>) {
          return metric(y, prediction);
        } else {
          return metric(y, Vector(prediction.col(0)));  // AnyEstimator: an n×1 prediction
        }
      },
      X, options);
}

}  // namespace dagml
