// Tests for the label conversions: {0..K−1} ⇄ one-hot, {0,1} ⇄ {−1,+1}, class counts.
#include "models/data/labels.h"

#include <gtest/gtest.h>

#include "graph/error.h"

namespace dagml {
namespace {

TEST(LabelsTest, OneHotAndBack) {
  const Vector y = (Vector(4) << 2, 0, 1, 2).finished();
  const Tensor Y = to_one_hot(y);
  EXPECT_EQ(Y, (Tensor(4, 3) << 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1).finished());
  EXPECT_EQ(from_one_hot(Y), y);
  EXPECT_EQ(to_one_hot(y, 5).cols(), 5);
  EXPECT_EQ(to_one_hot(Vector(0), 2).rows(), 0);
}

TEST(LabelsTest, OneHotRejectsBadInput) {
  EXPECT_THROW(to_one_hot((Vector(2) << 0, 1.5).finished()), ValueError);
  EXPECT_THROW(to_one_hot((Vector(2) << 0, -1).finished()), ValueError);
  EXPECT_THROW(to_one_hot((Vector(2) << 0, 3).finished(), 3), ValueError);
  EXPECT_THROW(to_one_hot(Vector(0)), ValueError);
  EXPECT_THROW(from_one_hot(Tensor(2, 0)), ShapeError);
  try {
    from_one_hot((Tensor(2, 2) << 1, 0, 1, 1).finished());
    ADD_FAILURE();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("row 1, column 1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(from_one_hot((Tensor(1, 2) << 0, 0).finished()), ValueError);
  EXPECT_THROW(from_one_hot((Tensor(1, 2) << 0.3, 0.7).finished()), ValueError);
}

TEST(LabelsTest, PlusMinusAndBack) {
  const Vector y = (Vector(3) << 0, 1, 1).finished();
  const Vector s = to_plus_minus(y);
  EXPECT_EQ(s, (Vector(3) << -1, 1, 1).finished());
  EXPECT_EQ(from_plus_minus(s), y);
  EXPECT_THROW(to_plus_minus((Vector(1) << 2).finished()), ValueError);
  EXPECT_THROW(from_plus_minus((Vector(1) << 0).finished()), ValueError);
}

TEST(LabelsTest, ClassCounts) {
  EXPECT_EQ(class_counts((Vector(5) << 0, 2, 2, 0, 2).finished()), (std::vector<Index>{2, 0, 3}));
  EXPECT_EQ(class_counts((Vector(1) << 0).finished(), 3), (std::vector<Index>{1, 0, 0}));
}

}  // namespace
}  // namespace dagml
