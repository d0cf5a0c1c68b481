#include "models/decompose/gaussian_random_projection.h"

#include "graph/random.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<GaussianRandomProjection, GaussianRandomProjectionOptions>;

Tensor GaussianRandomProjection::draw(Index k, Index d, std::mt19937_64& rng) const {
  const Scalar scale = 1 / std::sqrt(static_cast<Scalar>(k));
  Tensor R(k, d);
  for (Index i = 0; i < R.size(); ++i) R.data()[i] = scale * standard_normal(rng);
  return R;
}

}  // namespace dagml
