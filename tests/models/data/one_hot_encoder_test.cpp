// Tests for OneHotEncoder.
#include "models/data/one_hot_encoder.h"

#include <gtest/gtest.h>

#include "graph/error.h"

namespace dagml {
namespace {

TEST(OneHotEncoderTest, FixesTheClassCountAtFitAndRoundTrips) {
  OneHotEncoder e;
  e.fit((Vector(4) << 0, 3, 1, 2).finished());
  EXPECT_EQ(e.num_classes(), 4);
  const Vector test = (Vector(2) << 1, 1).finished();  // a subset still gets 4 columns
  const Tensor Y = e.transform(test);
  EXPECT_EQ(Y, (Tensor(2, 4) << 0, 1, 0, 0, 0, 1, 0, 0).finished());
  EXPECT_EQ(e.inverse_transform(Y), test);
  OneHotEncoder fixed({.num_classes = 10});
  EXPECT_EQ(fixed.fit_transform((Vector(1) << 3).finished()).cols(), 10);
}

TEST(OneHotEncoderTest, Errors) {
  EXPECT_THROW(OneHotEncoder({.num_classes = -1}), ValueError);
  OneHotEncoder e;
  EXPECT_THROW(e.transform(Vector::Zero(1)), NotFittedError);
  EXPECT_THROW(e.fit(Vector(0)), ValueError);
  EXPECT_THROW(e.fit((Vector(1) << -1).finished()), ValueError);
  e.fit((Vector(2) << 0, 1).finished());
  EXPECT_THROW(e.transform((Vector(1) << 2).finished()), ValueError);
  EXPECT_THROW(e.inverse_transform(Tensor::Zero(1, 3)), ShapeError);
  EXPECT_THROW(e.inverse_transform((Tensor(1, 2) << 0.5, 0.5).finished()), ValueError);
}

}  // namespace
}  // namespace dagml
