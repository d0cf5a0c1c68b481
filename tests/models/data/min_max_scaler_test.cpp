// Tests for MinMaxScaler.
#include "models/data/min_max_scaler.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <limits>
#include <random>

#include "graph/error.h"
#include "models/data/test_files.h"
#include "models/io/model_file.h"

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

// The model file: attributes and transforms come back bitwise, through a file and through bytes.
TEST(MinMaxScalerTest, SaveLoadIsBitwiseExact) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal(0.0, 3.0);
  Tensor X(30, 3), X_new(6, 3);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = normal(rng);
  for (Index i = 0; i < X_new.size(); ++i) X_new.data()[i] = normal(rng);
  X.col(2).setConstant(0.1);  // a constant column: s = hi − lo
  MinMaxScaler s({.lo = -0.3, .hi = 2.0 / 3.0});
  s.fit(X);
  const auto path = std::filesystem::temp_directory_path() / "dagml_min_max_scaler_test.model";
  s.save(path.string());
  const MinMaxScaler back = MinMaxScaler::load(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(back.fitted());
  EXPECT_EQ(back.options().lo, -0.3);
  EXPECT_EQ(back.options().hi, 2.0 / 3.0);
  EXPECT_EQ(back.num_features(), 3);
  EXPECT_EQ(back.data_min(), s.data_min());
  EXPECT_EQ(back.data_max(), s.data_max());
  EXPECT_EQ(back.scale(), s.scale());
  EXPECT_EQ(back.transform(X_new), s.transform(X_new));
  EXPECT_EQ(back.inverse_transform(X_new), s.inverse_transform(X_new));
  EXPECT_EQ(MinMaxScaler::from_model_file(ModelFile(s.to_bytes(), "bytes")).transform(X_new), s.transform(X_new));
}

// A min_max_scaler file with the given options and fitted state, written in the field order of
// MinMaxScaler::serialize: options, fitted flag, d, then data_min, data_max, scale.
std::string min_max_file(Scalar lo, Scalar hi, const Vector& data_min, const Vector& data_max, const Vector& scale,
                         bool fitted = true, Index d = 2) {
  std::string payload;
  {
    ModelOutputArchive ar(payload);
    ar(MinMaxScalerOptions{.lo = lo, .hi = hi}, fitted, d, data_min, data_max, scale);
  }
  return frame_model_file(MinMaxScaler::kTypeName, 1, payload);
}

TEST(MinMaxScalerTest, UnfittedAndBadFiles) {
  // An unfitted scaler saves its options only, and loads unfitted.
  const MinMaxScaler unfitted = testing::load_bytes<MinMaxScaler>(MinMaxScaler({.lo = -1, .hi = 1}).to_bytes());
  EXPECT_FALSE(unfitted.fitted());
  EXPECT_EQ(unfitted.options().lo, -1);
  EXPECT_THROW(unfitted.transform(Tensor::Ones(1, 2)), NotFittedError);
  const Vector zeros = Vector::Zero(2), ones = Vector::Ones(2);
  const MinMaxScaler crafted = testing::load_bytes<MinMaxScaler>(min_max_file(0, 1, zeros, ones, ones));
  EXPECT_EQ(crafted.transform(Tensor::Constant(1, 2, 0.5)), Tensor::Constant(1, 2, 0.5));
  // Options the constructor refuses, then fitted state that does not fit together.
  EXPECT_THROW(testing::load_bytes<MinMaxScaler>(min_max_file(1, 0, zeros, ones, ones)), ValueError);   // lo > hi
  EXPECT_THROW(testing::load_bytes<MinMaxScaler>(min_max_file(0, 1, zeros, ones, -ones)), ParseError);  // s < 0
  EXPECT_THROW(testing::load_bytes<MinMaxScaler>(min_max_file(0, 1, zeros, ones, Vector::Ones(1))),
               ParseError);  // length
  EXPECT_THROW(testing::load_bytes<MinMaxScaler>(min_max_file(0, 1, zeros, ones, ones, true, 3)),
               ParseError);  // d = 3, vectors of 2
  EXPECT_THROW(testing::load_bytes<MinMaxScaler>(min_max_file(0, 1, zeros, ones, ones, false, 0)),
               ParseError);  // state without a fit
  Vector inf = ones;
  inf(1) = std::numeric_limits<double>::infinity();
  EXPECT_THROW(testing::load_bytes<MinMaxScaler>(min_max_file(0, 1, zeros, inf, ones)), ParseError);
  // A missing entry: the payload ends before scale.
  std::string short_payload;
  {
    ModelOutputArchive ar(short_payload);
    ar(MinMaxScalerOptions{}, true, Index{2}, zeros, ones);
  }
  EXPECT_THROW(testing::load_bytes<MinMaxScaler>(frame_model_file(MinMaxScaler::kTypeName, 1, short_payload)),
               ParseError);
}

}  // namespace
}  // namespace dagml
