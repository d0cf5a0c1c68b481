// Tests for MinMaxScaler.
#include "models/data/min_max_scaler.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

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

// save_to / load_from through the model file text: attributes and transforms come back bitwise.
TEST(MinMaxScalerTest, SaveToLoadFromIsBitwiseExact) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal(0.0, 3.0);
  Tensor X(30, 3), X_new(6, 3);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = normal(rng);
  for (Index i = 0; i < X_new.size(); ++i) X_new.data()[i] = normal(rng);
  X.col(2).setConstant(0.1);  // a constant column: s = hi − lo
  MinMaxScaler s({.lo = -0.3, .hi = 2.0 / 3.0});
  s.fit(X);
  ModelWriter writer("Holder");
  s.save_to(writer, "mm_");
  const MinMaxScaler back = MinMaxScaler::load_from(ModelReader::parse(writer.contents(), "Holder", "test"), "mm_");
  ASSERT_TRUE(back.fitted());
  EXPECT_EQ(back.data_min(), s.data_min());
  EXPECT_EQ(back.data_max(), s.data_max());
  EXPECT_EQ(back.scale(), s.scale());
  EXPECT_EQ(back.transform(X_new), s.transform(X_new));
  EXPECT_EQ(back.inverse_transform(X_new), s.inverse_transform(X_new));
}

TEST(MinMaxScalerTest, SaveToBeforeFitAndBadEntriesThrow) {
  ModelWriter writer("Holder");
  EXPECT_THROW(MinMaxScaler().save_to(writer, "mm_"), NotFittedError);
  EXPECT_THROW(MinMaxScaler::load_from(ModelReader::parse(writer.contents(), "Holder", "test"), "mm_"), ParseError);
  auto file = [](Scalar lo, Scalar hi, const Vector& scale) {
    ModelWriter w("Holder");
    w.put_scalar("mm_lo", lo);
    w.put_scalar("mm_hi", hi);
    w.put_vector("mm_data_min", Vector::Zero(2));
    w.put_vector("mm_data_max", Vector::Ones(2));
    w.put_vector("mm_scale", scale);
    return ModelReader::parse(w.contents(), "Holder", "test");
  };
  EXPECT_NO_THROW(MinMaxScaler::load_from(file(0, 1, Vector::Ones(2)), "mm_"));
  EXPECT_THROW(MinMaxScaler::load_from(file(1, 0, Vector::Ones(2)), "mm_"), ValueError);   // lo > hi
  EXPECT_THROW(MinMaxScaler::load_from(file(0, 1, -Vector::Ones(2)), "mm_"), ValueError);  // s < 0
  EXPECT_THROW(MinMaxScaler::load_from(file(0, 1, Vector::Ones(1)), "mm_"), ValueError);   // length
}

}  // namespace
}  // namespace dagml
