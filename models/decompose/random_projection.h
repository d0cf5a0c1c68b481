// Random projections (notes 004 §1.1's dimensionality reduction, the Johnson–Lindenstrauss
// lemma): z = R x with a random k×d matrix R drawn once at fit, independent of the data. What the
// Gaussian and sparse projections share: the target dimension, the draw's seed, transform and the
// model-file form. The draw itself is each estimator's (gaussian_random_projection.h,
// sparse_random_projection.h).
//
// Note [Johnson–Lindenstrauss dimension]
// For n points and 0 < ε < 1, a random projection to
//   k ≥ 4 ln n / (ε²/2 − ε³/3)
// dimensions keeps every pairwise squared distance within a factor 1 ± ε with positive probability
// (Dasgupta & Gupta 2003; scikit-learn's johnson_lindenstrauss_min_dim, which rounds down with
// int()). num_components = 0 asks for this k from the n rows given to fit; a k above d is then a
// ValueError (the projection would not reduce anything), as in scikit-learn.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "graph/error.h"
#include "graph/tensor.h"
#include "models/data/validate.h"
#include "models/io/estimator.h"

namespace dagml {

// ⌊4 ln n / (ε²/2 − ε³/3)⌋ (Note [Johnson–Lindenstrauss dimension]); ValueError unless n ≥ 1 and
// 0 < ε < 1.
Index johnson_lindenstrauss_min_dim(Index num_samples, Scalar eps);

class ModelInputArchive;

namespace detail {
// ValueError naming `who` unless num_components ≥ 0 and 0 < eps < 1.
void check_projection_options(Index num_components, Scalar eps, const char* who);
// The k of Note [Johnson–Lindenstrauss dimension] for n×d data (num_components, or the JL
// bound when it is 0); ValueError when k > d.
Index projection_dimension(Index num_components, Scalar eps, Index n, Index d, const char* who);
// ParseError (through the archive) unless the loaded components are k×d and finite, k ≥ 1.
void check_loaded_projection(const ModelInputArchive& ar, const Tensor& components, Index d, const char* who);
}  // namespace detail

// The base of the random projections: Derived supplies `Tensor draw(Index k, Index d,
// std::mt19937_64& rng) const` and options with num_components, eps and seed.
template <class Derived, class Options>
class RandomProjection : public Estimator<Derived, Options> {
 public:
  // X n×d finite (ValueError otherwise); only its shape is used: R is drawn from std::mt19937_64
  // seeded with `seed`, entry by entry, row after row.
  Derived& fit(const Tensor& X) {
    check_fit_data(X, Derived::kTypeName);
    const auto& o = this->options_;
    const Index d = X.cols();
    const Index k = detail::projection_dimension(o.num_components, o.eps, X.rows(), d, Derived::kTypeName);
    std::mt19937_64 rng(o.seed);
    components_ = static_cast<const Derived&>(*this).draw(k, d, rng);
    this->set_fitted(d);
    return static_cast<Derived&>(*this);
  }
  Tensor fit_transform(const Tensor& X) { return fit(X).transform(X); }
  // n×k rows (R x_i)ᵀ.
  Tensor transform(const Tensor& X) const {
    this->check_input(X);
    return X * components_.transpose();
  }
  const Tensor& components() const { return this->fitted_value(components_); }  // R, k×d
  Index num_components() const { return components().rows(); }

  // The options and R.
  template <class Archive>
  void serialize(Archive& ar) {
    this->serialize_estimator(ar);
    ar(components_);
    if constexpr (Archive::is_loading::value) {
      if (this->fitted()) detail::check_loaded_projection(ar, components_, this->num_features(), Derived::kTypeName);
    }
  }

 protected:
  explicit RandomProjection(Options options) : Estimator<Derived, Options>(std::move(options)) {
    detail::check_projection_options(this->options_.num_components, this->options_.eps, Derived::kTypeName);
  }

 private:
  Tensor components_;
};

}  // namespace dagml
