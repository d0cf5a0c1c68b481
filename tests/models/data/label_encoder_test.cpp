// Tests for LabelEncoder.
#include "models/data/label_encoder.h"

#include <gtest/gtest.h>

#include <limits>

#include "graph/error.h"

namespace dagml {
namespace {

TEST(LabelEncoderTest, ArbitraryValuesToIndicesAndBack) {
  const Vector y = (Vector(5) << 9, 3, 7, 3, 9).finished();
  LabelEncoder e;
  const Vector k = e.fit_transform(y);
  EXPECT_EQ(e.classes(), (Vector(3) << 3, 7, 9).finished());
  EXPECT_EQ(e.num_classes(), 3);
  EXPECT_EQ(k, (Vector(5) << 2, 0, 1, 0, 2).finished());
  EXPECT_EQ(e.inverse_transform(k), y);
}

TEST(LabelEncoderTest, SignsMapToZeroOne) {
  LabelEncoder e;
  EXPECT_EQ(e.fit_transform((Vector(3) << 1, -1, 1).finished()), (Vector(3) << 1, 0, 1).finished());
}

TEST(LabelEncoderTest, Errors) {
  LabelEncoder e;
  EXPECT_THROW(e.transform(Vector::Zero(1)), NotFittedError);
  EXPECT_THROW(e.fit(Vector(0)), ValueError);
  EXPECT_THROW(e.fit((Vector(1) << std::numeric_limits<double>::quiet_NaN()).finished()), ValueError);
  e.fit((Vector(2) << 1, 2).finished());
  try {
    e.transform((Vector(3) << 1, 2, 5).finished());
    ADD_FAILURE();
  } catch (const ValueError& ex) {
    EXPECT_NE(std::string(ex.what()).find("found 5 at row 2"), std::string::npos) << ex.what();
  }
  EXPECT_THROW(e.inverse_transform((Vector(1) << 2).finished()), ValueError);
}

}  // namespace
}  // namespace dagml
