// StandardScaler: centre each column and divide by its standard deviation.
//
//   fit:        μⱼ = (1/n) Σᵢ xᵢⱼ,  σⱼ² = (1/n) Σᵢ (xᵢⱼ − μⱼ)²   (population variance, two passes)
//               sⱼ = σⱼ, except sⱼ = 1 for a constant column (all values equal), so nothing is
//               ever divided by zero; a constant column has μⱼ equal to its value exactly
//   transform:  zᵢⱼ = (xᵢⱼ − μⱼ) / sⱼ
//   inverse:    xᵢⱼ = zᵢⱼ · sⱼ + μⱼ
// with_mean = false uses μⱼ = 0; with_std = false uses sⱼ = 1.
//
// Persistence (the data-layer convention, shared by MinMaxScaler and PolynomialFeatures): a
// model that owns a transformer writes its fitted state into the model's own file with
// save_to(writer, prefix) and restores it with load_from(reader, prefix); the entries are named
// "<prefix>mean", "<prefix>scale", … . Doubles are written with 17 significant digits, so the
// restored transformer is bitwise the fitted one.
#pragma once

#include <string>

#include "graph/tensor.h"
#include "models/io/model_file.h"

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

  // Writes the options and the fitted μ, σ², s as entries "<prefix>with_mean",
  // "<prefix>with_std", "<prefix>mean", "<prefix>variance", "<prefix>scale". Throws
  // NotFittedError before fit.
  void save_to(ModelWriter& writer, const std::string& prefix) const;
  // The fitted scaler saved by save_to under `prefix`. Throws ParseError for a missing entry and
  // ValueError if the entries are inconsistent (lengths differ, a non-finite μ or σ², a scale
  // that is not finite and positive).
  static StandardScaler load_from(const ModelReader& reader, const std::string& prefix);

 private:
  StandardScalerOptions options_;
  Vector mean_, variance_, scale_;
  bool fitted_ = false;
};

}  // namespace dagml
