// StandardScaler: centre each column and divide by its standard deviation.
//
//   fit:        μⱼ = (1/n) Σᵢ xᵢⱼ,  σⱼ² = (1/n) Σᵢ (xᵢⱼ − μⱼ)²   (population variance, two passes)
//               sⱼ = σⱼ, except sⱼ = 1 for a constant column (all values equal), so nothing is
//               ever divided by zero; a constant column has μⱼ equal to its value exactly
//   transform:  zᵢⱼ = (xᵢⱼ − μⱼ) / sⱼ
//   inverse:    xᵢⱼ = zᵢⱼ · sⱼ + μⱼ
// with_mean = false uses μⱼ = 0; with_std = false uses sⱼ = 1.
#pragma once

#include "graph/tensor.h"

namespace dagml {

struct StandardScalerOptions {
  bool with_mean = true;
  bool with_std = true;
};

class StandardScaler {
 public:
  explicit StandardScaler(const StandardScalerOptions& options = {}) : options_(options) {}

  // Learns μ, σ² and s from X (n × d, n ≥ 1). Throws ValueError if X is empty or has a NaN or
  // infinite entry (naming its row and column).
  StandardScaler& fit(const Tensor& X);
  // Z = (X − μ) / s, row by row. X must have the d columns seen at fit (ShapeError otherwise)
  // and finite entries (ValueError). Throws NotFittedError before fit.
  Tensor transform(const Tensor& X) const;
  Tensor fit_transform(const Tensor& X);
  // X = Z · s + μ; the same checks as transform.
  Tensor inverse_transform(const Tensor& Z) const;

  bool fitted() const { return fitted_; }
  Index num_features() const;      // d; throws NotFittedError before fit
  const Vector& mean() const;      // μ (zeros if with_mean is false), length d
  const Vector& variance() const;  // σ² (population), length d, 0 for constant columns
  const Vector& scale() const;     // s, length d

 private:
  StandardScalerOptions options_;
  Vector mean_, variance_, scale_;
  bool fitted_ = false;
};

}  // namespace dagml
