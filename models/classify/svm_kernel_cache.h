// The kernel matrix of an SVM dual, Q_ij = y_i y_j k(x_i, x_j), served row by row to the SMO
// solver (models/classify/smo_solver.h).
//
// Note [SVM kernel cache]
// When the whole n×n matrix fits in the cache budget it is computed once, with the kernel's
// parallel, deterministic Gram product (models/kernel/kernel.h): one matrix product is far faster
// than n row-by-row evaluations. Otherwise rows are computed on demand (kernel.gram of one row
// against X) and kept in a least-recently-used cache of ⌊budget / (8 n)⌋ rows (at least 2, so
// that the two rows of one SMO step are both resident). With K > 2 classes, SVC shares kernel
// blocks between its one-vs-one pairs (rows grouped by class): the whole Gram matrix when it fits,
// else each class's own block K_aa (when those fit in half the budget), so that pair (a, b) only
// computes its cross block K_ab and assembles Q = [[K_aa, −K_ab], [−K_abᵀ, K_bb]]. Row values agree between the two
// modes up to rounding (a product's summation order depends on its blocking).
#pragma once

#include <list>
#include <vector>

#include "graph/tensor.h"
#include "models/kernel/kernel.h"

namespace dagml {

class SvmKernelCache {
 public:
  // X: n×d training rows; y: n signs ±1; cache_bytes: the budget (> 0).
  SvmKernelCache(const Kernel& kernel, const Tensor& X, const Vector& y, double cache_bytes);
  // A ready n×n matrix Q (already scaled by the signs), held whole.
  explicit SvmKernelCache(Tensor Q);

  Index size() const { return diag_.size(); }
  // Row i of Q (length n). The pointer stays valid until the second following call to row().
  const Scalar* row(Index i);
  // Q_ii.
  const Vector& diag() const { return diag_; }
  // True when the whole matrix is held.
  bool full() const { return full_.size() > 0; }

 private:
  const Kernel* kernel_ = nullptr;
  const Tensor* X_ = nullptr;
  Vector y_, diag_;
  Tensor full_;                     // n×n when it fits, else empty
  Tensor slots_;                    // capacity × n cached rows (LRU mode)
  std::vector<Index> slot_of_row_;  // −1 when the row is not cached
  std::vector<Index> row_of_slot_;
  std::list<Index> lru_;  // slots, most recently used first
  std::vector<std::list<Index>::iterator> lru_pos_;
};

}  // namespace dagml
