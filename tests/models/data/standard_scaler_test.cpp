// Tests for StandardScaler.
#include "models/data/standard_scaler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <random>

#include "graph/error.h"
#include "models/data/test_files.h"
#include "models/io/model_file.h"

namespace dagml {
namespace {

Tensor random_matrix(Index n, Index d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Tensor X(n, d);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < d; ++j) {
      X(i, j) = (static_cast<double>(rng() >> 11) * 0x1p-53 - 0.5) * std::pow(10.0, static_cast<double>(j));
    }
  }
  return X;
}

TEST(StandardScalerTest, HandWorkedExampleWithConstantColumn) {
  Tensor X(3, 2);
  X << 1, 2, 3, 2, 5, 2;
  StandardScaler s;
  const Tensor Z = s.fit_transform(X);
  EXPECT_EQ(s.mean(), (Vector(2) << 3, 2).finished());
  EXPECT_DOUBLE_EQ(s.variance()(0), 8.0 / 3.0);  // ((−2)² + 0² + 2²) / 3
  EXPECT_EQ(s.variance()(1), 0.0);
  EXPECT_EQ(s.scale()(1), 1.0);  // constant column: no division by zero
  EXPECT_DOUBLE_EQ(Z(0, 0), -2 / std::sqrt(8.0 / 3.0));
  EXPECT_EQ(Z(1, 0), 0.0);
  EXPECT_EQ(Z.col(1), Vector::Zero(3));
}

TEST(StandardScalerTest, ConstantColumnsTransformToExactZero) {
  // 0.1·3/3 is not 0.1 in floating point; the scaler still gives exact zeros.
  const Tensor X = Tensor::Constant(3, 1, 0.1);
  StandardScaler s;
  const Tensor Z = s.fit_transform(X);
  EXPECT_EQ(Z, Tensor::Zero(3, 1));
  EXPECT_EQ(s.inverse_transform(Z), X);
}

TEST(StandardScalerTest, TransformedColumnsHaveZeroMeanUnitVarianceAndInverseRoundTrips) {
  const Tensor X = random_matrix(200, 4, 1);
  StandardScaler s;
  const Tensor Z = s.fit_transform(X);
  for (Index j = 0; j < 4; ++j) {
    EXPECT_NEAR(Z.col(j).mean(), 0.0, 1e-14);
    EXPECT_NEAR(Z.col(j).squaredNorm() / 200.0, 1.0, 1e-13);
  }
  const Tensor back = s.inverse_transform(Z);
  for (Index j = 0; j < 4; ++j) {
    const double tol = 1e-15 * std::pow(10.0, static_cast<double>(j)) * 4;
    EXPECT_LE((back.col(j) - X.col(j)).cwiseAbs().maxCoeff(), tol) << "column " << j;
  }
}

TEST(StandardScalerTest, OptionsTurnOffCentringOrScaling) {
  const Tensor X = random_matrix(10, 2, 2);
  StandardScaler no_mean({.with_mean = false});
  no_mean.fit(X);
  EXPECT_EQ(no_mean.mean(), Vector::Zero(2));
  EXPECT_GT(no_mean.variance()(0), 0);
  StandardScaler no_std({.with_std = false});
  const Tensor Z = no_std.fit_transform(X);
  EXPECT_EQ(no_std.scale(), Vector::Ones(2));
  EXPECT_NEAR(Z.col(1).mean(), 0.0, 1e-15);
}

TEST(StandardScalerTest, HugeValuesDoNotOverflow) {
  Tensor X(2, 1);
  X << -1e300, 1e300;
  StandardScaler s;
  const Tensor Z = s.fit_transform(X);
  EXPECT_DOUBLE_EQ(s.scale()(0), 1e300);
  EXPECT_DOUBLE_EQ(Z(0, 0), -1.0);
  EXPECT_DOUBLE_EQ(Z(1, 0), 1.0);
}

TEST(StandardScalerTest, ChecksFitColumnsAndFiniteness) {
  StandardScaler s;
  EXPECT_THROW(s.transform(Tensor::Zero(2, 2)), NotFittedError);
  EXPECT_THROW(s.inverse_transform(Tensor::Zero(2, 2)), NotFittedError);
  EXPECT_THROW(s.mean(), NotFittedError);
  EXPECT_THROW(s.fit(Tensor(0, 3)), ValueError);
  s.fit(random_matrix(5, 2, 3));
  try {
    s.transform(Tensor::Zero(2, 3));
    ADD_FAILURE();
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("expected 2 columns"), std::string::npos) << e.what();
  }
  EXPECT_THROW(s.inverse_transform(Tensor::Zero(2, 1)), ShapeError);
  Tensor bad = Tensor::Zero(3, 2);
  bad(1, 0) = std::numeric_limits<double>::quiet_NaN();
  try {
    s.transform(bad);
    ADD_FAILURE();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("row 1, column 0"), std::string::npos) << e.what();
  }
  bad(1, 0) = 0;
  bad(2, 1) = -std::numeric_limits<double>::infinity();
  try {
    StandardScaler().fit(bad);
    ADD_FAILURE();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("row 2, column 1"), std::string::npos) << e.what();
  }
}

