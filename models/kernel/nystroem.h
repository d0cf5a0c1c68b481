// The Nyström approximation of a kernel (notes 004 §3.4, large-scale approximations, L1310–1316;
// Williams & Seeger 2001): with m landmark points Z, a subset of the training rows, the Gram
// matrix is approximated by
//   K̃ = K_xz K_zz⁻¹ K_zx = Q Qᵀ,   Q = K_xz K_zz^{-1/2},
// so the m-dimensional feature map x ↦ K(x, Z) K_zz^{-1/2} stands in for the kernel in any linear
// model, at O(nm) kernel evaluations and O(nm²) time instead of O(n²) and O(n³). With every
// training row a landmark (m = n) it reproduces K exactly (K K⁻¹ K = K); K̃ ≼ K otherwise (the
// residual K − K̃ is the Schur complement, positive semi-definite). Any kernel works, including
// sums and custom ones. K_zz is the training Gram matrix gram(Z) and K_xz is gram(X, Z), so white
// noise is on the diagonal of K_zz only (as scikit-learn's Nystroem with a WhiteKernel): it acts as
// a ridge on K_zz, and K̃ then falls short of K even at m = n.
//
// Note [Nyström inverse square root]
// K_zz^{-1/2} = V diag(max(λᵢ, 1e-12)^{-1/2}) Vᵀ from the symmetric eigendecomposition
// K_zz = V diag(λ) Vᵀ. The floor 1e-12 is scikit-learn's (it takes the SVD U S Vᵀ of K_zz and
// clamps the singular values at 1e-12); it keeps a singular K_zz (duplicate landmarks, a
// low-rank kernel) finite, at the price of large entries in the directions of tiny eigenvalues,
// where K(x, Z) is itself nearly 0 for the training rows. Both libraries give the same features
// for a positive definite K_zz; for an indefinite one (a custom kernel) scikit-learn's SVD takes
// |λ| and flips the sign of that direction, this one floors λ.
//
// Landmarks: `landmark_rows` names them (row indices of the training data, distinct, in the
// order given); empty, they are the first m of a uniform random permutation of the n rows
// (without replacement, graph/random.h's seeded Fisher–Yates: the same subset on every platform),
// as scikit-learn's Nystroem draws them from its own generator. m > n is a ValueError
// (scikit-learn warns and takes m = n).
//
//   Nystroem nystroem({.kernel = std::make_shared<RbfKernel>(0.1), .num_components = 200});
//   Tensor Q = nystroem.fit_transform(X);   // n×200, Q Qᵀ ≈ K
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "models/kernel/kernel.h"
#include "models/kernel/kernel_io.h"

namespace dagml {

struct NystroemOptions {
  KernelPtr kernel = std::make_shared<RbfKernel>(1.0);
  Index num_components = 100;          // m ≥ 1 landmarks (≤ n at fit)
  std::uint64_t seed = 0;              // for the random landmark subset
  std::vector<Index> landmark_rows{};  // empty: m rows at random; else m distinct row indices

  template <class V>
  void visit(V&& v) {
    v("kernel", kernel, "any kernel: rbf(gamma=1), matern(nu=1.5, length_scale=1), polynomial(degree=2) …");
    v("num_components", num_components, "m ≥ 1, the number of landmark rows (at most the number of training rows)");
    v("seed", seed, "for the random landmark subset");
    v("landmark_rows", landmark_rows,
      "row indices of the landmarks (num_components of them); empty: a uniform random subset");
  }
};

class Nystroem : public Estimator<Nystroem, NystroemOptions> {
 public:
  static constexpr const char* kTypeName = "nystroem";

  // ValueError: a null kernel, num_components < 1, landmark_rows with a negative or repeated
  // index, or not num_components of them.
  explicit Nystroem(NystroemOptions options = {});

  // X n×d finite, n ≥ 1 (ValueError otherwise, and for num_components > n or a landmark row
  // ≥ n). Keeps the landmarks Z and K_zz^{-1/2} (Note [Nyström inverse square root]).
  Nystroem& fit(const Tensor& X);
  Tensor fit_transform(const Tensor& X);
  // n×m: K(X, Z) K_zz^{-1/2} (the usual input checks).
  Tensor transform(const Tensor& X) const;

  const Tensor& landmarks() const { return fitted_value(landmarks_); }                            // Z, m×d
  const std::vector<Index>& landmark_indices() const { return fitted_value(landmark_indices_); }  // rows of X
  const Tensor& normalization() const { return fitted_value(normalization_); }                    // K_zz^{-1/2}, m×m
  Index num_components() const { return landmarks().rows(); }

  // The options (the kernel by its text form; a CustomKernel cannot be saved), the landmark
  // indices, Z and K_zz^{-1/2}. A loaded model must have consistent shapes and finite values
  // (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(landmark_indices_, landmarks_, normalization_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  std::vector<Index> landmark_indices_;
  Tensor landmarks_;
  Tensor normalization_;
};

extern template class Estimator<Nystroem, NystroemOptions>;

}  // namespace dagml
