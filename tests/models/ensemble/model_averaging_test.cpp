// Model averaging with softmax(−J) weights (notes 002 §1.1): the spec's softmax numbers, the
// weighted mean and variance worked by hand, top-K, and bad input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/error.h"
#include "models/ensemble/model_averaging.h"

namespace dagml {
namespace {

TEST(ModelAveraging, WeightsAreSoftmaxOfMinusTheCosts) {
  // softmax([1, 2, 3]) = (0.0900305732, 0.2447284711, 0.6652409558) (notes 004 spec): costs
  // J = (3, 2, 1) give those weights, and shifting every J leaves them unchanged.
  Vector J(3);
  J << 3, 2, 1;
  const Vector w = model_average_weights(J);
  EXPECT_NEAR(w(0), 0.0900305732, 1e-10);
  EXPECT_NEAR(w(1), 0.2447284711, 1e-10);
  EXPECT_NEAR(w(2), 0.6652409558, 1e-10);
  EXPECT_LT((model_average_weights(J.array() + 1000.0) - w).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_EQ(top_models(w, 2), (std::vector<Index>{2, 1}));  // MAP first
}

TEST(ModelAveraging, MeanAndVarianceOfThePredictions) {
  // Two models, ω = (0.25, 0.75): predictions 0 and 4 give mean 3 and variance
  // 0.25·9 + 0.75·1 = 3; predictions 2 and 2 give 2 and 0.
  Tensor a(2, 1), b(2, 1);
  a << 0, 2;
  b << 4, 2;
  Vector w(2);
  w << 0.25, 0.75;
  const ModelAverage avg = model_average({a, b}, w);
  EXPECT_DOUBLE_EQ(avg.mean(0, 0), 3);
  EXPECT_DOUBLE_EQ(avg.variance(0, 0), 3);
  EXPECT_DOUBLE_EQ(avg.mean(1, 0), 2);
  EXPECT_DOUBLE_EQ(avg.variance(1, 0), 0);
}

TEST(ModelAveraging, BadInputIsATypedError) {
  EXPECT_THROW(model_average_weights(Vector()), ValueError);
  Vector nan(1);
  nan << std::nan("");
  EXPECT_THROW(model_average_weights(nan), ValueError);
  Vector w(2);
  w << 0.5, 0.6;
  EXPECT_THAT([&] { model_average({Tensor::Zero(1, 1), Tensor::Zero(1, 1)}, w); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("summing to 1")));
  w << 0.5, 0.5;
  EXPECT_THROW(model_average({Tensor::Zero(1, 1), Tensor::Zero(2, 1)}, w), ShapeError);
  EXPECT_THROW(model_average({Tensor::Zero(1, 1)}, w), ShapeError);
  EXPECT_THROW(top_models(w, 3), ValueError);
}

}  // namespace
}  // namespace dagml
