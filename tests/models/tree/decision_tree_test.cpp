// Decision trees: options and bad input, growth rules, inspection (apply, decision paths,
// importances, text and DOT export) and cost-complexity pruning.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "graph/error.h"
#include "models/data/datasets.h"
#include "models/data/test_files.h"
#include "models/io/model_file.h"
#include "models/tree/decision_tree_classifier.h"
#include "models/tree/decision_tree_regressor.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

constexpr Scalar kNaN = std::numeric_limits<Scalar>::quiet_NaN();

Dataset iris() { return load_dataset("iris"); }

TEST(DecisionTree, BadOptionsAreValueErrors) {
  auto classifier = [](TreeGrowthOptions g) { DecisionTreeClassifier m({.growth = g}); };
  EXPECT_THROW(classifier({.max_depth = -2}), ValueError);
  EXPECT_THROW(classifier({.min_samples_split = 1}), ValueError);
  EXPECT_THROW(classifier({.min_samples_leaf = 0}), ValueError);
  EXPECT_THROW(classifier({.min_impurity_decrease = -0.1}), ValueError);
  EXPECT_THROW(classifier({.max_leaf_nodes = 1}), ValueError);
  EXPECT_THROW(classifier({.ccp_alpha = -1}), ValueError);
  EXPECT_THAT([&] { classifier({.max_features = MaxFeatures::Count, .max_features_count = 0}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected max_features_count ≥ 1")));
  EXPECT_THROW(DecisionTreeRegressor({.growth = {.min_samples_leaf = 0}}), ValueError);
  EXPECT_THROW(DecisionTreeClassifier({.entropy_base = 1}), ValueError);
  EXPECT_THROW(DecisionTreeClassifier({.class_weights = (Vector(2) << 1, -1).finished()}), ValueError);
  EXPECT_THROW(DecisionTreeClassifier({.class_weights = Vector::Ones(2), .balanced_class_weights = true}), ValueError);
}

TEST(DecisionTree, BadDataIsATypedError) {
  const Dataset d = iris();
  // max_features out of range for the data: 5 of 4 features.
  DecisionTreeClassifier too_many({.growth = {.max_features = MaxFeatures::Count, .max_features_count = 5}});
  EXPECT_THAT([&] { too_many.fit(d.features, d.target); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected max_features_count ≤ the 4 features of X, found 5")));
  // NaN in X is rejected (not routed), at fit and at prediction.
  Tensor X = d.features;
  X(4, 2) = kNaN;
  EXPECT_THAT([&] { DecisionTreeClassifier().fit(X, d.target); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected finite values")));
  DecisionTreeClassifier fitted;
  fitted.fit(d.features, d.target);
  EXPECT_THROW(fitted.predict(X), ValueError);
  EXPECT_THROW(fitted.apply(X), ValueError);
  // NaN in the targets.
  Vector y = d.target;
  y(3) = kNaN;
  EXPECT_THROW(DecisionTreeClassifier().fit(d.features, y), ValueError);
  EXPECT_THROW(DecisionTreeRegressor().fit(d.features, y), ValueError);
  // All labels equal: a classifier needs two classes.
  EXPECT_THAT([&] { DecisionTreeClassifier().fit(d.features, Vector::Zero(d.target.size())); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected")));
  // Sample weights and class weights.
  EXPECT_THROW(DecisionTreeClassifier().fit(d.features, d.target, Vector::Ones(3)), ShapeError);
  Vector w = Vector::Ones(d.target.size());
  w(0) = -1;
  EXPECT_THROW(DecisionTreeClassifier().fit(d.features, d.target, w), ValueError);
  EXPECT_THROW(DecisionTreeRegressor().fit(d.features, d.target, Vector::Zero(d.target.size())), ValueError);
  EXPECT_THAT([&] { DecisionTreeClassifier({.class_weights = Vector::Ones(2)}).fit(d.features, d.target); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected 3 class weights")));
  // Not fitted.
  EXPECT_THROW(DecisionTreeRegressor().predict(d.features), NotFittedError);
  EXPECT_THROW(DecisionTreeClassifier().export_text(), NotFittedError);
  EXPECT_THROW(DecisionTreeClassifier().feature_importances(), NotFittedError);
}

TEST(DecisionTree, DegenerateDataGiveASingleLeaf) {
  // Constant features: no split exists.
  const Tensor constant = Tensor::Constant(10, 3, 2.5);
  Vector y(10);
  for (Index i = 0; i < 10; ++i) y(i) = static_cast<Scalar>(i % 2);
  DecisionTreeClassifier c;
  c.fit(constant, y);
  EXPECT_EQ(c.num_nodes(), 1);
  EXPECT_EQ(c.predict_proba(constant).row(0), (Tensor(1, 2) << 0.5, 0.5).finished());
  EXPECT_EQ(c.feature_importances(), Vector::Zero(3));
  // A regressor on one row, or on constant targets.
  DecisionTreeRegressor r;
  r.fit(Tensor::Ones(1, 2), Vector::Constant(1, 7.0));
  EXPECT_EQ(r.num_nodes(), 1);
  EXPECT_EQ(r.predict(Tensor::Zero(2, 2)), Vector::Constant(2, 7.0));
  r.fit(iris().features, Vector::Constant(150, -3.0));
  EXPECT_EQ(r.num_nodes(), 1);
  EXPECT_EQ(r.depth(), 0);
}

TEST(DecisionTree, FullyGrownTreeFitsTheTrainingData) {
  const Dataset d = iris();
  DecisionTreeClassifier m;
  m.fit(d.features, d.target);
  // No two identical iris rows have different classes, so a fully grown tree is exact.
  EXPECT_EQ(m.score(d.features, d.target), 1.0);
  for (Index t = 0; t < m.num_nodes(); ++t) {
    if (m.tree().is_leaf(t)) {
      EXPECT_EQ(m.tree().impurity[static_cast<std::size_t>(t)], 0.0);
    }
  }
}

TEST(DecisionTree, GrowthLimitsHold) {
  const Dataset d = load_dataset("breast_cancer");
  DecisionTreeClassifier deep({.growth = {.max_depth = 4, .min_samples_leaf = 7}});
  deep.fit(d.features, d.target);
  EXPECT_LE(deep.depth(), 4);
  for (Index t = 0; t < deep.num_nodes(); ++t) EXPECT_GE(deep.tree().num_samples[static_cast<std::size_t>(t)], 7);
  DecisionTreeClassifier split({.growth = {.min_samples_split = 40}});
  split.fit(d.features, d.target);
  for (Index t = 0; t < split.num_nodes(); ++t) {
    if (!split.tree().is_leaf(t)) {
      EXPECT_GE(split.tree().num_samples[static_cast<std::size_t>(t)], 40);
    }
  }
  for (Index leaves : {2, 5, 9}) {
    DecisionTreeClassifier best({.growth = {.max_leaf_nodes = leaves}});
    best.fit(d.features, d.target);
    EXPECT_EQ(best.num_leaves(), leaves);
  }
}

TEST(DecisionTree, IntegerSampleWeightsEqualRepeatedRows) {
  const Dataset d = load_dataset("diabetes");
  const Index n = d.features.rows();
  Vector w(n);
  for (Index i = 0; i < n; ++i) w(i) = static_cast<Scalar>(i % 3);  // 0, 1 or 2 copies
  Index m = 0;
  for (Index i = 0; i < n; ++i) m += static_cast<Index>(w(i));
  Tensor X(m, d.features.cols());
  Vector y(m);
  for (Index i = 0, r = 0; i < n; ++i)
    for (Index c = 0; c < static_cast<Index>(w(i)); ++c, ++r) {
      X.row(r) = d.features.row(i);
      y(r) = d.target(i);
    }
  for (auto criterion : {RegressionCriterion::SquaredError, RegressionCriterion::AbsoluteError}) {
    DecisionTreeRegressor weighted({.criterion = criterion, .growth = {.max_depth = 3}});
    DecisionTreeRegressor repeated({.criterion = criterion, .growth = {.max_depth = 3}});
    weighted.fit(d.features, d.target, w);
    repeated.fit(X, y);
    const tree::Tree &a = weighted.tree(), &b = repeated.tree();
    ASSERT_EQ(a.num_nodes(), b.num_nodes());
    EXPECT_EQ(a.feature, b.feature);
    EXPECT_EQ(a.threshold, b.threshold);
    for (Index t = 0; t < a.num_nodes(); ++t) {
      const auto u = static_cast<std::size_t>(t);
      EXPECT_NEAR(a.impurity[u], b.impurity[u], 1e-9 * std::max(1.0, b.impurity[u]));
      EXPECT_EQ(a.weighted_samples[u], b.weighted_samples[u]);
      EXPECT_NEAR(a.value(t)[0], b.value(t)[0], 1e-9 * std::abs(b.value(t)[0]));
    }
  }
}

TEST(DecisionTree, RandomFeatureSubsetsAreSeeded) {
  const Dataset d = load_dataset("breast_cancer");
  auto fit = [&](std::uint64_t seed) {
    DecisionTreeClassifier m({.growth = {.max_depth = 5, .max_features = MaxFeatures::Sqrt, .seed = seed}});
    m.fit(d.features, d.target);
    return m;
  };
  EXPECT_EQ(fit(3).to_bytes(), fit(3).to_bytes());
  EXPECT_NE(fit(3).tree().feature, fit(4).tree().feature);
  EXPECT_NE(fit(3).tree().feature, DecisionTreeClassifier({.growth = {.max_depth = 5}}).fit(d.features, d.target).tree().feature);
}

TEST(DecisionTree, ApplyDecisionPathAndPredictAgree) {
  const Dataset d = iris();
  DecisionTreeClassifier m({.growth = {.max_depth = 3}});
  m.fit(d.features, d.target);
  const std::vector<Index> leaves = m.apply(d.features);
  const auto paths = m.decision_path(d.features);
  const Tensor proba = m.predict_proba(d.features);
  const tree::Tree& t = m.tree();
  for (Index i = 0; i < d.features.rows(); ++i) {
    const auto& path = paths[static_cast<std::size_t>(i)];
    ASSERT_FALSE(path.empty());
    EXPECT_EQ(path.front(), 0);
    EXPECT_EQ(path.back(), leaves[static_cast<std::size_t>(i)]);
    EXPECT_TRUE(t.is_leaf(path.back()));
    for (std::size_t s = 0; s + 1 < path.size(); ++s) {
      const auto u = static_cast<std::size_t>(path[s]);
      const bool left = d.features(i, t.feature[u]) < t.threshold[u];
      EXPECT_EQ(path[s + 1], left ? t.left[u] : t.right[u]);
    }
    for (Index k = 0; k < 3; ++k) EXPECT_EQ(proba(i, k), t.value(path.back())[k]);
  }
  EXPECT_NEAR(m.feature_importances().sum(), 1.0, 1e-12);
}

TEST(DecisionTree, TextAndDotExport) {
  // Two classes split at x₀ < 2.5: one split, two pure leaves.
  Tensor X(4, 2);
  X << 1, 0, 2, 0, 3, 0, 4, 0;
  DecisionTreeClassifier m;
  m.fit(X, (Vector(4) << 0, 0, 1, 1).finished());
  EXPECT_EQ(m.export_text(),
            "|--- x[0] < 2.5\n"
            "|   |--- class: 0\n"
            "|--- x[0] >= 2.5\n"
            "|   |--- class: 1\n");
  EXPECT_EQ(m.export_text({.feature_names = {"width", "height"}, .class_names = {"no", "yes"}}),
            "|--- width < 2.5\n"
            "|   |--- class: no\n"
            "|--- width >= 2.5\n"
            "|   |--- class: yes\n");
  EXPECT_EQ(m.export_dot({.feature_names = {"w\"q", "h"}}),
            "digraph Tree {\n"
            "node [shape=box, fontname=\"helvetica\"] ;\n"
            "edge [fontname=\"helvetica\"] ;\n"
            "0 [label=\"w\\\"q < 2.5\\ngini = 0.5\\nsamples = 4\\nvalue = [0.5, 0.5]\\nclass = 0\"] ;\n"
            "1 [label=\"gini = 0\\nsamples = 2\\nvalue = [1, 0]\\nclass = 0\"] ;\n"
            "2 [label=\"gini = 0\\nsamples = 2\\nvalue = [0, 1]\\nclass = 1\"] ;\n"
            "0 -> 1 [labeldistance=2.5, labelangle=45, headlabel=\"True\"] ;\n"
            "0 -> 2 [labeldistance=2.5, labelangle=-45, headlabel=\"False\"] ;\n"
            "}\n");
  EXPECT_THROW(m.export_text({.feature_names = {"only one"}}), ValueError);
  DecisionTreeRegressor r({.growth = {.max_depth = 1}});
  r.fit(X, (Vector(4) << 1, 1, 3, 5).finished());
  EXPECT_EQ(r.export_text(),
            "|--- x[0] < 2.5\n"
            "|   |--- value: [1]\n"
            "|--- x[0] >= 2.5\n"
            "|   |--- value: [4]\n");
  // A deeper tree: one line per node plus one per split.
  const Dataset d = iris();
  DecisionTreeClassifier deep;
  deep.fit(d.features, d.target);
  const std::string text = deep.export_text({.feature_names = d.feature_names});
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), deep.num_nodes() + (deep.num_nodes() - deep.num_leaves()));
}

TEST(DecisionTree, PruningFollowsThePath) {
  const Dataset d = load_dataset("breast_cancer");
  const DecisionTreeClassifier base;
  const tree::CostComplexityPath path = base.cost_complexity_pruning_path(d.features, d.target);
  ASSERT_GE(path.ccp_alphas.size(), 3);
  EXPECT_EQ(path.ccp_alphas(0), 0.0);
  for (Index k = 1; k < path.ccp_alphas.size(); ++k) {
    EXPECT_GE(path.ccp_alphas(k), path.ccp_alphas(k - 1) - 1e-12);
    EXPECT_GE(path.impurities(k), path.impurities(k - 1) - 1e-12);
  }
  // Pruning at α collapses every step of the path up to the first whose α exceeds it: the pruned
  // tree's total leaf impurity R(T) is the path's impurity at the step before.
  for (Index k : {Index(1), path.ccp_alphas.size() / 2, path.ccp_alphas.size() - 1}) {
    const Scalar alpha = path.ccp_alphas(k);
    DecisionTreeClassifier m({.growth = {.ccp_alpha = alpha}});
    m.fit(d.features, d.target);
    const tree::Tree& t = m.tree();
    Scalar R = 0;
    for (Index s = 0; s < t.num_nodes(); ++s) {
      const auto u = static_cast<std::size_t>(s);
      if (t.is_leaf(s)) R += t.weighted_samples[u] * t.impurity[u] / t.weighted_samples[0];
    }
    Index next = 1;
    while (next < path.ccp_alphas.size() && path.ccp_alphas(next) <= alpha) ++next;
    EXPECT_NEAR(R, path.impurities(next - 1), 1e-12) << "alpha " << alpha;
    EXPECT_EQ(t.check(d.features.cols(), 2), "");
  }
  DecisionTreeClassifier root({.growth = {.ccp_alpha = path.ccp_alphas(path.ccp_alphas.size() - 1)}});
  root.fit(d.features, d.target);
  EXPECT_EQ(root.num_nodes(), 1);
}

}  // namespace
}  // namespace dagml

namespace dagml {
namespace {

TEST(TreeModelLayout, LayoutOneFilesAreRefusedNamingBothLayouts) {
  // Note [Tree model layouts]: a file of layout 1 (growth options without splitter and max_bins)
  // is a ParseError that names both layouts; the current layout round-trips.
  const Tensor X = load_dataset("iris").features;
  const Vector y = load_dataset("iris").target;
  const DecisionTreeClassifier tree = DecisionTreeClassifier({.growth = {.max_depth = 2}}).fit(X, y);
  const std::string bytes = tree.to_bytes();
  EXPECT_EQ(testing::load_bytes<DecisionTreeClassifier>(bytes).predict(X), tree.predict(X));
  const ModelFile file(bytes, "tree.dagml");
  const std::string payload = bytes.substr(bytes.size() - file.payload().remaining());
  try {
    testing::load_bytes<DecisionTreeClassifier>(frame_model_file(DecisionTreeClassifier::kTypeName, 1, payload));
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("tree layout 1, which this dagml reads no longer (layout 2"));
  }
}

}  // namespace
}  // namespace dagml
