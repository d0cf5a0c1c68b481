// Tests for MinMaxScaler.
#include "models/data/min_max_scaler.h"

#include <gtest/gtest.h>

#include <limits>

#include "graph/error.h"

namespace dagml {
namespace {

TEST(MinMaxScalerTest, MapsTrainingRangeOntoFeatureRange) {
  Tensor X(3, 3);
  X << 1, -4, 7,
       2, 0, 7,
       5, 4, 7;
  MinMaxScaler s;
  const Tensor Z = s.fit_transform(X);
  EXPECT_EQ(s.data_min(), (Vector(3) << 1, -4, 7).finished());
  EXPECT_EQ(s.data_max(), (Vector(3) << 5, 4, 7).finished());
  EXPECT_EQ(Z.col(0), (Vector(3) << 0, 0.25, 1).finished());
  EXPECT_EQ(Z.col(1), (Vector(3) << 0, 0.5, 1).finished());
  EXPECT_EQ(Z.col(2), Vector::Zero(3));  // constant column: lo, no division by zero
  EXPECT_EQ(s.inverse_transform(Z), X);
}

TEST(MinMaxScalerTest, CustomRangeAndUnseenValues) {
  Tensor X(2, 1);
  X << 10, 20;
  MinMaxScaler s({.lo = -1, .hi = 1});
  s.fit(X);
  Tensor T(3, 1);
  T << 10, 15, 30;  // 30 is outside the training range: not clipped
  const Tensor Z = s.transform(T);
  // Equal up to rounding (Eigen may fuse the multiply-add).
  EXPECT_LE((Z - (Tensor(3, 1) << -1, 0, 3).finished()).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LE((s.inverse_transform(Z) - T).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(MinMaxScalerTest, InverseRoundTripsOnIrregularValues) {
  Tensor X(4, 2);
  X << 0.1, 1e-8, 0.7, 3e-8, 0.3, -2e-8, 1.9, 5e-9;
  MinMaxScaler s;
  const Tensor back = s.inverse_transform(s.fit_transform(X));
  EXPECT_LE((back - X).cwiseAbs().maxCoeff(), 1e-15 * 4);
}

TEST(MinMaxScalerTest, ChecksOptionsFitColumnsAndFiniteness) {
  EXPECT_THROW(MinMaxScaler({.lo = 1, .hi = 1}), ValueError);
  EXPECT_THROW(MinMaxScaler({.lo = 0, .hi = std::numeric_limits<double>::infinity()}), ValueError);
  MinMaxScaler s;
  EXPECT_THROW(s.transform(Tensor::Zero(1, 1)), NotFittedError);
  EXPECT_THROW(s.fit(Tensor(0, 2)), ValueError);
  Tensor huge(2, 1);
  huge << -1e308, 1e308;  // the range overflows
  EXPECT_THROW(s.fit(huge), ValueError);
  s.fit(Tensor::Ones(2, 2));
  EXPECT_THROW(s.transform(Tensor::Ones(2, 3)), ShapeError);
  Tensor bad = Tensor::Ones(2, 2);
  bad(0, 1) = std::numeric_limits<double>::quiet_NaN();
  try {
    s.transform(bad);
    ADD_FAILURE();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("row 0, column 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dagml