// The model file: every attribute and the transform of new data come back bitwise, for each
// combination of the options.
TEST(StandardScalerTest, SaveLoadIsBitwiseExact) {
  const Tensor X = random_matrix(40, 4, 11), X_new = random_matrix(7, 4, 12);
  const auto path = std::filesystem::temp_directory_path() / "dagml_standard_scaler_test.model";
  for (const bool with_mean : {true, false}) {
    for (const bool with_std : {true, false}) {
      StandardScaler s({.with_mean = with_mean, .with_std = with_std});
      s.fit(X);
      s.save(path.string());
      const StandardScaler back = StandardScaler::load(path.string());
      ASSERT_TRUE(back.fitted());
      EXPECT_EQ(back.options().with_mean, with_mean);
      EXPECT_EQ(back.options().with_std, with_std);
      EXPECT_EQ(back.mean(), s.mean());
      EXPECT_EQ(back.variance(), s.variance());
      EXPECT_EQ(back.scale(), s.scale());
      EXPECT_EQ(back.transform(X_new), s.transform(X_new));
      EXPECT_EQ(back.inverse_transform(X_new), s.inverse_transform(X_new));
      EXPECT_EQ(back.to_bytes(), s.to_bytes());
    }
  }
  std::filesystem::remove(path);
}

// Inside another model's file (as PolynomialRegression keeps its scaler): two scalers one after
// the other in one archive, each read back whole.
TEST(StandardScalerTest, TwoScalersNestInOneArchive) {
  StandardScaler a, b({.with_mean = false});
  a.fit(random_matrix(10, 2, 1));
  b.fit(random_matrix(10, 3, 2));
  std::string bytes;
  {
    ModelOutputArchive out(bytes);
    out(a, b);
  }
  StandardScaler a2, b2;
  ModelInputArchive in(bytes, "test");
  in(a2, b2);
  EXPECT_EQ(in.remaining(), 0u);
  EXPECT_EQ(a2.mean(), a.mean());
  EXPECT_EQ(b2.scale(), b.scale());
  EXPECT_EQ(b2.num_features(), 3);
  EXPECT_FALSE(b2.options().with_mean);
}

// A standard_scaler file with the given fitted state, written in the field order of
// StandardScaler::serialize: options, fitted flag, d, then mean, variance, scale.
std::string scaler_file(const Vector& mean, const Vector& variance, const Vector& scale, bool fitted = true) {
  std::string payload;
  {
    ModelOutputArchive ar(payload);
    ar(StandardScalerOptions{}, fitted, Index{fitted ? 2 : 0}, mean, variance, scale);
  }
  return frame_model_file(StandardScaler::kTypeName, 1, payload);
}

TEST(StandardScalerTest, UnfittedAndBadFiles) {
  // An unfitted scaler saves its options only, and loads unfitted.
  const StandardScaler unfitted = testing::load_bytes<StandardScaler>(StandardScaler({.with_std = false}).to_bytes());
  EXPECT_FALSE(unfitted.fitted());
  EXPECT_FALSE(unfitted.options().with_std);
  EXPECT_THROW(unfitted.transform(Tensor::Ones(1, 2)), NotFittedError);
  // A missing entry: the payload ends before the scale.
  std::string short_payload;
  {
    ModelOutputArchive ar(short_payload);
    ar(StandardScalerOptions{}, true, Index{2}, Vector(Vector::Zero(2)), Vector(Vector::Ones(2)));
  }
  EXPECT_THROW(testing::load_bytes<StandardScaler>(frame_model_file(StandardScaler::kTypeName, 1, short_payload)),
               ParseError);
  // Inconsistent entries: a zero scale, lengths that differ, a NaN mean, state without a fit.
  EXPECT_EQ(testing::load_bytes<StandardScaler>(scaler_file(Vector::Zero(2), Vector::Ones(2), Vector::Ones(2))).scale(),
            Vector::Ones(2));
  try {
    testing::load_bytes<StandardScaler>(scaler_file(Vector::Zero(2), Vector::Ones(2), Vector::Zero(2)));
    ADD_FAILURE() << "a zero scale loaded";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("positive scale"), std::string::npos) << e.what();
  }
  EXPECT_THROW(testing::load_bytes<StandardScaler>(scaler_file(Vector::Zero(2), Vector::Ones(2), Vector::Ones(3))),
               ParseError);
  const Vector nan = Vector::Constant(2, std::numeric_limits<double>::quiet_NaN());
  EXPECT_THROW(testing::load_bytes<StandardScaler>(scaler_file(nan, Vector::Ones(2), Vector::Ones(2))), ParseError);
  EXPECT_THROW(
      testing::load_bytes<StandardScaler>(scaler_file(Vector::Zero(2), Vector::Ones(2), Vector::Ones(2), false)),
      ParseError);
}

}  // namespace
}  // namespace dagml
