// The logistic function and the softplus tail on whole Eigen arrays, shared by the graph ops
// sigmoid and binary_cross_entropy and by gradient boosting's built-in logistic loss, which must
// round exactly as those ops do (Note [Graph losses] in models/ensemble/graph_loss.h).
//
// Note [Vectorised logistic functions]
// σ(z) = 1/(1 + e^{−z}) for z ≥ 0 and e^{z}/(1 + e^{z}) for z < 0 (nothing overflows), both from
// e = e^{−|z|}: one exponential per entry through Eigen's vectorised exp, then a select.
// log1p(e^{−|z|}), the tail of softplus(z) = max(z, 0) + log1p(e^{−|z|}), goes through the
// vectorised log (Eigen has no vectorised log1p for double): with u = e^{−|z|} and w = 1 + u
// rounded, log1p(u) = log w − ((w − 1) − u)/w, the second term undoing the rounding of 1 + u
// (when u < ε/2, w = 1 and the result is u). Scalar std::exp and std::log1p per entry had been a
// tenth of a million-row boosting fit.
#pragma once

#include <Eigen/Core>

namespace dagml::detail {

// out = σ(z), entry by entry (z and out arrays of one shape; out may not alias z).
template <class Z, class Out>
void logistic(const Z& z, Out&& out) {
  out = (-z.abs()).exp();
  out = (z >= 0).select(1 / (1 + out), out / (1 + out));
}

// log1p(e^{−|z|}) as an expression.
template <class Z>
auto log1p_exp_minus_abs(const Z& z) {
  const auto u = (-z.abs()).exp();
  const auto w = 1 + u;
  return w.log() - ((w - 1) - u) / w;
}

}  // namespace dagml::detail
