// Softmax and log-softmax of each row, shifted by the row maximum so that nothing overflows.
#pragma once

#include <algorithm>
#include <cmath>

#include "graph/op.h"
#include "graph/packets.h"

namespace dagml {

Var softmax(Var x);      // n×k → n×k, rows sum to 1
Var log_softmax(Var x);  // n×k → n×k, x − logsumexp(x) per row

namespace detail {
// v ← exp(v) entry by entry, every entry through Eigen's vectorised exp in whole packets (the
// last one padded), so that an entry's value depends on nothing but the entry: Eigen's exp over a
// whole matrix leaves the entries after its last whole packet to the C library's exp, whose bits differ, and a
// row would then round differently by where it sits in a batch or on which rank it lives.
// Arguments below log(DBL_MIN) ≈ −708.4 give 0: Eigen's exp clamps them and returns a subnormal
// (5.6e-309 for exp(−1000)), and subnormal probabilities make every later product with them
// many times slower.
inline void exp_in_packets(Scalar* v, Index n) {
  using namespace Eigen::internal;
  const DoublePacket smallest_normal_log = pset1<DoublePacket>(-708.3964185322641);
  const auto exp_or_zero = [&](const DoublePacket& x) {
    return pselect(pcmp_lt(x, smallest_normal_log), pzero(x), pexp(x));
  };
  Index i = 0;
  for (; i + kDoubleLanes <= n; i += kDoubleLanes) pstoreu(v + i, exp_or_zero(ploadu<DoublePacket>(v + i)));
  if (i == n) return;
  alignas(64) Scalar tail[kDoubleLanes] = {};
  std::copy(v + i, v + n, tail);
  pstore(tail, exp_or_zero(pload<DoublePacket>(tail)));
  std::copy(tail, tail + (n - i), v + i);
}

// out = exp(x − m 1ᵀ), m the maximum of each row (out may be x), and m itself when row_max is
// given. The exponential runs over the whole matrix at once so that every entry goes through
// Eigen's vectorised exp: a row of a few entries exponentiated alone leaves most of them to the
// scalar libm exp.
inline void exp_minus_row_max(const Tensor& x, Tensor& out, Vector* row_max = nullptr) {
  out.resize(x.rows(), x.cols());
  if (row_max) row_max->resize(x.rows());
  for (Index i = 0; i < x.rows(); ++i) {
    const Scalar m = x.row(i).maxCoeff();
    out.row(i) = x.row(i).array() - m;
    if (row_max) (*row_max)(i) = m;
  }
  exp_in_packets(out.data(), out.size());
}

// p = softmax of each row of x (p may not be x): exp(x − m) by exp_minus_row_max, each row's sum s
// added in column order whatever the row's place in memory (Eigen's row-wise sum groups a row's
// entries by their alignment), the row multiplied by 1/s. With log_sum_exp, also m + log s per
// row, by the C library's log (the same bits in any place). The softmax, cross-entropy, boosting
// and mixture code all normalise rows here.
inline void softmax_rows(const Tensor& x, Tensor& p, Vector* log_sum_exp = nullptr) {
  exp_minus_row_max(x, p, log_sum_exp);  // log_sum_exp holds the row maxima m until the end
  const Index k = p.cols();
  for (Index i = 0; i < p.rows(); ++i) {
    Scalar* row = p.data() + i * k;
    Scalar s = 0;
    for (Index j = 0; j < k; ++j) s += row[j];
    const Scalar inverse = 1 / s;
    for (Index j = 0; j < k; ++j) row[j] *= inverse;
    if (log_sum_exp) (*log_sum_exp)(i) += std::log(s);
  }
}
}  // namespace detail

}  // namespace dagml
