#include "models/decompose/sparse_random_projection.h"

#include "graph/random.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<SparseRandomProjection, SparseRandomProjectionOptions>;

SparseRandomProjection::SparseRandomProjection(SparseRandomProjectionOptions options)
    : RandomProjection(std::move(options)) {
  const Scalar s = options_.density;
  if (!(s == 0 || (s > 0 && s <= 1)))
    throw ValueError(fmt::format("{}: expected density in (0, 1] (or 0: 1/√d), found {}", kTypeName, s));
}

Scalar SparseRandomProjection::density_for(Index d) const {
  return options_.density > 0 ? options_.density : 1 / std::sqrt(static_cast<Scalar>(d));
}

Tensor SparseRandomProjection::draw(Index k, Index d, std::mt19937_64& rng) const {
  const Scalar s = density_for(d);
  const Scalar v = std::sqrt(1 / (s * static_cast<Scalar>(k)));
  Tensor R(k, d);
  for (Index i = 0; i < R.size(); ++i) {
    const Scalar u = uniform01(rng);
    R.data()[i] = u < s / 2 ? -v : (u < s ? v : 0);
  }
  return R;
}

}  // namespace dagml
