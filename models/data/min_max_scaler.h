// MinMaxScaler: map each column's training range [mⱼ, Mⱼ] onto [lo, hi].
//
//   fit:        mⱼ = minᵢ xᵢⱼ,  Mⱼ = maxᵢ xᵢⱼ,  sⱼ = (hi − lo) / rⱼ  with rⱼ = Mⱼ − mⱼ, or rⱼ = 1
//               for a constant column (Mⱼ = mⱼ), so nothing is ever divided by zero
//   transform:  zᵢⱼ = lo + (xᵢⱼ − mⱼ) · sⱼ    (a constant column maps to lo at its value)
//   inverse:    xᵢⱼ = mⱼ + (zᵢⱼ − lo) / sⱼ
// Values outside the training range map outside [lo, hi]; nothing is clipped.
// Persistence: save_to / load_from, as StandardScaler (models/data/standard_scaler.h).
#pragma once

#include <string>

#include "graph/tensor.h"
#include "models/io/model_file.h"

namespace dagml {

struct MinMaxScalerOptions {
  double lo = 0.0;  // the feature range [lo, hi]; lo < hi, both finite
  double hi = 1.0;
};

class MinMaxScaler {
 public:
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

  bool fitted() const { return fitted_; }
  Index num_features() const;      // d; throws NotFittedError before fit
  const Vector& data_min() const;  // m, length d
  const Vector& data_max() const;  // M, length d
  const Vector& scale() const;     // s, length d

  // Writes the options and the fitted m, M, s as entries "<prefix>lo", "<prefix>hi",
  // "<prefix>data_min", "<prefix>data_max", "<prefix>scale". Throws NotFittedError before fit.
  void save_to(ModelWriter& writer, const std::string& prefix) const;
  // The fitted scaler saved by save_to under `prefix`, bitwise. Throws ParseError for a missing
  // entry and ValueError if the entries are inconsistent (bad range, lengths differ, a non-finite
  // m or M, a scale that is not finite and positive).
  static MinMaxScaler load_from(const ModelReader& reader, const std::string& prefix);

 private:
  MinMaxScalerOptions options_;
  Vector min_, max_, scale_;
  bool fitted_ = false;
};

}  // namespace dagml
