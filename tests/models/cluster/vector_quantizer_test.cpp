// Vector quantisation and the elbow helper (models/cluster/vector_quantizer.h).
#include "models/cluster/vector_quantizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/error.h"
#include "models/data/datasets.h"

namespace dagml {
namespace {

TEST(VectorQuantizer, BitsPerCode) {
  EXPECT_EQ(bits_per_code(1), 0);
  EXPECT_EQ(bits_per_code(2), 1);
  EXPECT_EQ(bits_per_code(3), 2);
  EXPECT_EQ(bits_per_code(16), 4);
  EXPECT_EQ(bits_per_code(17), 5);
  EXPECT_THROW(bits_per_code(0), ValueError);
}

TEST(VectorQuantizer, EncodeDecodeAndDistortion) {
  // Four points around two centres: codes, reconstruction and the k-means risk by hand.
  const Tensor X{{0.0, 0.0}, {0.0, 2.0}, {10.0, 0.0}, {10.0, 2.0}};
  KMeans km({.num_clusters = 2, .init = KMeansInit::Given, .initial_centers = Tensor{{0.0, 1.0}, {10.0, 1.0}}});
  km.fit(X);
  const QuantizedData q = quantize(km, X);
  EXPECT_EQ(q.codes, (Vector{{0.0, 0.0, 1.0, 1.0}}));
  EXPECT_EQ(q.bits_per_code, 1);
  EXPECT_EQ(q.code_bits, 4);
  EXPECT_DOUBLE_EQ(q.distortion, 1.0);  // every point is 1 from its centre
  EXPECT_DOUBLE_EQ(q.distortion * 4, km.inertia());
  EXPECT_EQ(dequantize(km.centers(), q.codes), (Tensor{{0.0, 1.0}, {0.0, 1.0}, {10.0, 1.0}, {10.0, 1.0}}));
  EXPECT_THAT([&] { dequantize(km.centers(), Vector{{0.0, 2.0}}); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("expected codes in 0..1, found 2 at row 1")));
  EXPECT_THROW(dequantize(km.centers(), Vector{{0.5}}), ValueError);
}

TEST(VectorQuantizer, ElbowInertiasDecrease) {
  const Tensor X = load_dataset("iris").features;
  const std::vector<Scalar> inertias = elbow_inertias(X, {1, 2, 3, 4, 6}, {.num_init = 3, .seed = 1});
  ASSERT_EQ(inertias.size(), 5u);
  // K = 1: the total sum of squares about the mean.
  EXPECT_NEAR(inertias[0], (X.rowwise() - X.colwise().mean()).squaredNorm(), 1e-9);
  for (std::size_t i = 1; i < inertias.size(); ++i) EXPECT_LT(inertias[i], inertias[i - 1]);
}

}  // namespace
}  // namespace dagml
