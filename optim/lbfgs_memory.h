// Internal: the curvature memory shared by L-BFGS (lbfgs.cpp) and its box-constrained variant
// (projected_lbfgs.cpp): the last m pairs s = x_{k+1} − x_k, y = ∇f(x_{k+1}) − ∇f(x_k), and the
// two-loop recursion for p = −H g (Nocedal & Wright, Algorithm 7.4).
#pragma once

#include <deque>
#include <vector>

#include "graph/tensor.h"

namespace dagml::detail {

class LbfgsMemory {
 public:
  explicit LbfgsMemory(Index capacity) : capacity_(capacity) {}

  // p = −H g over the kept pairs (oldest first), with H⁰ = (sᵀy / yᵀy) I from the newest pair.
  void direction(const Vector& g, Vector& p) {
    p = -g;
    const std::size_t m = pairs_.size();
    a_.resize(m);
    for (std::size_t i = m; i-- > 0;) {
      a_[i] = pairs_[i].rho * pairs_[i].s.dot(p);
      p.noalias() -= a_[i] * pairs_[i].y;
    }
    if (m > 0) p *= pairs_.back().s.dot(pairs_.back().y) / pairs_.back().y.squaredNorm();
    for (std::size_t i = 0; i < m; ++i) {
      const Scalar b = pairs_[i].rho * pairs_[i].y.dot(p);
      p.noalias() += (a_[i] - b) * pairs_[i].s;
    }
  }

  // Keeps the pair when sᵀy > 0 by a margin (which keeps H positive definite); the oldest goes
  // when the memory is full.
  void remember(Vector s, Vector y) {
    const Scalar sy = s.dot(y);
    if (!(sy > 1e-12 * s.norm() * y.norm())) return;
    pairs_.push_back({std::move(s), std::move(y), 1 / sy});
    if (static_cast<Index>(pairs_.size()) > capacity_) pairs_.pop_front();
  }

  bool empty() const { return pairs_.empty(); }
  void clear() { pairs_.clear(); }

 private:
  struct Pair {
    Vector s, y;
    Scalar rho;  // 1 / sᵀy
  };
  Index capacity_;
  std::deque<Pair> pairs_;
  std::vector<Scalar> a_;
};

}  // namespace dagml::detail
