// Impurities, information gains and sorted-scan split costs against the hand-computed cases of
// the notes (spec extracts notes000_part2.md §2.1 item 7–8, notes001_003.md D10, notes004.md
// §2 "Impurities" and "Decision split").
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "graph/error.h"
#include "models/tree/decision_tree_classifier.h"
#include "models/tree/decision_tree_regressor.h"
#include "models/tree/split_criterion.h"

namespace dagml {
namespace {

using tree::entropy_impurity;
using tree::gini_impurity;
using tree::misclassification_impurity;

constexpr double kTol = 1e-6;  // the notes print six decimals

// Weighted child impurity (W_L i_L + W_R i_R) / W of a split given as class counts.
template <class F>
double conditional(F impurity, const std::vector<double>& left, const std::vector<double>& right) {
  double wl = 0, wr = 0;
  for (double c : left) wl += c;
  for (double c : right) wr += c;
  return (wl * impurity(left) + wr * impurity(right)) / (wl + wr);
}

TEST(TreeImpurity, Notes004Table) {
  // notes 004 §2 "Impurities": η, misclassification, Gini, entropy (nats), entropy (bits).
  EXPECT_NEAR(misclassification_impurity(std::vector<double>{1, 1}), 0.5, 1e-12);
  EXPECT_NEAR(gini_impurity(std::vector<double>{1, 1}), 0.5, 1e-12);
  EXPECT_NEAR(entropy_impurity(std::vector<double>{1, 1}, std::exp(1.0)), 0.6931471806, 1e-10);
  EXPECT_NEAR(entropy_impurity(std::vector<double>{1, 1}), 1.0, 1e-12);
  EXPECT_NEAR(misclassification_impurity(std::vector<double>{1, 3}), 0.25, 1e-12);
  EXPECT_NEAR(gini_impurity(std::vector<double>{1, 3}), 0.375, 1e-12);  // = 2η(1 − η), notes 004 erratum 9
  EXPECT_NEAR(entropy_impurity(std::vector<double>{1, 3}, std::exp(1.0)), 0.5623351446, 1e-10);
  EXPECT_NEAR(misclassification_impurity(std::vector<double>{2, 1, 1}), 0.5, 1e-12);
  EXPECT_NEAR(gini_impurity(std::vector<double>{2, 1, 1}), 0.625, 1e-12);
  EXPECT_NEAR(entropy_impurity(std::vector<double>{2, 1, 1}, std::exp(1.0)), 1.0397207708, 1e-10);
  EXPECT_NEAR(entropy_impurity(std::vector<double>{2, 1, 1}), 1.5, 1e-12);
  for (auto f : {gini_impurity, misclassification_impurity}) EXPECT_EQ(f(std::vector<double>{0, 5, 0}), 0.0);
  EXPECT_EQ(entropy_impurity(std::vector<double>{0, 5, 0}), 0.0);
}

TEST(TreeImpurity, Notes000SpamHamSplitGainsNothing) {
  // notes 000 L4689: (20 ham, 10 spam) split into (12, 6) and (8, 4).
  const std::vector<double> parent{20, 10}, left{12, 6}, right{8, 4};
  EXPECT_NEAR(entropy_impurity(parent), 0.918296, kTol);
  EXPECT_NEAR(entropy_impurity(parent, std::exp(1.0)), 0.636514, kTol);
  EXPECT_NEAR(gini_impurity(parent), 4.0 / 9, 1e-12);
  auto H = [](const std::vector<double>& c) { return entropy_impurity(c); };
  EXPECT_NEAR(entropy_impurity(parent) - conditional(H, left, right), 0.0, 1e-12);
}

TEST(TreeImpurity, Notes000MisclassificationCannotRankTheTwoSplits) {
  // notes 000 L4713–4723: 40/40 parent; split 1 (30,10 | 10,30), split 2 (20,40 | 20,0).
  const std::vector<double> parent{40, 40};
  const std::vector<double> l1{30, 10}, r1{10, 30}, l2{20, 40}, r2{20, 0};
  auto M = [](const std::vector<double>& c) { return misclassification_impurity(c); };
  auto H = [](const std::vector<double>& c) { return entropy_impurity(c); };
  auto Hn = [](const std::vector<double>& c) { return entropy_impurity(c, std::exp(1.0)); };
  auto G = [](const std::vector<double>& c) { return gini_impurity(c); };
  EXPECT_NEAR(M(parent), 0.5, 1e-12);
  EXPECT_NEAR(conditional(M, l1, r1), 0.25, 1e-12);
  EXPECT_NEAR(conditional(M, l2, r2), 0.25, 1e-12);
  EXPECT_NEAR(conditional(H, l1, r1), 0.811278, kTol);
  EXPECT_NEAR(1 - conditional(H, l1, r1), 0.188722, kTol);
  EXPECT_NEAR(conditional(H, l2, r2), 0.688722, kTol);
  EXPECT_NEAR(1 - conditional(H, l2, r2), 0.311278, kTol);
  EXPECT_NEAR(Hn(parent), 0.693147, kTol);
  EXPECT_NEAR(conditional(Hn, l1, r1), 0.562335, kTol);
  EXPECT_NEAR(conditional(Hn, l2, r2), 0.477386, kTol);
  EXPECT_NEAR(Hn(parent) - conditional(Hn, l2, r2), 0.215762, kTol);
  EXPECT_NEAR(conditional(G, l1, r1), 0.375, 1e-12);
  EXPECT_NEAR(conditional(G, l2, r2), 1.0 / 3, 1e-12);
}

// The sorted-scan updates: rows pushed left one at a time in x order give the notes' split cost
// after every row.
TEST(TreeSortedScan, Notes001EntropyTable) {
  // notes 001 D10: x = 1..6, y = [0,0,1,1,1,0]; weighted child entropy (bits) after k left rows.
  const Vector y = (Vector(6) << 0, 0, 1, 1, 1, 0).finished(), w = Vector::Ones(6);
  tree::ClassCountCriterion c({.y = &y, .weight = &w, .num_classes = 2}, tree::ImpurityKind::Entropy);
  const std::vector<Index> rows{0, 1, 2, 3, 4, 5};
  c.init(rows);
  EXPECT_NEAR(c.node_impurity(), 1.0, 1e-12);
  const double expected[] = {0.809125, 0.540852, 0.918296, 1.0, 0.809125};
  for (Index k = 0; k < 5; ++k) {
    c.push_left(k);
    const auto [l, r] = c.children_impurity();
    EXPECT_NEAR((c.left_weight() * l + (6 - c.left_weight()) * r) / 6, expected[k], kTol) << k + 1 << " left";
    EXPECT_NEAR(-c.score() / 6, expected[k], kTol);
  }
}

TEST(TreeSortedScan, Notes004GiniAndEntropyGains) {
  // notes 004 "Decision split": x = 1..6, y = [1,1,0,0,1,0], left x < v for v = 2..6.
  const Vector y = (Vector(6) << 1, 1, 0, 0, 1, 0).finished(), w = Vector::Ones(6);
  const std::vector<Index> rows{0, 1, 2, 3, 4, 5};
  const double gini_gain[] = {0.1, 0.25, 0.0555555556, 0, 0.1};
  const double entropy_gain[] = {0.1323041247, 0.3182570841, 0.0566330123, 0, 0.1323041247};
  tree::ClassCountCriterion g({.y = &y, .weight = &w, .num_classes = 2}, tree::ImpurityKind::Gini);
  tree::ClassCountCriterion h({.y = &y, .weight = &w, .num_classes = 2, .entropy_base = std::exp(1.0)},
                              tree::ImpurityKind::Entropy);
  g.init(rows);
  h.init(rows);
  for (Index k = 0; k < 5; ++k) {
    g.push_left(k);
    h.push_left(k);
    EXPECT_NEAR(g.node_impurity() + g.score() / 6, gini_gain[k], 1e-9) << "v = " << k + 2;
    EXPECT_NEAR(h.node_impurity() + h.score() / 6, entropy_gain[k], 1e-9) << "v = " << k + 2;
  }
}

TEST(TreeSortedScan, RegressionCostsOfNotes001And004) {
  const std::vector<Index> rows{0, 1, 2, 3, 4, 5};
  const Vector w = Vector::Ones(6);
  // notes 001 D10: y = [1,2,2,8,9,10], the size-weighted mean of the child variances.
  const Vector y1 = (Vector(6) << 1, 2, 2, 8, 9, 10).finished();
  tree::SquaredErrorCriterion c1({.y = &y1, .weight = &w});
  c1.init(rows);
  const double cost1[] = {10.133333, 6.541667, 0.444444, 5.208333, 9.533333};
  // notes 004: y = [1,2,3,10,11,12], the summed squared error for v = 2..6.
  const Vector y2 = (Vector(6) << 1, 2, 3, 10, 11, 12).finished();
  tree::SquaredErrorCriterion c2({.y = &y2, .weight = &w});
  c2.init(rows);
  const double sse2[] = {89.2, 50.5, 4.0, 50.5, 89.2};
  for (Index k = 0; k < 5; ++k) {
    c1.push_left(k);
    c2.push_left(k);
    const auto [l1, r1] = c1.children_impurity();
    EXPECT_NEAR(((k + 1) * l1 + (5 - k) * r1) / 6, cost1[k], kTol);
    const auto [l2, r2] = c2.children_impurity();
    EXPECT_NEAR((k + 1) * l2 + (5 - k) * r2, sse2[k], 1e-9);
  }
}

TEST(TreeSortedScan, AbsoluteErrorMediansAndDeviations) {
  // y = [3, 1, 4, 1, 5, 9] in this x order, unit weights; every prefix against a direct count.
  const Vector y = (Vector(6) << 3, 1, 4, 1, 5, 9).finished();
  Vector w = Vector::Ones(6);
  w(5) = 2;  // the 9 counts twice
  const std::vector<Index> rows{0, 1, 2, 3, 4, 5};
  tree::AbsoluteErrorCriterion c({.y = &y, .weight = &w}, 6);
  c.init(rows);
  // Node: sorted 1,1,3,4,5,9,9 (weights) → W = 7, W/2 = 3.5: median 4, Σ|y − 4| = 3+3+1+0+1+5+5 = 18.
  Scalar value = 0;
  c.node_value({&value, 1});
  EXPECT_EQ(value, 4);
  EXPECT_NEAR(c.node_impurity(), 18.0 / 7, 1e-12);
  // Left {3, 1} (W = 2, cumulative 1 = W/2 exactly: median (1 + 3)/2 = 2, deviation 2);
  // right {4, 1, 5, 9, 9} (W = 5: median 5, deviation 1 + 4 + 0 + 4 + 4 = 13).
  c.push_left(0);
  c.push_left(1);
  const auto [l, r] = c.children_impurity();
  EXPECT_NEAR(l, 2.0 / 2, 1e-12);
  EXPECT_NEAR(r, 13.0 / 5, 1e-12);
  EXPECT_NEAR(c.score(), -15.0, 1e-12);
}

// Whole trees on the notes' data: the stump takes the notes' best split.
TEST(TreeStump, NotesBestSplits) {
  Tensor X(6, 1);
  X << 1, 2, 3, 4, 5, 6;
  DecisionTreeClassifier entropy({.criterion = ClassificationCriterion::Entropy, .growth = {.max_depth = 1}});
  entropy.fit(X, (Vector(6) << 0, 0, 1, 1, 1, 0).finished());  // notes 001 D10: β = 2.5
  const tree::Tree& t = entropy.tree();
  ASSERT_EQ(t.num_nodes(), 3);
  EXPECT_EQ(t.threshold[0], 2.5);
  EXPECT_NEAR(t.impurity[0], 1.0, 1e-12);
  EXPECT_NEAR(t.impurity[2], 0.811278, kTol);
  EXPECT_EQ(t.num_samples[1], 2);

  DecisionTreeClassifier nats({.criterion = ClassificationCriterion::Entropy,
                               .entropy_base = std::exp(1.0),
                               .growth = {.max_depth = 1}});
  nats.fit(X, (Vector(6) << 1, 1, 0, 0, 1, 0).finished());  // notes 004: v = 3, gain 0.3182570841 nats
  const tree::Tree& u = nats.tree();
  EXPECT_EQ(u.threshold[0], 2.5);
  EXPECT_NEAR(u.impurity[0] - (2 * u.impurity[1] + 4 * u.impurity[2]) / 6, 0.3182570841, 1e-9);

  DecisionTreeRegressor reg({.growth = {.max_depth = 1}});
  reg.fit(X, (Vector(6) << 1, 2, 2, 8, 9, 10).finished());  // notes 001 D10: β = 3.5, cost 0.444444
  const tree::Tree& v = reg.tree();
  EXPECT_EQ(v.threshold[0], 3.5);
  EXPECT_NEAR((3 * v.impurity[1] + 3 * v.impurity[2]) / 6, 0.444444, kTol);
  EXPECT_NEAR(reg.predict(Tensor::Constant(1, 1, 0.0))(0), 5.0 / 3, 1e-12);
  EXPECT_NEAR(reg.predict(Tensor::Constant(1, 1, 3.5))(0), 9.0, 1e-12);  // x ≥ θ goes right
}

}  // namespace
}  // namespace dagml
