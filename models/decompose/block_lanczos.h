// The k leading eigenpairs of a large symmetric matrix by block Lanczos with full
// reorthogonalisation and thick restarts (Golub & Underwood 1977; Golub & Van Loan §10.3.6;
// Wu & Simon 2000), for kernel PCA and classical MDS when k is small against n: A is touched only
// through products A·V_j with blocks of b vectors (2n²b operations each, at matrix-product speed),
// where leading_eigenpairs reduces all of A to tridiagonal form (4/3 n³, half of it at
// matrix–vector speed).
//
//   V₀ = an orthonormal n×b block from a seeded Gaussian; the basis V = [V₀ V₁ … V_j] grows by
//   V_{j+1} R = F, F = (I − V Vᵀ) A V_j (block Gram–Schmidt applied twice, then Householder QR).
//   H = Vᵀ A V is kept whole, from the stored products A V, so restarts and rank-deficient
//   blocks need no special algebra.
//   Ritz pairs: H = S Θ Sᵀ (leading_eigenpairs of the m×m H); x_i = V s_i with the value θ_i has
//   the residual A x_i − θ_i x_i = F s_i′ (s_i′ the last b entries of s_i), since
//   A V = V H + F E_jᵀ; its norm is ‖R s_i′‖, b×b work.
//   The k leading pairs are accepted when every ‖R s_i′‖ ≤ ε‖A‖ and then, computed in full with
//   a new product, every ‖A x_i − θ_i x_i‖ ≤ 10 √n ε‖A‖ (‖A‖ estimated by the largest |H_ij| and
//   |θ| so far): their eigenvalues are then those of A to a few ε‖A‖ and their vectors accurate
//   to about ε‖A‖/gap, as a dense solver's.
//   A full basis (max_basis vectors) restarts from its leading Ritz vectors V S, keeping
//   min(k + (max_basis − k)/2, max_basis − b) of them with A V ← (A V) S and H ← Vᵀ(A V), and
//   goes on from F.
//   A column of F with |R_ii| ≤ 100 ε‖A‖ (the Krylov space is nearly invariant) is replaced by a
//   seeded Gaussian vector orthogonalised against V; the full residual check above, with a new
//   product A X, still holds the result to account.
//
// Note [When to compute Ritz pairs]
// A Ritz step (the eigenpairs of the m×m H) costs O(m³): at m = 248, 2.6 ms, more than a product
// A·V_j of a 2000-row A. The residual estimates fall about geometrically with the blocks, a
// factor of 10 to 30 a block on kernel matrices, so after an estimate of q ε‖A‖ the next
// ⌊log₁₀(q) / 4⌋ blocks are grown without one (a full basis still computes them to restart):
// on digits' kernel matrix 8 Ritz steps instead of 16, at most a few blocks past convergence.

// Note [Block size and repeated eigenvalues]
// A Krylov space grown from a b-vector start holds, in exact arithmetic, at most b independent
// vectors of any one eigenspace (A acts on it as a multiple of I), so a single-vector Lanczos
// finds one copy of a repeated eigenvalue and could return the next value in place of the
// others. Restarts filter the same space and keep the bound. So when b or more Ritz values (among
// all m) lie within 1000 ε‖A‖ of one of the k accepted values, the eigenvalue may have more
// copies than the space can show, and the solver returns nothing (the caller's dense solver then
// answers); below b copies, every copy is there. b = 8 by default: a product A·V costs little more
// with 8 vectors than with 1 (it reads A once either way, Note [Skinny products]), a repeated
// eigenvalue beyond 8 copies is rare, and more vectors per block converge in fewer blocks but in
// more vectors (the polynomial degree is the number of blocks: on digits' kernel matrix, k = 50,
// b = 8 converges in 184 vectors, b = 50 in 550).
#pragma once

#include <Eigen/Core>
#include <optional>

#include "graph/tensor.h"
#include "models/decompose/leading_eigenpairs.h"

namespace dagml {

struct BlockLanczosOptions {
  Index block_size = 0;    // b ≥ 1; 0: 8
  Index max_basis = 0;     // vectors before a restart, whole blocks, k + 2b ≤ it ≤ n; 0: 4k + 8b
                           // rounded up to whole blocks (at most n)
  Index max_products = 0;  // products A·V_j before giving up; 0: max(10, ⌊2n / 3b⌋), where they
                           // have cost about as much as a dense reduction (4/3 n³)
};

// The k leading eigenpairs of A n×n (symmetric and finite; every entry read) for 1 ≤ k, the
// values descending and the vectors as the columns of an n×k matrix (signs as they come), or
// std::nullopt if they have not converged within max_products products. ValueError for options
// that break the bounds above. Its bits do not depend on the thread count (graph/parallel_products.h).
std::optional<LeadingEigenpairs> block_lanczos_eigenpairs(const Eigen::Ref<const Eigen::MatrixXd>& A, Index k,
                                                          BlockLanczosOptions options = {});

// The k leading eigenpairs of A only (values holds k entries), 1 ≤ k ≤ n: by
// block_lanczos_eigenpairs with its default options when n ≥ 256 and its basis is at most n/2
// vectors (k ≲ n/8 − 16), else — or when it returns nothing — by leading_eigenpairs.
LeadingEigenpairs few_leading_eigenpairs(const Eigen::Ref<const Eigen::MatrixXd>& A, Index k);

}  // namespace dagml
