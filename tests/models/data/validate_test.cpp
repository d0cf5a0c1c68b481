// Tests for the shared input checks.
#include "models/data/validate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace dagml {
namespace {

TEST(ValidateTest, CheckFiniteNamesTheEntry) {
  Tensor X = Tensor::Zero(3, 4);
  check_finite(X, "who");
  X(2, 3) = std::numeric_limits<double>::quiet_NaN();
  try {
    check_finite(X, "Model::fit");
    ADD_FAILURE();
  } catch (const ValueError& e) {
    EXPECT_EQ(std::string(e.what()), "Model::fit: expected finite values, found nan at row 2, column 3");
  }
  // Finite values whose sum overflows are still accepted.
  Tensor big = Tensor::Constant(2, 1, 1e308);
  check_finite(big, "who");
  Vector v = Vector::Zero(3);
  v(1) = -std::numeric_limits<double>::infinity();
  EXPECT_THROW(check_finite(v, "who"), ValueError);
}

TEST(ValidateTest, ShapesAndLabels) {
  EXPECT_THROW(check_columns(Tensor::Zero(2, 3), 2, "who"), ShapeError);
  check_columns(Tensor::Zero(2, 3), 3, "who");
  EXPECT_THROW(check_not_empty(Tensor(0, 3), "who"), ValueError);
  EXPECT_THROW(check_not_empty(Tensor(3, 0), "who"), ValueError);
  EXPECT_THROW(check_same_rows(Tensor::Zero(2, 3), Vector::Zero(3), "who"), ShapeError);
  EXPECT_EQ(check_labels((Vector(3) << 0, 4, 1).finished(), "who"), 5);
  EXPECT_EQ(check_labels((Vector(3) << 0, 1, 1).finished(), "who", 3), 3);
  EXPECT_THROW(check_labels((Vector(1) << 3).finished(), "who", 3), ValueError);
  EXPECT_THROW(check_labels((Vector(1) << std::numeric_limits<double>::quiet_NaN()).finished(), "who"), ValueError);
  EXPECT_THROW(check_fitted(false, "who"), NotFittedError);
}

// The message of what f throws as E (a failure when it throws nothing or something else).
template <class E, class F>
std::string message_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "nothing thrown";
  return "";
}

using ::testing::HasSubstr;

TEST(ValidateTest, ClassChecksSayWhatIsWrong) {
  EXPECT_THAT(message_of<ValueError>([] { check_classes((Vector(3) << 1, 1, 1).finished(), "Model::fit"); }),
              HasSubstr("Model::fit: expected at least two classes, found only class 1"));
  EXPECT_THAT(message_of<ValueError>([] { check_classes((Vector(3) << 0, 2, 2).finished(), "Model::fit"); }),
              HasSubstr("found no sample of class 1"));
  EXPECT_THROW(check_classes((Vector(2) << 0, 1.5).finished(), "Model::fit"), ValueError);
  EXPECT_THROW(check_classes((Vector(2) << 0, -1).finished(), "Model::fit"), ValueError);
  EXPECT_EQ(check_classes((Vector(4) << 2, 0, 1, 0).finished(), "Model::fit"), 3);
  EXPECT_EQ(check_classes((Vector(3) << 0, 2, 2).finished(), "Model::fit", 0), 3);  // 0: only the two-class check
  EXPECT_THAT(message_of<ValueError>([] { check_classes((Vector(3) << 0, 0, 1).finished(), "Model::fit", 2); }),
              HasSubstr("expected at least 2 sample(s) of each class 0..1, found only 1 of class 1"));
}

TEST(ValidateTest, FitDataChecksComeInTheDocumentedOrder) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor X = Tensor::Zero(3, 2), empty(0, 2);
  Tensor X_nan = X;
  X_nan(2, 1) = nan;
  const Vector y = (Vector(3) << 1, 2, 3).finished(), y_nan = (Vector(3) << 1, nan, 3).finished(),
               short_y = (Vector(2) << 0, 1).finished(), labels = (Vector(3) << 0, 2, 1).finished(),
               gap = (Vector(3) << 0, 2, 2).finished(), one_class = Vector::Zero(3),
               fraction = (Vector(3) << 0, 1, 0.5).finished();
  // check_fit_data: empty, then finite.
  check_fit_data(X, "Model::fit");
  EXPECT_EQ(message_of<ValueError>([&] { check_fit_data(empty, "Model::fit"); }),
            "Model::fit: expected a non-empty input, found 0×2");
  EXPECT_EQ(message_of<ValueError>([&] { check_fit_data(X_nan, "Model::fit"); }),
            "Model::fit: expected finite values, found nan at row 2, column 1");
  // check_regression_data: empty, lengths, finite X, sample count, finite y.
  check_regression_data(X, y, "Reg::fit", 3);
  EXPECT_THROW(check_regression_data(empty, Vector(0), "Reg::fit"), ValueError);
  EXPECT_EQ(message_of<ShapeError>([&] { check_regression_data(X_nan, short_y, "Reg::fit"); }),
            "Reg::fit: expected one target per row of X (3 rows), found 2 targets");
  EXPECT_THAT(message_of<ValueError>([&] { check_regression_data(X_nan, y_nan, "Reg::fit", 4); }),
              HasSubstr("at row 2, column 1"));
  EXPECT_EQ(message_of<ValueError>([&] { check_regression_data(X, y_nan, "Reg::fit", 4); }),
            "Reg::fit: expected at least 4 samples, found 3");
  EXPECT_EQ(message_of<ValueError>([&] { check_regression_data(X, y_nan, "Reg::fit"); }),
            "Reg::fit: expected finite values, found nan at row 1");
  // check_classification_data: empty, lengths, finite X, classes.
  EXPECT_EQ(check_classification_data(X, labels, "Clf::fit"), 3);
  EXPECT_EQ(check_classification_data(X, gap, "Clf::fit", 0), 3);
  EXPECT_THROW(check_classification_data(X, gap, "Clf::fit"), ValueError);  // no sample of class 1
  EXPECT_THROW(check_classification_data(empty, Vector(0), "Clf::fit"), ValueError);
  EXPECT_THROW(check_classification_data(X_nan, short_y, "Clf::fit"), ShapeError);
  EXPECT_THAT(message_of<ValueError>([&] { check_classification_data(X_nan, one_class, "Clf::fit"); }),
              HasSubstr("Clf::fit: expected finite values"));
  EXPECT_EQ(message_of<ValueError>([&] { check_classification_data(X, one_class, "Clf::fit"); }),
            "Clf::fit: expected at least two classes, found only class 0");
  EXPECT_THAT(message_of<ValueError>([&] { check_classification_data(X, fraction, "Clf::fit"); }),
              HasSubstr("found 0.5 at row 2"));
}

}  // namespace
}  // namespace dagml
