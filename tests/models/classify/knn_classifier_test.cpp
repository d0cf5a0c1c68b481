// Tests for KnnClassifier and the shared NeighborSearch: predictions equal scikit-learn's on the
// bundled data (sklearn_reference.h), the hand-computed table D9 of notes001_003.md, tie rules,
// distances (Euclidean, Minkowski, kernel), k-d tree = brute force, thread-count independence,
// bad input and save/load.
#include "models/classify/knn_classifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>

#include "graph/error.h"
#include "graph/threads.h"
#include "literals.h"
#include "models/io/model_file.h"
#include "tests/models/classify/fixed_split.h"
#include "tests/models/classify/sklearn_reference.h"

namespace dagml {
namespace {

using testing::fixed_split;
using testing::labels_to_string;
using testing::predict_on;
namespace ref = sklearn_reference;

TEST(KnnClassifier, MatchesScikitLearnExactly) {
  for (NeighborAlgorithm a : {NeighborAlgorithm::Auto, NeighborAlgorithm::Brute, NeighborAlgorithm::KdTree}) {
    const KnnClassifierOptions o{.search = {.algorithm = a}};
    EXPECT_EQ(predict_on("iris", KnnClassifier(o)), ref::k_knn_iris);
    EXPECT_EQ(predict_on("wine", KnnClassifier(o)), ref::k_knn_wine);
    EXPECT_EQ(predict_on("breast_cancer", KnnClassifier(o)), ref::k_knn_breast_cancer);
    EXPECT_EQ(predict_on("digits", KnnClassifier(o)), ref::k_knn_digits);
  }
  EXPECT_EQ(ref::k_knn_kd_iris, std::string(ref::k_knn_iris));  // scikit-learn's own k-d tree agrees
  EXPECT_EQ(ref::k_knn_kd_wine, std::string(ref::k_knn_wine));
}

TEST(KnnClassifier, DistanceWeightedManhattanMatchesScikitLearn) {
  const KnnClassifierOptions o{.num_neighbors = 7,
                               .weights = NeighborWeights::Distance,
                               .search = {.metric = DistanceMetric::Minkowski, .p = 1}};
  EXPECT_EQ(predict_on("iris", KnnClassifier(o)), ref::k_knn_dist_p1_iris);
  EXPECT_EQ(predict_on("wine", KnnClassifier(o)), ref::k_knn_dist_p1_wine);
  EXPECT_EQ(predict_on("breast_cancer", KnnClassifier(o)), ref::k_knn_dist_p1_breast_cancer);
  EXPECT_EQ(predict_on("digits", KnnClassifier(o)), ref::k_knn_dist_p1_digits);
  auto s = fixed_split("wine");
  const Tensor P = KnnClassifier(o).fit(s.X_train, s.y_train).predict_proba(s.X_test.topRows(3));
  for (Index i = 0; i < 9; ++i) EXPECT_NEAR(P(i / 3, i % 3), ref::k_knn_dist_p1_proba_wine[i], 1e-12) << i;
}

// notes001_003.md D9: (0,0)→0, (1,0)→0, (0,2)→1, (4,4)→1, (5,4)→1, (4,6)→0.
void d9(Tensor& X, Vector& y) {
  X.resize(6, 2);
  X << 0, 0, 1, 0, 0, 2, 4, 4, 5, 4, 4, 6;
  y.resize(6);
  y << 0, 0, 1, 1, 1, 0;
}

TEST(KnnClassifier, NotesD9Table) {
  Tensor X;
  Vector y;
  d9(X, y);
  Tensor q(3, 2);
  q << 0.5, 0.5, 4.5, 4.5, 1, 1.5;
  KnnClassifier knn({.num_neighbors = 3});
  knn.fit(X, y);
  EXPECT_EQ(knn.predict(q), Vector((Vector(3) << 0, 1, 0).finished()));
  const Neighbors nb = knn.kneighbors(q);
  EXPECT_NEAR(nb.distances(0, 0), std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(nb.distances(0, 2), 1.5811388, 1e-7);
  EXPECT_NEAR(nb.distances(2, 0), 1.1180340, 1e-7);
  EXPECT_NEAR(nb.distances(2, 1), 1.5, 1e-15);
  EXPECT_NEAR(nb.distances(2, 2), 1.8027756, 1e-7);
  // (0.5, 0.5) is equidistant from rows 0 and 1: the lower index comes first.
  EXPECT_EQ(nb.indices(0, 0), 0);
  EXPECT_EQ(nb.indices(0, 1), 1);
  EXPECT_EQ(KnnClassifier({.num_neighbors = 1}).fit(X, y).predict(q.bottomRows(1))(0), 1);
  EXPECT_NEAR(knn.predict_proba(q)(2, 0), 2.0 / 3, 1e-15);
}

TEST(KnnClassifier, TieRules) {
  Tensor X;
  Vector y;
  d9(X, y);
  // k = 2 at (1, 1.5): neighbours (0,2)→1 at 1.118 and (1,0)→0 at 1.5: a 1–1 vote.
  Tensor q(1, 2);
  q << 1, 1.5;
  EXPECT_EQ(KnnClassifier({.num_neighbors = 2}).fit(X, y).predict(q)(0), 0);  // smallest label
  EXPECT_EQ(KnnClassifier({.num_neighbors = 2, .tie_rule = KnnTieRule::Nearest}).fit(X, y).predict(q)(0), 1);
  // Distance weights break the vote: 1/1.118 > 1/1.5.
  EXPECT_EQ(KnnClassifier({.num_neighbors = 2, .weights = NeighborWeights::Distance}).fit(X, y).predict(q)(0), 1);
  // A query on a training point: that point alone carries the distance-weighted vote.
  EXPECT_EQ(KnnClassifier({.num_neighbors = 6, .weights = NeighborWeights::Distance}).fit(X, y).predict(X.row(5))(0),
            0);
}

TEST(KnnClassifier, RbfKernelDistanceGivesTheEuclideanNeighbours) {
  // ‖φ(x) − φ(z)‖² = 2 − 2 exp(−γ‖x − z‖²) is increasing in ‖x − z‖: same neighbours, same votes.
  auto s = fixed_split("wine");
  KnnClassifierOptions o{.search = {.metric = DistanceMetric::Kernel, .kernel = std::make_shared<RbfKernel>(1e-5)}};
  EXPECT_EQ(labels_to_string(KnnClassifier(o).fit(s.X_train, s.y_train).predict(s.X_test)), ref::k_knn_wine);
  // Linear kernel: ‖φ(x) − φ(z)‖ is the Euclidean distance itself.
  o.search.kernel = std::make_shared<LinearKernel>();
  KnnClassifier lin(o);
  lin.fit(s.X_train, s.y_train);
  const Neighbors a = lin.kneighbors(s.X_test.topRows(5));
  const Neighbors b = KnnClassifier().fit(s.X_train, s.y_train).kneighbors(s.X_test.topRows(5));
  EXPECT_EQ(a.indices, b.indices);
  EXPECT_TRUE(a.distances.isApprox(b.distances, 1e-6));
}

TEST(NeighborSearch, KdTreeEqualsBruteForceWithManyTies) {
  // Integer grid points: many exactly tied distances, broken by index in both algorithms.
  std::mt19937_64 rng(3);
  Tensor X(300, 3), Q(50, 3);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = static_cast<Scalar>(rng() % 5);
  for (Index i = 0; i < Q.size(); ++i) Q.data()[i] = static_cast<Scalar>(rng() % 5);
  for (Scalar p : {1.0, 2.0, 3.0}) {
    NeighborSearch brute({.metric = DistanceMetric::Minkowski, .p = p, .algorithm = NeighborAlgorithm::Brute});
    NeighborSearch tree(
        {.metric = DistanceMetric::Minkowski, .p = p, .algorithm = NeighborAlgorithm::KdTree, .leaf_size = 4});
    brute.fit(X);
    tree.fit(X);
    EXPECT_TRUE(tree.uses_kd_tree());
    EXPECT_FALSE(brute.uses_kd_tree());
    // k = 17 and 40: the Euclidean screen's two ways to its k-th smallest entry (a running list up to 32).
    for (Index k : {17, 40}) {
      const Neighbors a = brute.query(Q, k), b = tree.query(Q, k);
      EXPECT_EQ(a.indices, b.indices) << "p = " << p << ", k = " << k;
      EXPECT_EQ(a.distances, b.distances) << "p = " << p << ", k = " << k;
      for (Index i = 0; i < Q.rows(); ++i)
        for (Index r = 1; r < k; ++r) {
          const bool ordered = a.distances(i, r - 1) < a.distances(i, r) ||
                               (a.distances(i, r - 1) == a.distances(i, r) && a.indices(i, r - 1) < a.indices(i, r));
          EXPECT_TRUE(ordered);
        }
    }
  }
}

TEST(NeighborSearch, SinglePrecisionScreenKeepsEveryNeighbour) {
  // Note [Single-precision screen]: points 10⁶ from the origin that differ by 10⁻³ (float cannot
  // tell them apart), points of size 10⁻³⁰ (their products underflow in float) and points beyond
  // 10¹⁵ (the double screen): brute force equals the k-d tree, which measures in double.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<Scalar> unit(0, 1);
  for (auto [offset, scale] : {std::pair{1e6, 1e-3}, std::pair{0.0, 1e-30}, std::pair{0.0, 1e16}}) {
    Tensor X(200, 5), Q(30, 5);
    for (Index i = 0; i < X.size(); ++i) X.data()[i] = offset + scale * unit(rng);
    for (Index i = 0; i < Q.size(); ++i) Q.data()[i] = offset + scale * unit(rng);
    NeighborSearch brute({.algorithm = NeighborAlgorithm::Brute}), tree({.algorithm = NeighborAlgorithm::KdTree});
    brute.fit(X);
    tree.fit(X);
    const Neighbors a = brute.query(Q, 5), b = tree.query(Q, 5);
    EXPECT_EQ(a.indices, b.indices) << "offset " << offset << ", scale " << scale;
    EXPECT_EQ(a.distances, b.distances) << "offset " << offset << ", scale " << scale;
  }
}

TEST(NeighborSearch, EntriesWhoseSquaresOverflowAreRankedExactly) {
  // From a model-file fuzz finding: with entries near 10²⁰⁰ the Euclidean screen's squared norms
  // overflow to ∞, no candidate passed the screen, and the k smallest were read from an empty list.
  // Now such a query measures every row exactly; ties at ∞ are broken by index.
  Tensor X(4, 1), Q(2, 1);
  X << 1e200, -1e200, 0, 1;
  Q << 1e200, 0.5;
  for (NeighborAlgorithm algorithm : {NeighborAlgorithm::Brute, NeighborAlgorithm::KdTree}) {
    NeighborSearch search({.algorithm = algorithm});
    search.fit(X);
    const Neighbors nb = search.query(Q, 3);
    EXPECT_EQ(nb.indices.row(0), (Eigen::RowVector<Index, 3>() << 0, 1, 2).finished()) << enum_name(algorithm);
    EXPECT_EQ(nb.distances(0, 0), 0);
    EXPECT_EQ(nb.indices.row(1).head(2), (Eigen::RowVector<Index, 2>() << 2, 3).finished()) << enum_name(algorithm);
    EXPECT_EQ(nb.distances(1, 0), 0.5);
  }
}

TEST(NeighborSearch, ResultDoesNotDependOnTheThreadCount) {
  auto s = fixed_split("digits");
  NeighborSearch search;
  search.fit(s.X_train);
  const int before = num_threads();
  set_num_threads(1);
  const Neighbors one = search.query(s.X_test, 5);
  set_num_threads(2);
  const Neighbors two = search.query(s.X_test, 5);
  set_num_threads(before);
  EXPECT_EQ(one.indices, two.indices);
  EXPECT_EQ(one.distances, two.distances);
}

TEST(KnnClassifier, BadInput) {
  EXPECT_THROW(KnnClassifier({.num_neighbors = 0}), ValueError);
  EXPECT_THROW(KnnClassifier({.search = {.metric = DistanceMetric::Minkowski, .p = 0.5}}), ValueError);
  EXPECT_THROW(KnnClassifier({.search = {.metric = DistanceMetric::Kernel}}), ValueError);
  Tensor X;
  Vector y;
  d9(X, y);
  KnnClassifier knn({.num_neighbors = 7});
  EXPECT_THROW(knn.predict(X), NotFittedError);
  EXPECT_THAT([&] { knn.fit(X, y); }, ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("training set size")));
  KnnClassifier k3({.num_neighbors = 3});
  EXPECT_THAT([&] { k3.fit(X, Vector::Ones(6)); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("at least two classes")));
  Tensor nan = X;
  nan(1, 1) = std::nan("");
  EXPECT_THROW(k3.fit(nan, y), ValueError);
  k3.fit(X, y);
  EXPECT_THROW(k3.predict(nan), ValueError);
  EXPECT_THROW(k3.predict(Tensor::Zero(1, 3)), ShapeError);
  EXPECT_THROW(k3.kneighbors(X, 7), ValueError);
  // k(x, z) = −xᵀz is not PSD: its "squared distance" −‖x − z‖² is negative.
  auto negative = std::make_shared<CustomKernel>(
      "negative", [](Eigen::Ref<const Vector> a, Eigen::Ref<const Vector> b) { return -a.dot(b); });
  KnnClassifier bad({.num_neighbors = 3, .search = {.metric = DistanceMetric::Kernel, .kernel = negative}});
  bad.fit(X, y);
  EXPECT_THAT([&] { bad.predict(X); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("not positive semi-definite")));
}

TEST(KnnClassifier, SaveLoadRoundTrip) {
  auto s = fixed_split("iris");
  KnnClassifier knn({.num_neighbors = 4, .weights = NeighborWeights::Distance, .tie_rule = KnnTieRule::Nearest});
  knn.fit(s.X_train, s.y_train);
  const std::string path = testing::temp_path("knn.txt");
  knn.save(path);
  const KnnClassifier back = KnnClassifier::load(path);
  EXPECT_EQ(back.predict_proba(s.X_test), knn.predict_proba(s.X_test));
  EXPECT_EQ(back.predict(s.X_test), knn.predict(s.X_test));
  // A built-in kernel is saved by its text form; a custom kernel is code and cannot be saved.
  KnnClassifier kernel({.search = {.metric = DistanceMetric::Kernel, .kernel = std::make_shared<RbfKernel>(0.5)}});
  kernel.fit(s.X_train, s.y_train);
  kernel.save(path);
  const KnnClassifier kernel_back = KnnClassifier::load(path);
  EXPECT_EQ(kernel_back.options().search.kernel->name(), "rbf(gamma=0.5)");
  EXPECT_EQ(kernel_back.predict_proba(s.X_test), kernel.predict_proba(s.X_test));
  KnnClassifier custom(
      {.search = {.metric = DistanceMetric::Kernel,
                  .kernel = std::make_shared<CustomKernel>(
                      "dot", [](Eigen::Ref<const Vector> a, Eigen::Ref<const Vector> b) { return a.dot(b); })}});
  custom.fit(s.X_train, s.y_train);
  EXPECT_THROW(custom.save(path), ValueError);
}

// A model file whose training labels are not below K (votes index a row of K entries by label)
// or disagree with the training rows is refused on load. Payloads in the layout of
// KnnClassifier::serialize: options, fitted flag, d, training rows, labels, K.
std::string knn_file(const Tensor& X, const Vector& labels, Index num_classes) {
  std::string payload;
  {
    ModelOutputArchive ar(payload);
    KnnClassifierOptions options{.num_neighbors = 1};
    ar(options, true, X.cols(), X, labels, num_classes);
  }
  return frame_model_file(KnnClassifier::kTypeName, 1, payload);
}

TEST(KnnClassifier, LoadRefusesLabelsOutOfRange) {
  const Tensor X = testing::rows({{0}, {1}, {2}});
  const KnnClassifier good = KnnClassifier::from_model_file(ModelFile(knn_file(X, testing::vec({0, 1, 1}), 2), "test"));
  EXPECT_EQ(good.predict(X), testing::vec({0, 1, 1}));
  EXPECT_THAT(
      [&] {
        KnnClassifier::from_model_file(ModelFile(knn_file(X, testing::vec({0, 5, 1}), 2), "test"));
      },
      ::testing::ThrowsMessage<ParseError>(::testing::HasSubstr("training labels in 0..1, found 5")));
  EXPECT_THROW(KnnClassifier::from_model_file(ModelFile(knn_file(X, testing::vec({0, -1, 1}), 2), "test")), ParseError);
  EXPECT_THROW(KnnClassifier::from_model_file(ModelFile(knn_file(X, testing::vec({0, 1}), 2), "test")), ParseError);
  EXPECT_THROW(KnnClassifier::from_model_file(ModelFile(knn_file(X, testing::vec({0, 1, 1}), 1), "test")), ParseError);
}

}  // namespace
}  // namespace dagml
