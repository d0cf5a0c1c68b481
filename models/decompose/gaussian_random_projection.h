// Gaussian random projection: R_ij ~ N(0, 1/k) independently, so E‖R x‖² = ‖x‖² (the
// Johnson–Lindenstrauss construction; scikit-learn's GaussianRandomProjection). The shared
// machinery and the choice of k are in random_projection.h.
//
//   GaussianRandomProjection projection({.num_components = 50, .seed = 1});
//   Tensor Z = projection.fit_transform(X);   // n×50
#pragma once

#include "models/decompose/random_projection.h"

namespace dagml {

struct GaussianRandomProjectionOptions {
  Index num_components = 0;  // k ≥ 0; 0: the Johnson–Lindenstrauss dimension for eps
  Scalar eps = 0.1;          // 0 < ε < 1, the distortion the automatic k allows
  std::uint64_t seed = 0;

  template <class V>
  void visit(V&& v) {
    v("num_components", num_components, "≥ 0 output dimensions; 0: the Johnson–Lindenstrauss dimension for eps");
    v("eps", eps, "0 < eps < 1, the distance distortion the automatic dimension allows");
    v("seed", seed, "for the random matrix");
  }
};

class GaussianRandomProjection : public RandomProjection<GaussianRandomProjection, GaussianRandomProjectionOptions> {
 public:
  static constexpr const char* kTypeName = "gaussian_random_projection";

  // ValueError: num_components < 0, eps outside (0, 1).
  explicit GaussianRandomProjection(GaussianRandomProjectionOptions options = {})
      : RandomProjection(std::move(options)) {}

  // k×d entries standard normal / √k (Box–Muller, graph/random.h), row after row.
  Tensor draw(Index k, Index d, std::mt19937_64& rng) const;
};

extern template class Estimator<GaussianRandomProjection, GaussianRandomProjectionOptions>;

}  // namespace dagml
