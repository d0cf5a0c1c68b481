// The stress of metric multidimensional scaling (notes 002 §3.4, Eq. 3.11) and the Guttman
// transform that majorises it (SMACOF; Borg & Groenen, Modern Multidimensional Scaling, 2005,
// §8.4–8.6). For codes z_1..z_n ∈ R^k (the rows of Z, n×k) and dissimilarities δ (n×n, symmetric,
// zero diagonal), with d_ij = ‖z_i − z_j‖₂:
//
//   raw stress    σ(Z) = Σ_{i<j} (d_ij − δ_ij)²                     (scikit-learn's stress_)
//   notes         R(Z) = (σ(Z) / N)^{1/2}, N a normaliser; N = 1 in the notes' default
//   stress-1      S₁(Z) = (σ(Z) / Σ_{i<j} δ_ij²)^{1/2}              (Kruskal 1964)
//
// The worked example of the notes: codes (0,0), (3,0), (0,4) with δ_01 = 3, δ_02 = 4, δ_12 = 6
// have distances 3, 4, 5, so σ = 1 and R = 1 (tested).
//
// Gradient, for unit weights (V = n I − 1 1ᵀ):
//   ∇_{z_i} σ = 2 Σ_j (1 − δ_ij / d_ij)(z_i − z_j) = 2 (V Z − B(Z) Z)_i,
//   B(Z)_ij = −δ_ij / d_ij (i ≠ j, d_ij > 0), 0 (i ≠ j, d_ij = 0), B_ii = −Σ_{j≠i} B_ij.
// The Guttman transform Z⁺ = V⁺ B(Z) Z = (1/n) B(Z) Z (for the V⁺ of unit weights and a centred
// B(Z) Z, which 1ᵀB = 0 makes it) minimises the majoriser of σ at Z: σ(Z⁺) ≤ σ(Z) at every step.
//
// Note [Coincident points]
// At d_ij = 0 the term (d_ij − δ_ij)² is not differentiable in z_i (a cone of slope −2δ_ij in
// every direction); its subgradients form the ball of radius 2δ_ij, of which 0 is the one of
// minimum norm. SMACOF's convention b_ij = 0 when d_ij = 0 is that choice: B(Z)Z's term
// b_ij (z_i − z_j) then vanishes, as it would for any finite b_ij (scikit-learn 1.2.1 replaces
// the zero distance by 1e-5 and gets the same product). The stress graph makes the same choice:
// d_ij = [r_ij > 0] · √max(r_ij, tiny), r_ij = ‖z_i − z_j‖², tiny the smallest normal double, is
// exactly √r_ij (0 at coincident points) and its gradient at r_ij = 0 is 0 (l2_norm's convention
// in autodiff/norms.h), where √r alone would give 0 · ∞ = NaN. Two coincident points with equal
// dissimilarities to all others therefore stay together under both solvers.
#pragma once

#include "graph/graph.h"
#include "graph/tensor.h"

namespace dagml {

// σ from the distances d (n×n) of a configuration and δ (n×n): Σ_{i<j} (d_ij − δ_ij)².
Scalar raw_stress_of_distances(const Tensor& distances, const Tensor& delta);
// σ(Z) for Z n×k and δ n×n. ShapeError unless δ is n×n.
Scalar mds_raw_stress(const Tensor& Z, const Tensor& delta);
// The notes' R(Z) = (σ(Z) / normalizer)^{1/2}. ValueError unless normalizer > 0 (finite).
Scalar mds_stress(const Tensor& Z, const Tensor& delta, Scalar normalizer = 1);
// Kruskal's stress-1, (σ(Z) / Σ_{i<j} δ_ij²)^{1/2}. ValueError if every δ_ij is 0.
Scalar kruskal_stress_1(const Tensor& Z, const Tensor& delta);
// Σ_{i<j} δ_ij², the normaliser of stress-1.
Scalar dissimilarity_sum_of_squares(const Tensor& delta);

// σ as a 1×1 node of Z's graph (Z n×k, δ n×n constant): the n(n − 1)/2 pairs i < j are gathered
// (gather_rows), d_ij as in Note [Coincident points]. ShapeError unless δ is n×n with n ≥ 2.
Var mds_raw_stress(Var Z, const Tensor& delta);

// One pass over δ for the configuration Z (n×k): its raw stress σ(Z) and its Guttman transform
// (1/n) B(Z) Z (Note [Coincident points] for d_ij = 0), the distances d_ij computed on the fly and
// never stored. Row i of B(Z) Z is Σ_{j≠i} (δ_ij / d_ij)(z_i − z_j); σ(Z) = ½ Σ_i Σ_j (d_ij − δ_ij)².
// The rows run in parallel in fixed blocks, each row's sums in j order and σ's row sums added in
// row order, so the bits do not depend on the thread count. ShapeError unless δ is n×n.
struct GuttmanPass {
  Scalar stress = 0;  // σ(Z)
  Tensor transform;   // (1/n) B(Z) Z, n×k
};
GuttmanPass guttman_pass(const Tensor& Z, const Tensor& delta);

}  // namespace dagml
