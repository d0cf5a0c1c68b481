// Tests for StandardScaler.
#include "models/data/standard_scaler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "graph/error.h"

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

// save_to / load_from through the model file text: every attribute and the transform of new
// data come back bitwise (17 significant digits), for each combination of the options.
TEST(StandardScalerTest, SaveToLoadFromIsBitwiseExact) {
  const Tensor X = random_matrix(40, 4, 11), X_new = random_matrix(7, 4, 12);
  for (const bool with_mean : {true, false}) {
    for (const bool with_std : {true, false}) {
      StandardScaler s({.with_mean = with_mean, .with_std = with_std});
      s.fit(X);
      ModelWriter writer("Holder");
      s.save_to(writer, "scaler_");
      const StandardScaler back =
          StandardScaler::load_from(ModelReader::parse(writer.contents(), "Holder", "test"), "scaler_");
      ASSERT_TRUE(back.fitted());
      EXPECT_EQ(back.mean(), s.mean());
      EXPECT_EQ(back.variance(), s.variance());
      EXPECT_EQ(back.scale(), s.scale());
      EXPECT_EQ(back.transform(X_new), s.transform(X_new));
      EXPECT_EQ(back.inverse_transform(X_new), s.inverse_transform(X_new));
    }
  }
}

TEST(StandardScalerTest, TwoScalersShareAFileUnderTheirPrefixes) {
  StandardScaler a, b({.with_mean = false});
  a.fit(random_matrix(10, 2, 1));
  b.fit(random_matrix(10, 3, 2));
  ModelWriter writer("Holder");
  a.save_to(writer, "a_");
  b.save_to(writer, "b_");
  const ModelReader reader = ModelReader::parse(writer.contents(), "Holder", "test");
  EXPECT_EQ(StandardScaler::load_from(reader, "a_").mean(), a.mean());
  EXPECT_EQ(StandardScaler::load_from(reader, "b_").scale(), b.scale());
  EXPECT_EQ(StandardScaler::load_from(reader, "b_").num_features(), 3);
}

TEST(StandardScalerTest, SaveToBeforeFitAndBadEntriesThrow) {
  ModelWriter writer("Holder");
  EXPECT_THROW(StandardScaler().save_to(writer, "s_"), NotFittedError);
  // A missing entry.
  EXPECT_THROW(StandardScaler::load_from(ModelReader::parse(writer.contents(), "Holder", "test"), "s_"), ParseError);
  // Inconsistent entries: a zero scale, then lengths that differ.
  auto file = [](const Vector& mean, const Vector& variance, const Vector& scale) {
    ModelWriter w("Holder");
    w.put_scalar("s_with_mean", 1);
    w.put_scalar("s_with_std", 1);
    w.put_vector("s_mean", mean);
    w.put_vector("s_variance", variance);
    w.put_vector("s_scale", scale);
    return ModelReader::parse(w.contents(), "Holder", "test");
  };
  EXPECT_NO_THROW(StandardScaler::load_from(file(Vector::Zero(2), Vector::Ones(2), Vector::Ones(2)), "s_"));
  EXPECT_THROW(StandardScaler::load_from(file(Vector::Zero(2), Vector::Ones(2), Vector::Zero(2)), "s_"), ValueError);
  EXPECT_THROW(StandardScaler::load_from(file(Vector::Zero(2), Vector::Ones(2), Vector::Ones(3)), "s_"), ValueError);
  const Vector nan = Vector::Constant(2, std::numeric_limits<double>::quiet_NaN());
  EXPECT_THROW(StandardScaler::load_from(file(nan, Vector::Ones(2), Vector::Ones(2)), "s_"), ValueError);
}

}  // namespace
}  // namespace dagml
