// The shared label conventions: which class a zero score gets, argmax and vote ties, and the
// class checks with their messages.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/classify/one_vs_rest.h"
#include "models/classify/score_labels.h"
#include "discriminative_test_util.h"

namespace dagml {
namespace {

using test::rows;
using test::vec;
using ::testing::HasSubstr;

TEST(ScoreLabels, ZeroScoreConventions) {
  const Vector f = vec({-1, 0, 2});
  EXPECT_EQ(labels_from_scores(f), vec({0, 1, 1}));                       // scikit-learn, notes 003/004
  EXPECT_EQ(labels_from_scores(f, ZeroScore::Negative), vec({0, 0, 1}));  // notes 001: f ≤ 0 → negative
}

TEST(ScoreLabels, ArgmaxTiesGoToTheLowestIndex) {
  EXPECT_EQ(argmax_rows(rows({{1, 3, 3}, {5, 5, 5}, {0, -1, 2}})), vec({1, 0, 2}));
}

TEST(ScoreLabels, ClassChecksSayWhatIsWrong) {
  try {
    check_classes(vec({1, 1, 1}), "Model::fit");
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_THAT(e.what(), HasSubstr("Model::fit: expected at least two classes, found only class 1"));
  }
  try {
    check_classes(vec({0, 2, 2}), "Model::fit");
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_THAT(e.what(), HasSubstr("found no sample of class 1"));
  }
  EXPECT_THROW(check_classes(vec({0, 1.5}), "Model::fit"), ValueError);
  EXPECT_THROW(check_classes(vec({0, -1}), "Model::fit"), ValueError);
  EXPECT_EQ(check_classes(vec({2, 0, 1, 0}), "Model::fit"), 3);
  EXPECT_EQ(check_classes(vec({0, 2, 2}), "Model::fit", 0), 3);  // 0: only the two-class check
  try {
    check_classes(vec({0, 0, 1}), "Model::fit", 2);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_THAT(e.what(), HasSubstr("expected at least 2 sample(s) of each class 0..1, found only 1 of class 1"));
  }
  try {
    binary_scores(rows({{1, 2}}));
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_THAT(e.what(), HasSubstr("found 1×2"));
  }
}

}  // namespace
}  // namespace dagml
