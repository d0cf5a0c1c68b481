#include "models/classify/svm_kernel_cache.h"

#include <algorithm>

#include "graph/error.h"

namespace dagml {

SvmKernelCache::SvmKernelCache(const Kernel& kernel, const Tensor& X, const Vector& y, double cache_bytes)
    : kernel_(&kernel), X_(&X), y_(y) {
  const Index n = X.rows();
  const double row_bytes = 8.0 * static_cast<double>(n);
  if (row_bytes * static_cast<double>(n) <= cache_bytes) {
    full_ = kernel.gram(X);
    full_.array().colwise() *= y.array();
    full_.array().rowwise() *= y.transpose().array();
    diag_ = full_.diagonal();
    return;
  }
  const Index capacity = std::max<Index>(2, static_cast<Index>(cache_bytes / row_bytes));
  slots_.resize(capacity, n);
  slot_of_row_.assign(n, -1);
  row_of_slot_.assign(capacity, -1);
  lru_pos_.resize(capacity);
  for (Index s = 0; s < capacity; ++s) lru_pos_[s] = lru_.insert(lru_.end(), s);
  diag_.resize(n);
  for (Index i = 0; i < n; ++i) diag_(i) = kernel(X.row(i).transpose(), X.row(i).transpose());
}

SvmKernelCache::SvmKernelCache(Tensor Q) : full_(std::move(Q)) { diag_ = full_.diagonal(); }

const Scalar* SvmKernelCache::row(Index i) {
  if (full()) return full_.row(i).data();
  Index s = slot_of_row_[i];
  if (s < 0) {
    s = lru_.back();  // evict the least recently used row
    if (row_of_slot_[s] >= 0) slot_of_row_[row_of_slot_[s]] = -1;
    const Tensor xi = X_->row(i);
    slots_.row(s) = kernel_->gram(xi, *X_).row(0);
    slots_.row(s).array() *= y_(i) * y_.transpose().array();
    slot_of_row_[i] = s;
    row_of_slot_[s] = i;
  }
  lru_.splice(lru_.begin(), lru_, lru_pos_[s]);
  return slots_.row(s).data();
}

}  // namespace dagml
