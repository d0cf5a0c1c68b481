// MinMaxScaler: map each column's training range [mⱼ, Mⱼ] onto [lo, hi].
//
//   fit:        mⱼ = minᵢ xᵢⱼ,  Mⱼ = maxᵢ xᵢⱼ,  sⱼ = (hi − lo) / rⱼ  with rⱼ = Mⱼ − mⱼ, or rⱼ = 1
//               for a constant column (Mⱼ = mⱼ), so nothing is ever divided by zero
//   transform:  zᵢⱼ = lo + (xᵢⱼ − mⱼ) · sⱼ    (a constant column maps to lo at its value)
//   inverse:    xᵢⱼ = mⱼ + (zᵢⱼ − lo) / sⱼ
// Values outside the training range map outside [lo, hi]; nothing is clipped.
// Persistence: as StandardScaler (models/data/standard_scaler.h).
#pragma once

#include <string>

#include "graph/tensor.h"
#include "models/io/estimator.h"

namespace dagml {

struct MinMaxScalerOptions {
  double lo = 0.0;  // the feature range [lo, hi]; lo < hi, both finite
  double hi = 1.0;

  template <class V>
  void visit(V&& v) {
    v("lo", lo, "the low end of the feature range; finite, < hi");
    v("hi", hi, "the high end of the feature range; finite");
  }
};

class MinMaxScaler : public Estimator<MinMaxScaler, MinMaxScalerOptions> {
 public:
  static constexpr const char* kTypeName = "min_max_scaler";

  // Throws ValueError unless lo < hi and both are finite.
  explicit MinMaxScaler(const MinMaxScalerOptions& options = {});

  // Learns m, M and s from X (n × d, n ≥ 1). Throws ValueError if X is empty or has a NaN or
  // infinite entry (naming its row and column).
  MinMaxScaler& fit(const Tensor& X);
  // Z = lo + (X − m) · s, row by row. X must have the d columns seen at fit (ShapeError
  // otherwise) and finite entries (ValueError). Throws NotFittedError before fit.
  Tensor transform(const Tensor& X) const;
  Tensor fit_transform(const Tensor& X);
  // X = m + (Z − lo) / s; the same checks as transform.
  Tensor inverse_transform(const Tensor& Z) const;

  const Vector& data_min() const { return fitted_value(min_); }  // m, length d
  const Vector& data_max() const { return fitted_value(max_); }  // M, length d
  const Vector& scale() const { return fitted_value(scale_); }    // s, length d

  // A loaded scaler must have m, M, s of length d, finite, and s > 0 (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(min_, max_, scale_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Vector min_, max_, scale_;
};

extern template class Estimator<MinMaxScaler, MinMaxScalerOptions>;

}  // namespace dagml
