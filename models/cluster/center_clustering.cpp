#include "models/cluster/center_clustering.h"

#include "models/io/archive.h"
#include "models/io/loaded_checks.h"

namespace dagml::detail {

void check_loaded_centers(const ModelInputArchive& ar, const Tensor& centers, Scalar objective, Index expected_clusters,
                          Index num_features, const char* type) {
  if (centers.rows() < 1) ar.fail(fmt::format("{}: expected at least one centre, found none", type));
  expect_shape(ar, type, "centers", centers, expected_clusters >= 1 ? expected_clusters : centers.rows(), num_features);
  if (!centers.allFinite() || !std::isfinite(objective))
    ar.fail(fmt::format("{}: expected finite centres and objective, found a NaN or infinity", type));
}

}  // namespace dagml::detail
