#include "models/cluster/vector_quantizer.h"

#include <fmt/format.h>

#include "graph/error.h"

namespace dagml {

Index bits_per_code(Index num_clusters) {
  if (num_clusters < 1) throw ValueError(fmt::format("bits_per_code: expected K ≥ 1, found {}", num_clusters));
  Index bits = 0;
  while ((Index{1} << bits) < num_clusters) ++bits;
  return bits;
}

QuantizedData quantize(const KMeans& codebook, const Tensor& X) {
  QuantizedData q;
  q.codes = codebook.predict(X);
  q.bits_per_code = bits_per_code(codebook.centers().rows());
  q.code_bits = X.rows() * q.bits_per_code;
  q.distortion = (X - dequantize(codebook.centers(), q.codes)).rowwise().squaredNorm().mean();
  return q;
}

Tensor dequantize(const Tensor& centers, const Vector& codes) {
  Tensor out(codes.size(), centers.cols());
  for (Index i = 0; i < codes.size(); ++i) {
    const Scalar z = codes(i);
    if (!(z >= 0 && z < static_cast<Scalar>(centers.rows())) || z != static_cast<Scalar>(static_cast<Index>(z)))
      throw ValueError(fmt::format("dequantize: expected codes in 0..{}, found {} at row {}", centers.rows() - 1, z, i));
    out.row(i) = centers.row(static_cast<Index>(z));
  }
  return out;
}

std::vector<Scalar> elbow_inertias(const Tensor& X, const std::vector<Index>& num_clusters, KMeansOptions options) {
  std::vector<Scalar> inertias;
  for (Index K : num_clusters) {
    options.num_clusters = K;
    inertias.push_back(KMeans(options).fit(X).inertia());
  }
  return inertias;
}

}  // namespace dagml
