// Tests for the shared input checks.
#include "models/data/validate.h"

#include <gtest/gtest.h>

#include <limits>

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

}  // namespace
}  // namespace dagml
