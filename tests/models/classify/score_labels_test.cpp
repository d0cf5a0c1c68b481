// The shared label conventions: which class a zero score gets, argmax ties and NaN, softmax's
// special rows (Note [Ties and NaN in per-class scores]).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "graph/error.h"
#include "literals.h"
#include "models/classify/one_vs_rest.h"
#include "models/classify/score_labels.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using testing::rows;
using testing::vec;

TEST(ScoreLabels, ZeroScoreConventions) {
  const Vector f = vec({-1, 0, 2});
  EXPECT_EQ(labels_from_scores(f), vec({0, 1, 1}));                       // scikit-learn, notes 003/004
  EXPECT_EQ(labels_from_scores(f, ZeroScore::Negative), vec({0, 0, 1}));  // notes 001: f ≤ 0 → negative
}

using testing::kInf;
using testing::kNaN;

TEST(ScoreLabels, ArgmaxTiesGoToTheLowestIndex) {
  // numpy.argmax([[1, 3, 3], [5, 5, 5], [0, -1, 2]], axis=1) = [1, 0, 2].
  EXPECT_EQ(argmax_rows(rows({{1, 3, 3}, {5, 5, 5}, {0, -1, 2}})), vec({1, 0, 2}));
  // −∞ is an ordinary value: an all −∞ row ties everywhere; +∞ is the largest value.
  EXPECT_EQ(argmax_rows(rows({{-kInf, -kInf, -kInf}, {-kInf, 0, kInf}, {kInf, 1, kInf}})), vec({0, 2, 0}));
  EXPECT_EQ(argmax_rows(Tensor(0, 3)).size(), 0);
  EXPECT_THAT([] { argmax_rows(Tensor(2, 0)); }, ::testing::ThrowsMessage<ShapeError>(HasSubstr("found 2×0")));
}

TEST(ScoreLabels, ArgmaxTakesTheFirstNaNAsNumpyAndPyTorchDo) {
  // numpy.argmax([[nan, 5, 1], [0, nan, 9], [1, 2, nan], [3, nan, nan], [kInf, nan, 0]], axis=1)
  // = [0, 1, 2, 1, 1] (NaN compares larger than everything; torch.argmax agrees).
  EXPECT_EQ(argmax_rows(rows({{kNaN, 5, 1}, {0, kNaN, 9}, {1, 2, kNaN}, {3, kNaN, kNaN}, {kInf, kNaN, 0}})),
            vec({0, 1, 2, 1, 1}));
}

TEST(ScoreLabels, SoftmaxIsShiftedAndItsSpecialRowsAreDocumented) {
  const Tensor s = rows({{1, 2, 3}, {1000, 1000, 0}, {-kInf, 0, 0}, {-kInf, -kInf, -kInf}});
  const Tensor p = softmax_rows(s), logp = log_softmax_rows(s);
  // Row 0: e^{s_k} / Σ e^{s_j}.
  const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  EXPECT_NEAR(p(0, 0), std::exp(1.0) / z, 1e-15);
  EXPECT_NEAR(p(0, 2), std::exp(3.0) / z, 1e-15);
  EXPECT_NEAR(logp(0, 1), 2 - std::log(z), 1e-14);
  // Row 1: no overflow; exp(−1000) underflows to 0.
  EXPECT_DOUBLE_EQ(p(1, 0), 0.5);
  EXPECT_DOUBLE_EQ(p(1, 1), 0.5);
  EXPECT_EQ(p(1, 2), 0);
  EXPECT_NEAR(logp(1, 2), -1000 - std::log(2.0), 1e-12);
  // Row 2: an impossible class gets probability 0 and log-probability −∞.
  EXPECT_EQ(p(2, 0), 0);
  EXPECT_DOUBLE_EQ(p(2, 1), 0.5);
  EXPECT_EQ(logp(2, 0), -kInf);
  // Row 3: every class impossible → uniform.
  for (Index k = 0; k < 3; ++k) {
    EXPECT_DOUBLE_EQ(p(3, k), 1.0 / 3);
    EXPECT_DOUBLE_EQ(logp(3, k), -std::log(3.0));
  }
  EXPECT_TRUE(p.rowwise().sum().isApprox(Tensor::Ones(4, 1), 1e-15));
  EXPECT_EQ(softmax_rows(Tensor(3, 0)).cols(), 0);
}

TEST(ScoreLabels, SoftmaxPropagatesNaNAndPlusInfinityToTheWholeRow) {
  // scipy.special.softmax([nan, 1, 2]) and softmax([inf, 1, 2]) are all NaN; other rows are
  // untouched.
  const Tensor s = rows({{kNaN, 1, 2}, {0, 0, 0}, {kInf, 1, 2}, {-kInf, kNaN, -kInf}});
  for (const Tensor& p : {softmax_rows(s), log_softmax_rows(s)}) {
    for (Index i : {0, 2, 3}) EXPECT_TRUE(p.row(i).array().isNaN().all()) << "row " << i;
    EXPECT_FALSE(p.row(1).hasNaN());
  }
  EXPECT_TRUE(softmax_rows(s).row(1).isApprox(Tensor::Constant(1, 3, 1.0 / 3)));
}

TEST(ScoreLabels, BinaryScoresOfOneVsRestNeedOneColumn) {
  try {
    binary_scores(rows({{1, 2}}));
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_THAT(e.what(), HasSubstr("found 1×2"));
  }
}

}  // namespace
}  // namespace dagml
