// The spectral step that kernel PCA (kernel_pca.h) and classical MDS (classical_mds.h) share: a
// square similarity matrix K (a Gram matrix, or −½ times squared distances) is centred in feature
// space (kernel_centering.h), K̃ = H K H = U D Uᵀ, and its leading k components are kept as
// coefficients a_m = u_m / √D_m (only those k eigenpairs are computed, by few_leading_eigenpairs),
// so that
//   training rows score √D_m u_m = K̃ a_m,   new rows with similarity rows L score center(L) a_m.
//
// Note [Centred eigenmap rank]
// An eigenvalue D_m ≤ n · ε · D_1 (ε the machine epsilon), or negative (a kernel that is not
// positive semi-definite, dissimilarities that are not Euclidean, or rounding), has no component:
// its a_m would divide by √D_m ≈ 0. The rank r is the number of the others; k = 0 keeps all r
// (scikit-learn's KernelPCA removes zero eigenvalues the same way when n_components is None) and
// asking for more than r is a ValueError that gives r. Signs: the largest-magnitude entry of
// every u_m is positive (the first on ties), the convention of autodiff/decompositions.h, which is
// also scikit-learn's svd_flip of u.
#pragma once

#include "graph/tensor.h"
#include "models/kernel/kernel_centering.h"

namespace dagml {

struct CenteredEigenmap {
  KernelCentering centering;
  Vector eigenvalues;   // D_1 ≥ … ≥ D_k > 0
  Tensor coefficients;  // n×k, column m = a_m

  // √D_m u_m = K̃ a_m: the scores of the n training rows, n×k.
  Tensor training_scores() const { return coefficients * eigenvalues.asDiagonal(); }
  // center(L) A: the scores of new rows from their similarity rows L m×n.
  Tensor scores(const Tensor& L) const { return centering.center(L) * coefficients; }
  Index num_components() const { return eigenvalues.size(); }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(centering, eigenvalues, coefficients);
  }
};

// The eigenmap of K n×n (symmetric, finite) keeping k components (0: all, Note [Centred eigenmap
// rank]). ValueError naming `who` for a rank-0 K̃ (`what` names the rows' space in the message)
// or k > r; NumericalError if the eigensolver fails.
CenteredEigenmap centered_eigenmap(const Tensor& K, Index num_components, const char* who, const char* what);

class ModelInputArchive;
// After loading a model that holds `map` for n training objects: ParseError (through the archive,
// naming `type`) unless n ≥ 2, 1 ≤ k ≤ n, the shapes agree and every value is finite with
// positive eigenvalues.
void check_loaded_eigenmap(const ModelInputArchive& ar, const CenteredEigenmap& map, Index n, const char* type);

}  // namespace dagml
