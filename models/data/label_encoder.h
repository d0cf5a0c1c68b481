// LabelEncoder: map arbitrary class values (e.g. {−1, +1} or {3, 7, 9}) to dagml's class
// indices 0..K−1 and back.
//
//   fit:        classes = the distinct values of y, ascending (c₀ < c₁ < … < c_{K−1})
//   transform:  yᵢ = cₖ  ↦  k
//   inverse:    k  ↦  cₖ
#pragma once

#include "graph/tensor.h"

namespace dagml {

class LabelEncoder {
 public:
  // Learns the classes. Throws ValueError if y is empty or has a NaN or infinite entry.
  LabelEncoder& fit(const Vector& y);
  // Class indices 0..K−1. Throws ValueError naming the row of a value not seen at fit (or a
  // non-finite one), NotFittedError before fit.
  Vector transform(const Vector& y) const;
  Vector fit_transform(const Vector& y);
  // The original values. Throws ValueError for anything but integers 0..K−1.
  Vector inverse_transform(const Vector& labels) const;

  bool fitted() const { return fitted_; }
  const Vector& classes() const;  // c₀ < … < c_{K−1}; throws NotFittedError before fit
  Index num_classes() const;

 private:
  Vector classes_;
  bool fitted_ = false;
};

}  // namespace dagml
