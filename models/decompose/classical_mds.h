// Classical (Torgerson–Gower) multidimensional scaling (notes 002 §4 MDS; notes 004's double
// centring).
//
// Given dissimilarities δ_ij between n objects, classical MDS finds points z_i ∈ R^k whose inner
// products best match B = −½ H Δ H, Δ_ij = δ_ij², H = I − (1/n) 1 1ᵀ (double centring; B is the
// Gram matrix of the centred points when the δ are Euclidean distances). With B = U D Uᵀ,
//   z^(m) = √D_m u_m       (the embedding; it minimises the strain ‖B − Z Zᵀ‖_F)
// — kernel PCA with the "kernel" −½ δ² (centered_eigenmap.h, which also fixes the rank rule and
// the signs, Note [Centred eigenmap rank]). With Euclidean distances of data X the embedding is
// X's PCA scores (tested). A new object with squared dissimilarities d_j² to the n training objects
// is placed by Gower's formula, the same centring of the row −½ d² (de Silva & Tenenbaum 2004,
// landmark MDS): z^(m) = Σ_j a_mj [−½ H-centred d²]_j.
//
// Inputs (dissimilarity.h): `dissimilarity = euclidean` (default) takes data rows X n×d and uses
// δ_ij = ‖x_i − x_j‖; `precomputed` takes δ itself as an n×n matrix (symmetric, zero diagonal,
// ≥ 0), and transform then takes m×n rows of dissimilarities to the training objects.
//
//   ClassicalMDS mds({.num_components = 2});
//   Tensor Z = mds.fit_transform(X);   // n×2
#pragma once

#include "graph/tensor.h"
#include "models/decompose/centered_eigenmap.h"
#include "models/decompose/dissimilarity.h"
#include "models/io/estimator.h"

namespace dagml {

struct ClassicalMDSOptions {
  Index num_components = 2;  // k ≥ 0; 0: every dimension of positive eigenvalue
  Dissimilarity dissimilarity = Dissimilarity::Euclidean;

  template <class V>
  void visit(V&& v) {
    v("num_components", num_components, "≥ 0 embedding dimensions; 0: all of positive eigenvalue");
    v("dissimilarity", dissimilarity, "euclidean (rows of data) or precomputed (an n×n dissimilarity matrix)");
  }
};

// The classical MDS of dissimilarities δ (n×n): the centred eigenmap of −½ δ² keeping k components
// (0: all of positive eigenvalue); its training_scores() are the embedding. ValueError naming
// `who` as centered_eigenmap.
CenteredEigenmap classical_mds_eigenmap(const Tensor& delta, Index num_components, const char* who);

class ClassicalMDS : public Estimator<ClassicalMDS, ClassicalMDSOptions> {
 public:
  static constexpr const char* kTypeName = "classical_mds";

  // ValueError for num_components < 0.
  explicit ClassicalMDS(ClassicalMDSOptions options = {});

  // X: data n×d (euclidean) or dissimilarities n×n (precomputed: ShapeError if not square,
  // ValueError if not symmetric, negative or with a non-zero diagonal). n ≥ 2, finite; ValueError
  // for k > the rank of B or all objects at distance 0.
  ClassicalMDS& fit(const Tensor& X);
  Tensor fit_transform(const Tensor& X);  // the embedding, n×k
  // Gower's placement of new objects: X data rows m×d (euclidean) or dissimilarities m×n to the
  // training objects (precomputed).
  Tensor transform(const Tensor& X) const;

  const Tensor& embedding() const { return fitted_value(embedding_); }               // n×k training points
  const Vector& eigenvalues() const { return fitted_value(eigenmap_).eigenvalues; }  // D_1..D_k of B
  Index num_components() const { return fitted_value(eigenmap_).num_components(); }

  // The options, the training rows (euclidean; empty for precomputed) and the eigenmap
  // (centring statistics, D, the coefficients); the embedding is recomputed from it. ParseError
  // for shapes that disagree, values that are not finite, or eigenvalues that are not positive.
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(X_, eigenmap_);
    if constexpr (Archive::is_loading::value) load_checked(ar);
  }

 private:
  void load_checked(const class ModelInputArchive& ar);

  Tensor X_;  // the training rows (euclidean only)
  CenteredEigenmap eigenmap_;
  Tensor embedding_;  // √D_m u_m
};

extern template class Estimator<ClassicalMDS, ClassicalMDSOptions>;

}  // namespace dagml
