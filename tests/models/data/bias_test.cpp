// Tests for add_bias_column.
#include "models/data/bias.h"

#include <gtest/gtest.h>

#include <limits>

#include "graph/error.h"

namespace dagml {
namespace {

TEST(BiasTest, FirstOrLast) {
  Tensor X(2, 2);
  X << 1, 2, 3, 4;
  EXPECT_EQ(add_bias_column(X, BiasPosition::First), (Tensor(2, 3) << 1, 1, 2, 1, 3, 4).finished());
  EXPECT_EQ(add_bias_column(X, BiasPosition::Last), (Tensor(2, 3) << 1, 2, 1, 3, 4, 1).finished());
  EXPECT_EQ(add_bias_column(X, BiasPosition::Last, -2).col(2), Vector::Constant(2, -2));
  EXPECT_EQ(add_bias_column(Tensor(3, 0), BiasPosition::First), Tensor::Ones(3, 1));
}

TEST(BiasTest, RejectsNonFinite) {
  Tensor X = Tensor::Zero(2, 2);
  X(1, 0) = std::numeric_limits<double>::infinity();
  EXPECT_THROW(add_bias_column(X, BiasPosition::First), ValueError);
  EXPECT_THROW(add_bias_column(Tensor::Zero(1, 1), BiasPosition::First, std::nan("")), ValueError);
}

}  // namespace
}  // namespace dagml
