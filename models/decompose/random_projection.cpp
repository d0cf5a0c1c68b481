#include "models/decompose/random_projection.h"

#include "models/io/model_file.h"

namespace dagml {

Index johnson_lindenstrauss_min_dim(Index num_samples, Scalar eps) {
  if (num_samples < 1)
    throw ValueError(fmt::format("johnson_lindenstrauss_min_dim: expected n ≥ 1 samples, found {}", num_samples));
  if (!(eps > 0 && eps < 1))
    throw ValueError(fmt::format("johnson_lindenstrauss_min_dim: expected 0 < eps < 1, found {}", eps));
  const Scalar denominator = eps * eps / 2 - eps * eps * eps / 3;
  return static_cast<Index>(4 * std::log(static_cast<Scalar>(num_samples)) / denominator);
}

namespace detail {

void check_projection_options(Index num_components, Scalar eps, const char* who) {
  if (num_components < 0)
    throw ValueError(fmt::format("{}: expected num_components ≥ 0 (0: the Johnson–Lindenstrauss dimension), found {}",
                                 who, num_components));
  if (!(eps > 0 && eps < 1)) throw ValueError(fmt::format("{}: expected 0 < eps < 1, found {}", who, eps));
}

Index projection_dimension(Index num_components, Scalar eps, Index n, Index d, const char* who) {
  if (num_components > 0) {
    if (num_components > d)
      throw ValueError(
          fmt::format("{}: expected num_components ≤ d = {} (a projection reduces the dimension), found {}", who, d,
                      num_components));
    return num_components;
  }
  const Index k = johnson_lindenstrauss_min_dim(n, eps);
  if (k > d)
    throw ValueError(
        fmt::format("{}: eps = {} and n = {} rows give the Johnson–Lindenstrauss dimension {}, expected "
                    "at most d = {}: give num_components, or a larger eps",
                    who, eps, n, k, d));
  return std::max<Index>(k, 1);
}

void check_loaded_projection(const ModelInputArchive& ar, const Tensor& components, Index d, const char* who) {
  if (components.rows() < 1 || components.cols() != d)
    ar.fail(fmt::format("{}: expected components of shape k×{} with k ≥ 1, found {}×{}", who, d, components.rows(),
                        components.cols()));
  if (!components.allFinite()) ar.fail(fmt::format("{}: expected finite components, found a NaN or infinity", who));
}

}  // namespace detail
}  // namespace dagml
