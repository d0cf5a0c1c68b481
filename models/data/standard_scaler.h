// StandardScaler: centre each column and divide by its standard deviation.
//
//   fit:        μⱼ = (1/n) Σᵢ xᵢⱼ,  σⱼ² = (1/n) Σᵢ (xᵢⱼ − μⱼ)²   (population variance, two passes)
//               sⱼ = σⱼ, except sⱼ = 1 for a constant column (all values equal), so nothing is
//               ever divided by zero; a constant column has μⱼ equal to its value exactly
//   transform:  zᵢⱼ = (xᵢⱼ − μⱼ) / sⱼ
//   inverse:    xᵢⱼ = zᵢⱼ · sⱼ + μⱼ
// with_mean = false uses μⱼ = 0; with_std = false uses sⱼ = 1.
//
// Persistence: an estimator (models/io/estimator.h) with its own model file, and a part of any
// model that owns one (PolynomialRegression serialises its scaler inside its own file). Doubles
// are stored bitwise, so the restored transformer is bitwise the fitted one.
#pragma once

#include <string>

#include "graph/tensor.h"
#include "models/io/estimator.h"

namespace dagml {

// σⱼ² = (1/n) Σᵢ (xᵢⱼ − μⱼ)² of every column of X (n ≥ 1 rows), by two passes over the rows: X
// is row-major, so this needs neither a centred copy nor column sums with a stride of d. The
// scale of the tolerances that follow the data (KMeans's, GaussianNB's var_smoothing).
Eigen::RowVectorXd column_variances(const Tensor& X);

struct StandardScalerOptions {
  bool with_mean = true;
  bool with_std = true;

  template <class V>
  void visit(V&& v) {
    v("with_mean", with_mean, "subtract the column means");
    v("with_std", with_std, "divide by the column standard deviations");
  }
};

class StandardScaler : public Estimator<StandardScaler, StandardScalerOptions> {
 public:
  static constexpr const char* kTypeName = "standard_scaler";

  explicit StandardScaler(const StandardScalerOptions& options = {}) : Estimator(options) {}

  // Learns μ, σ² and s from X (n × d, n ≥ 1). Throws ValueError if X is empty or has a NaN or
  // infinite entry (naming its row and column).
  StandardScaler& fit(const Tensor& X);
  // Z = (X − μ) / s, row by row. X must have the d columns seen at fit (ShapeError otherwise)
  // and finite entries (ValueError). Throws NotFittedError before fit.
  Tensor transform(const Tensor& X) const;
  Tensor fit_transform(const Tensor& X);
  // X = Z · s + μ; the same checks as transform.
  Tensor inverse_transform(const Tensor& Z) const;

  const Vector& mean() const { return fitted_value(mean_); }          // μ (zeros if with_mean is false), length d
  const Vector& variance() const { return fitted_value(variance_); }  // σ² (population), 0 for constant columns
  const Vector& scale() const { return fitted_value(scale_); }        // s, length d

  // A loaded scaler must have μ, σ², s of length d, finite, and s > 0 (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(mean_, variance_, scale_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Vector mean_, variance_, scale_;
};

extern template class Estimator<StandardScaler, StandardScalerOptions>;

}  // namespace dagml
