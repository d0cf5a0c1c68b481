// Sparse random projection (Achlioptas 2003; Li, Hastie & Church 2006, "Very sparse random
// projections"; scikit-learn's SparseRandomProjection): with density s,
//   R_ij = +√(1/(s k))  with probability s/2,
//          0            with probability 1 − s,
//          −√(1/(s k))  with probability s/2,
// so E R_ij = 0 and E R_ij² = 1/k, as for the Gaussian projection. s = 1/3 is Achlioptas's
// construction, s = 1/√d (the default, density = 0) Li et al.'s. R is stored dense (k×d): dagml
// has no sparse matrix type; transform costs O(n k d) like the Gaussian projection. The shared
// machinery and the choice of k are in random_projection.h.
#pragma once

#include "models/decompose/random_projection.h"

namespace dagml {

struct SparseRandomProjectionOptions {
  Index num_components = 0;  // k ≥ 0; 0: the Johnson–Lindenstrauss dimension for eps
  Scalar eps = 0.1;          // 0 < ε < 1
  Scalar density = 0;        // s in (0, 1]; 0: 1/√d
  std::uint64_t seed = 0;

  template <class V>
  void visit(V&& v) {
    v("num_components", num_components, "≥ 0 output dimensions; 0: the Johnson–Lindenstrauss dimension for eps");
    v("eps", eps, "0 < eps < 1, the distance distortion the automatic dimension allows");
    v("density", density, "0 < s ≤ 1, the fraction of non-zero entries (1/3: Achlioptas); 0: 1/√d");
    v("seed", seed, "for the random matrix");
  }
};

class SparseRandomProjection : public RandomProjection<SparseRandomProjection, SparseRandomProjectionOptions> {
 public:
  static constexpr const char* kTypeName = "sparse_random_projection";

  // ValueError: num_components < 0, eps outside (0, 1), density outside {0} ∪ (0, 1].
  explicit SparseRandomProjection(SparseRandomProjectionOptions options = {});

  // Each entry from one uniform draw u (graph/random.h): u < s/2 → −v, u < s → +v, else 0.
  Tensor draw(Index k, Index d, std::mt19937_64& rng) const;
  // The s used (1/√d for density = 0).
  Scalar density_used() const { return density_for(num_features()); }

 private:
  Scalar density_for(Index d) const;
};

extern template class Estimator<SparseRandomProjection, SparseRandomProjectionOptions>;

}  // namespace dagml
