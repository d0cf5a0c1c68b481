// Least-squares classifier / LS-SVM: hand-worked closed forms, scikit-learn's Ridge and
// RidgeClassifier, a feature map, errors and save/load.
#include <gtest/gtest.h>

#include <filesystem>

#include "graph/error.h"
#include "models/classify/least_squares_classifier.h"
#include "models/data/datasets.h"
#include "discriminative_test_util.h"

namespace dagml {
namespace {

using test::rows;
using test::vec;

// x = [0,1,2,3], y± = [−1,−1,1,1]: x̄ = 1.5, ȳ = 0, Sxx = 5, Sxy = 4.
//   λ = 0:                  w = 4/5,  b = −1.2
//   λ = 1, bias free:       w = 4/6,  b = −1
//   λ = 1, bias penalised:  [[15,6],[6,5]] (w, b) = (4, 0) ⇒ w = 20/39, b = −24/39
TEST(LeastSquaresClassifier, HandWorkedBinary) {
  const Tensor X = rows({{0}, {1}, {2}, {3}});
  const Vector y = vec({0, 0, 1, 1});
  LeastSquaresClassifier ols;
  ols.fit(X, y);
  EXPECT_NEAR(ols.coef()(0, 0), 0.8, 1e-12);
  EXPECT_NEAR(ols.intercept()(0), -1.2, 1e-12);
  LeastSquaresClassifier ridge({.lambda = 1});
  ridge.fit(X, y);
  EXPECT_NEAR(ridge.coef()(0, 0), 4.0 / 6.0, 1e-12);
  EXPECT_NEAR(ridge.intercept()(0), -1.0, 1e-12);
  LeastSquaresClassifier pen({.lambda = 1, .penalize_intercept = true});
  pen.fit(X, y);
  EXPECT_NEAR(pen.coef()(0, 0), 20.0 / 39.0, 1e-12);
  EXPECT_NEAR(pen.intercept()(0), -24.0 / 39.0, 1e-12);
  EXPECT_EQ(ridge.predict(rows({{1.4}, {1.5}, {1.6}})), vec({0, 1, 1}));  // f(1.5) = 0 → class 1
  EXPECT_EQ(ols.score(X, y), 1.0);
}

// Reference: scikit-learn 1.2.1, RidgeClassifier(alpha=1.0, solver='cholesky') on the whole of
// breast cancer (±1 targets, unpenalised intercept): coef_[:4], intercept_, accuracy.
TEST(LeastSquaresClassifier, BinaryMatchesRidgeClassifier) {
  const Dataset bc = load_dataset("breast_cancer");
  LeastSquaresClassifier m({.lambda = 1});
  m.fit(bc.features, bc.target);
  const Vector ref = vec({0.352683485487, -0.005057490939, -0.005958431902, -0.002292861108});
  for (Index j = 0; j < 4; ++j) EXPECT_NEAR(m.coef()(j, 0), ref(j), 1e-8) << j;
  EXPECT_NEAR(m.intercept()(0), 4.079242215075, 1e-7);
  EXPECT_NEAR(m.score(bc.features, bc.target), 0.9595782073813708, 1e-12);
}

// Reference: scikit-learn 1.2.1, Ridge(alpha=1.0).fit(X, one_hot(y)) on iris; argmax accuracy
// 0.8533333.
TEST(LeastSquaresClassifier, MulticlassIsMultiOutputRidgeOnOneHot) {
  const Dataset iris = load_dataset("iris");
  LeastSquaresClassifier m({.lambda = 1});
  m.fit(iris.features, iris.target);
  const Tensor ref = rows({{0.063634313427, 0.235418243181, -0.222683082723, -0.060601587026},
                           {-0.013803718295, -0.438993950775, 0.1859981763, -0.416437852839},
                           {-0.049830595131, 0.203575707594, 0.036684906423, 0.477039439865}});
  EXPECT_TRUE(m.coef().transpose().isApprox(ref, 1e-9));
  EXPECT_TRUE(m.intercept().isApprox(vec({0.15126931464, 1.556610551045, -0.707879865685}), 1e-9));
  EXPECT_NEAR(m.score(iris.features, iris.target), 0.8533333333333334, 1e-12);
  EXPECT_EQ(m.decision_function(iris.features).cols(), 3);
}

// Points inside the unit circle vs outside: no line separates them, the parabolic lift
// φ(x) = (x, ‖x‖²) of notes 001 Ex. 19 does.
TEST(LeastSquaresClassifier, FeatureMapSeparatesACircle) {
  const Tensor X =
      rows({{0, 0}, {0.3, 0.2}, {-0.4, 0.1}, {0.1, -0.5}, {2, 0}, {0, 2}, {-2, 0.5}, {0.5, -2}, {1.5, 1.5}});
  const Vector y = vec({1, 1, 1, 1, 0, 0, 0, 0, 0});
  LeastSquaresClassifier linear;
  EXPECT_LT(linear.fit(X, y).score(X, y), 1.0);
  LeastSquaresClassifier lifted({}, [](const Tensor& A) {
    Tensor F(A.rows(), 3);
    F.leftCols(2) = A;
    F.col(2) = A.rowwise().squaredNorm();
    return F;
  });
  EXPECT_EQ(lifted.fit(X, y).score(X, y), 1.0);
  EXPECT_THROW(lifted.save("unused.model"), ValueError);
}

TEST(LeastSquaresClassifier, BadInputAndSaveLoad) {
  EXPECT_THROW(LeastSquaresClassifier({.lambda = -1}), ValueError);
  LeastSquaresClassifier m;
  EXPECT_THROW(m.decision_function(rows({{1}})), NotFittedError);
  EXPECT_THROW(m.fit(rows({{0}, {1}}), vec({0, 0})), ValueError);
  EXPECT_THROW(m.fit(rows({{0}, {std::nan("")}}), vec({0, 1})), ValueError);
  EXPECT_THROW(m.fit(rows({{0}, {1}}), vec({0})), ShapeError);
  const Dataset iris = load_dataset("iris");
  m.fit(iris.features, iris.target);
  const std::string path = (std::filesystem::temp_directory_path() / "dagml_lsc_test.model").string();
  m.save(path);
  const LeastSquaresClassifier back = LeastSquaresClassifier::load(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.predict(iris.features), m.predict(iris.features));
  EXPECT_EQ(back.decision_function(iris.features), m.decision_function(iris.features));
}

}  // namespace
}  // namespace dagml
