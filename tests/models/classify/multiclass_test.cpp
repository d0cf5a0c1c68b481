// One-vs-rest and one-vs-one wrappers: scikit-learn's OneVsRestClassifier / OneVsOneClassifier
// around the perceptron on iris, other binary classifiers, vote ties, errors.
#include <gtest/gtest.h>

#include "graph/error.h"
#include "models/classify/least_squares_classifier.h"
#include "models/classify/linear_svc.h"
#include "models/classify/one_vs_one.h"
#include "models/classify/one_vs_rest.h"
#include "models/classify/perceptron.h"
#include "models/classify/svc.h"
#include "models/data/datasets.h"
#include "discriminative_test_util.h"

namespace dagml {
namespace {

using test::rows;
using test::vec;

// Reference: scikit-learn 1.2.1,
// OneVsRestClassifier(Perceptron(shuffle=False, tol=None, max_iter=50, eta0=1.0)).fit(X, y) on
// iris: the three estimators' coef_ / intercept_, decision_function on rows 0, 50, 100, accuracy.
TEST(OneVsRest, PerceptronOnIrisMatchesScikitLearn) {
  const Dataset iris = load_dataset("iris");
  OneVsRest<Perceptron> m([] { return Perceptron({.max_epochs = 50}); });
  m.fit(iris.features, iris.target);
  ASSERT_EQ(m.num_classes(), 3);
  const Tensor coef = rows({{1.3, 4.1, -5.2, -2.2}, {17.6, -23.6, -17.0, -27.6}, {-36.6, -12.7, 47.2, 37.4}});
  const Vector intercept = vec({1, -6, -1});
  for (Index k = 0; k < 3; ++k) {
    EXPECT_TRUE(m.estimators()[static_cast<size_t>(k)].coef().isApprox(coef.row(k).transpose(), 1e-12)) << k;
    EXPECT_NEAR(m.estimators()[static_cast<size_t>(k)].intercept(), intercept(k), 1e-12) << k;
  }
  const Tensor D = m.decision_function(rows({{5.1, 3.5, 1.4, 0.2}, {7.0, 3.2, 4.7, 1.4}, {6.3, 3.3, 6.0, 2.5}}));
  const Tensor ref = rows({{14.26, -28.16, -158.55}, {-4.3, -76.86, -23.64}, {-13.98, -144.0, 103.21}});
  EXPECT_TRUE(D.isApprox(ref, 1e-12));
  EXPECT_NEAR(m.score(iris.features, iris.target), 2.0 / 3.0, 1e-12);
}

// Reference: scikit-learn 1.2.1,
// OneVsOneClassifier(Perceptron(shuffle=False, tol=None, max_iter=50, eta0=1.0)).fit(X, y) on
// iris: estimators in pair order (0,1), (0,2), (1,2), each with the pair's higher class as 1.
// Training accuracy 0.82666…; the vote tie rule is checked separately below.
TEST(OneVsOne, PerceptronOnIrisMatchesScikitLearn) {
  const Dataset iris = load_dataset("iris");
  OneVsOne<Perceptron> m([] { return Perceptron({.max_epochs = 50}); });
  m.fit(iris.features, iris.target);
  const Tensor coef = rows({{-1.3, -4.1, 5.2, 2.2}, {-2.7, -3.9, 7.8, 4.4}, {-35.2, -10.0, 44.8, 36.6}});
  const Vector intercept = vec({-1, -1, 0});
  ASSERT_EQ(m.estimators().size(), 3u);
  for (Index p = 0; p < 3; ++p) {
    EXPECT_TRUE(m.estimators()[static_cast<size_t>(p)].coef().isApprox(coef.row(p).transpose(), 1e-12)) << p;
    EXPECT_NEAR(m.estimators()[static_cast<size_t>(p)].intercept(), intercept(p), 1e-12) << p;
  }
  const Tensor D = m.decision_function(iris.features);
  EXPECT_EQ(D.cols(), 3);
  EXPECT_EQ(m.predict(iris.features), labels_from_pair_votes(D, 3));
}

TEST(OneVsOne, VotesAndTies) {
  // Pairs (0,1), (0,2), (1,2). Row 0: 1, 2, 2 → class 2. Row 1: 0, 2, 1 → a three-way tie → 0.
  // Row 2: a score of exactly 0 votes for the higher class: 1, 0, 1 → class 1.
  const Tensor S = rows({{1, 1, 1}, {-1, 1, -1}, {0, -1, -1}});
  EXPECT_EQ(labels_from_pair_votes(S, 3), vec({2, 0, 1}));
  EXPECT_THROW(labels_from_pair_votes(S, 4), ShapeError);
}

// The kernel SVC's built-in one-vs-one and the generic wrapper around a binary SVC agree.
TEST(OneVsOne, WrappedBinarySvcEqualsBuiltInMulticlass) {
  const Dataset iris = load_dataset("iris");
  const auto kernel = std::make_shared<RbfKernel>(0.5);
  SVC built_in({.kernel = kernel, .tolerance = 1e-8});
  built_in.fit(iris.features, iris.target);
  OneVsOne<SVC> wrapped([&] { return SVC({.kernel = kernel, .tolerance = 1e-8}); });
  wrapped.fit(iris.features, iris.target);
  EXPECT_TRUE(built_in.decision_function(iris.features).isApprox(wrapped.decision_function(iris.features), 1e-6));
  EXPECT_EQ(built_in.predict(iris.features), wrapped.predict(iris.features));
}

TEST(OneVsRest, OtherBinaryClassifiersAndErrors) {
  const Dataset iris = load_dataset("iris");
  OneVsRest<LinearSVC> svm([] { return LinearSVC({.C = 1.0, .max_iterations = 5000}); });
  EXPECT_GT(svm.fit(iris.features, iris.target).score(iris.features, iris.target), 0.9);
  OneVsRest<LeastSquaresClassifier> ls;
  ls.fit(iris.features, iris.target);
  EXPECT_EQ(ls.decision_function(iris.features).cols(), 3);
  OneVsRest<Perceptron> p;
  EXPECT_THROW(p.predict(iris.features), NotFittedError);
  EXPECT_THROW(p.fit(iris.features, Vector::Zero(150)), ValueError);  // one class only
  EXPECT_THROW(p.fit(iris.features, Vector::Zero(3)), ShapeError);
  OneVsOne<Perceptron> o;
  EXPECT_THROW(o.fit(iris.features, Vector::Constant(150, 1.5)), ValueError);
}

}  // namespace
}  // namespace dagml
