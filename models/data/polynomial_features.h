// PolynomialFeatures: every monomial of degree ≤ p in the ℓ input columns.
//
// Count: there are C(ℓ+p, ℓ) = (ℓ+p)! / (ℓ! p!) monomials x₁^α₁ ⋯ x_ℓ^α_ℓ with
// α₁ + … + α_ℓ ≤ p, the constant included (stars and bars: p stars and ℓ bars, the stars left
// after the last bar standing for the missing degree). num_polynomial_features computes it
// exactly in 64 bits.
//
// Order (graded lexicographic): degree 0, then 1, …, then p; within degree k the monomials
// x_{i₁} x_{i₂} ⋯ x_{iₖ} with i₁ ≤ i₂ ≤ … ≤ iₖ, in lexicographic order of (i₁, …, iₖ). For ℓ = 2,
// p = 3 (writing x, y for x₀, x₁):
//   1, x, y, x², xy, y², x³, x²y, xy², y³
//
// Kernel scaling: the polynomial kernel (xᵀz + 1)^p expands by the multinomial theorem into
//   (xᵀz + 1)^p = Σ_{|α| ≤ p} p! / (α₁! ⋯ α_ℓ! (p − |α|)!) · x^α z^α,
// so with kernel_scaling each monomial is multiplied by √(p! / (α₁! ⋯ α_ℓ! (p − |α|)!)) and then
// φ(x)ᵀφ(z) = (xᵀz + 1)^p (up to rounding). For ℓ = p = 2 this is the notes' map
//   φ(x) = [1, √2 x₁, √2 x₂, x₁², √2 x₁x₂, x₂²]   (in dagml's order).
// Without the constant (include_bias = false) the identity becomes (xᵀz + 1)^p − 1.
//
// There is no inverse_transform: the map is not invertible in general (the degree-1 columns,
// divided by their scale factors, are the inputs).
//
// Persistence: as StandardScaler (models/data/standard_scaler.h). The fitted state is a function
// of the options and ℓ alone, so those are what is saved; loading rebuilds the monomial list with
// the code fit uses, giving the same transform bitwise.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "graph/tensor.h"
#include "models/io/estimator.h"

namespace dagml {

// C(num_inputs + degree, num_inputs), exactly. Throws ValueError if an argument is negative or
// the count does not fit in 64 bits.
std::uint64_t num_polynomial_features(Index num_inputs, Index degree);

struct PolynomialFeaturesOptions {
  Index degree = 2;             // p ≥ 0
  bool include_bias = true;     // output the constant monomial 1 (the first column)
  bool kernel_scaling = false;  // the √-scaled map with φ(x)ᵀφ(z) = (xᵀz + 1)^p
  Index max_output_features = Index{1} << 24;  // fit refuses a larger map (memory guard)

  template <class V>
  void visit(V&& v) {
    v("degree", degree, "p ≥ 0, the largest total degree");
    v("include_bias", include_bias, "output the constant monomial 1 first");
    v("kernel_scaling", kernel_scaling, "√-scaled monomials, so that φ(x)ᵀφ(z) = (xᵀz + 1)^p");
    v("max_output_features", max_output_features, "fit refuses a larger map (memory guard)");
  }
};

class PolynomialFeatures : public Estimator<PolynomialFeatures, PolynomialFeaturesOptions> {
 public:
  static constexpr const char* kTypeName = "polynomial_features";

  // Throws ValueError if degree < 0, max_output_features < 1, or degree = 0 without the bias
  // (no features at all).
  explicit PolynomialFeatures(const PolynomialFeaturesOptions& options = {});

  // Learns ℓ = X.cols() and builds the monomial list. Throws ValueError if X is empty, has a NaN
  // or infinite entry, or the map would have more than max_output_features columns.
  PolynomialFeatures& fit(const Tensor& X);
  // n × num_output_features(): row i is φ(xᵢ). X must have ℓ columns (ShapeError otherwise) and
  // finite entries (ValueError). Throws NotFittedError before fit.
  Tensor transform(const Tensor& X) const;
  Tensor fit_transform(const Tensor& X);

  Index num_input_features() const { return num_features(); }  // ℓ
  Index num_output_features() const;  // C(ℓ+p, ℓ), minus 1 without the bias
  // num_output_features() × ℓ: row k holds the exponents α of output column k.
  Eigen::Matrix<int, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> powers() const;
  // The factor of each output column: √(multinomial) with kernel_scaling, else 1.
  const Vector& coefficients() const;
  // Names like "1", "x0", "x0^2 x1" built from input_names (default x0, x1, …); throws
  // ShapeError unless input_names is empty or has ℓ entries.
  std::vector<std::string> feature_names(const std::vector<std::string>& input_names = {}) const;

  // The options and ℓ; loading rebuilds the map (ValueError for one larger than max_output_features).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    if constexpr (Archive::is_loading::value) rebuild_loaded();
  }

 private:
  // The options' checks, then build(ℓ) unless the map would exceed the file allocation limit
  // (LimitError): ℓ and the degree come from a file of a few bytes.
  void rebuild_loaded();
  // Builds the monomial list and coefficients for ℓ inputs (fit after its input checks).
  void build(Index num_inputs);

  // Monomial k (over all monomials, the constant at k = 0) is monomial parent_[k] times
  // x_{var_[k]}; var_[k] is its largest variable index. parent_[0] = var_[0] = −1.
  std::vector<Index> parent_;
  std::vector<Index> var_;
  Vector coefficients_;  // of the output columns
};

extern template class Estimator<PolynomialFeatures, PolynomialFeaturesOptions>;

}  // namespace dagml
