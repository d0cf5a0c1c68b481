// Matching pursuit and orthogonal matching pursuit: greedy k-sparse least squares.
//
//   MatchingPursuit omp({.num_nonzero = 3});                     // orthogonal by default
//   omp.fit(X, y);
//   const std::vector<Index>& chosen = omp.support();            // in order of selection
#pragma once

#include <string>
#include <vector>

#include "models/linear/linear_model.h"

namespace dagml {

struct MatchingPursuitOptions {
  Index num_nonzero = 1;      // k ≥ 1: the sparsity ‖w‖₀ to reach (k ≤ d, checked at fit)
  bool orthogonal = true;     // OMP (least-squares refit on the support) or plain MP
  bool fit_intercept = true;  // centre X and y; the intercept is never counted in k
  // Plain MP may re-select a column without growing ‖w‖₀; it stops after this many steps.
  Index max_iterations = 1000;
  // Both stop early when ‖r‖² ≤ tolerance · ‖y‖² (y is then explained; nothing is left to pick).
  Scalar tolerance = 1e-14;

  template <class V>
  void visit(V&& v) {
    v("num_nonzero", num_nonzero, "k ≥ 1, the sparsity ‖w‖₀ to reach");
    v("orthogonal", orthogonal, "OMP (least-squares refit on the support) or plain MP");
    v("fit_intercept", fit_intercept, "centre X and y; the intercept is not counted in k");
    v("max_iterations", max_iterations, "≥ 1 steps (plain MP may re-select a column)");
    v("tolerance", tolerance, "stop when ‖r‖² ≤ tolerance · ‖y‖²");
  }
};

// Algorithms (notes 000 §2.6), from w = 0, r = y, on the (centred) data:
//   i = argmax_j |⟨r, x_j⟩| / ‖x_j‖              (the column that best explains r; zero columns
//                                                  are never picked; ties go to the lowest j)
//   MP:  w_i += ⟨r, x_i⟩ / ‖x_i‖²,  r = y − X w   (‖r‖² never increases)
//   OMP: S = S ∪ {i},  w_S = argmin ‖y − X_S w_S‖² (QR),  r = y − X w   (r ⟂ every x_j, j ∈ S)
// until ‖w‖₀ = k. OMP's w is the least-squares fit on its support.
class MatchingPursuit : public LinearRegressor<MatchingPursuit, MatchingPursuitOptions> {
 public:
  static constexpr const char* kTypeName = "matching_pursuit";

  // Throws ValueError if num_nonzero < 1, max_iterations < 1 or tolerance < 0.
  explicit MatchingPursuit(const MatchingPursuitOptions& options = {});

  // X n×d, y length n. Throws ValueError (empty, NaN, k > d) or ShapeError (lengths).
  MatchingPursuit& fit(const Tensor& X, const Vector& y);

  // The selected columns in the order they were first chosen.
  const std::vector<Index>& support() const { return fitted_value(support_); }
  // ‖r‖² after each step (the first entry is ‖y‖², before any step).
  const std::vector<Scalar>& residual_history() const { return fitted_value(residual_history_); }

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_linear(ar);
    ar(support_, residual_history_);
  }

 private:
  std::vector<Index> support_;
  std::vector<Scalar> residual_history_;
};

extern template class Estimator<MatchingPursuit, MatchingPursuitOptions>;

}  // namespace dagml
