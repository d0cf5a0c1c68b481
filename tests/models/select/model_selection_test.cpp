// Model selection: cross_val_score against a hand-written fold loop, grid search and validation
// curve over options fields, identical results for 1 and 2 threads, errors.
#include <gtest/gtest.h>

#include "graph/threads.h"
#include "models/kernel/kernel_ridge.h"
#include "models/linear/polynomial_regression.h"
#include "models/linear/regression_data.h"
#include "models/linear/ridge.h"
#include "models/select/cross_validation.h"
#include "models/select/grid_search.h"
#include "models/select/validation_curve.h"

namespace dagml {
namespace {

using testing::gaussian_matrix;
using testing::gaussian_vector;

TEST(CrossValScore, MatchesAHandWrittenFoldLoop) {
  const auto data = testing::load_diabetes();
  const KFold folds(data.Z.rows(), {.k = 5, .shuffle = true, .seed = 3});
  const Vector scores = cross_val_score(Ridge({.lambda = 1}), data.Z, data.y, folds);
  ASSERT_EQ(scores.size(), 5);
  Index i = 0;
  for (const Fold& f : folds) {
    Ridge m({.lambda = 1});
    m.fit(take_rows(data.Z, f.train), take_rows(data.y, f.train));
    EXPECT_EQ(scores(i++), m.score(take_rows(data.Z, f.test), take_rows(data.y, f.test)));
  }
  // The KFoldOptions overload builds the same folds.
  EXPECT_EQ(cross_val_score(Ridge({.lambda = 1}), data.Z, data.y, KFoldOptions{.k = 5, .shuffle = true, .seed = 3}),
            scores);
}

TEST(CrossValScore, SameResultForOneAndTwoThreads) {
  const auto data = testing::load_diabetes();
  const KFold folds(data.Z.rows(), {.k = 7, .shuffle = true, .seed = 1});
  const std::vector<Scalar> lambdas = {0.01, 0.1, 1, 10, 100, 1000};
  set_num_threads(1);
  const Vector serial =
      cross_val_score(KernelRidge({.kernel = std::make_shared<RbfKernel>(0.05)}), data.Z, data.y, folds);
  const auto grid1 =
      grid_search<Ridge>(RidgeOptions{}, &RidgeOptions::lambda, lambdas, data.Z, data.y, folds);
  set_num_threads(2);
  const Vector parallel =
      cross_val_score(KernelRidge({.kernel = std::make_shared<RbfKernel>(0.05)}), data.Z, data.y, folds);
  const auto grid2 =
      grid_search<Ridge>(RidgeOptions{}, &RidgeOptions::lambda, lambdas, data.Z, data.y, folds);
  set_num_threads(0);
  EXPECT_EQ(serial, parallel);  // bitwise
  EXPECT_EQ(grid1.fold_scores, grid2.fold_scores);
  EXPECT_EQ(grid1.best_index, grid2.best_index);
}

TEST(GridSearch, PicksTheBestMeanScore) {
  const auto data = testing::load_diabetes();
  const KFold folds(data.Z.rows(), {.k = 5, .shuffle = true, .seed = 2});
  const std::vector<Scalar> lambdas = {1e-3, 1, 10, 100, 1e5};
  const auto result = grid_search<Ridge>(RidgeOptions{.fit_intercept = true}, &RidgeOptions::lambda,
                                         lambdas, data.Z, data.y, folds);
  ASSERT_EQ(result.fold_scores.rows(), 5);
  ASSERT_EQ(result.fold_scores.cols(), 5);
  for (std::size_t c = 0; c < lambdas.size(); ++c) {
    const Vector cv = cross_val_score(Ridge({.lambda = lambdas[c]}), data.Z, data.y, folds);
    EXPECT_EQ(Vector(result.fold_scores.row(static_cast<Index>(c)).transpose()), cv);
    EXPECT_LE(result.mean_scores(static_cast<Index>(c)), result.best_score);
  }
  EXPECT_EQ(result.best_value, lambdas[static_cast<std::size_t>(result.best_index)]);
  EXPECT_EQ(result.best_options.lambda, result.best_value);
  // A huge λ predicts the mean: clearly worse than the best.
  EXPECT_LT(result.mean_scores(4), result.best_score - 0.1);
}

TEST(ValidationCurve, TrainingScoreRisesWithDegree) {
  // Notes 000 §1.4: training error can only fall as features are added; validation error does not.
  const Tensor X = gaussian_matrix(60, 1, 1);
  const Vector y = (X.col(0).array() * 2 + 1).matrix() + 0.5 * gaussian_vector(60, 2);
  const std::vector<Index> degrees = {0, 1, 2, 4, 8};
  const auto curve =
      validation_curve<PolynomialRegression>(PolynomialRegressionOptions{}, &PolynomialRegressionOptions::degree,
                                             degrees, X, y, KFold(60, {.k = 4, .shuffle = true, .seed = 5}));
  for (Index c = 1; c < 5; ++c) {
    for (Index f = 0; f < 4; ++f) EXPECT_GE(curve.train_scores(c, f), curve.train_scores(c - 1, f) - 1e-12);
  }
  // The true model is linear: degree 1 validates better than degree 0 and than degree 8.
  EXPECT_GT(curve.mean_validation(1), curve.mean_validation(0));
  EXPECT_GT(curve.mean_validation(1), curve.mean_validation(4));
}

TEST(ModelSelection, BadInputIsAClearError) {
  const Tensor X = gaussian_matrix(20, 2, 1);
  const Vector y = gaussian_vector(20, 2);
  EXPECT_THROW(cross_val_score(Ridge(), X, y, KFold(19, {.k = 4})), ShapeError);
  EXPECT_THROW(cross_val_score(Ridge(), X, gaussian_vector(19, 1), KFold(20, {.k = 4})), ShapeError);
  EXPECT_THROW(grid_search<Ridge>(RidgeOptions{}, &RidgeOptions::lambda, std::vector<Scalar>{}, X,
                                  y, KFold(20)),
               ValueError);
  // A bad grid value is the estimator's own error.
  EXPECT_THROW(grid_search<Ridge>(RidgeOptions{}, &RidgeOptions::lambda, std::vector<Scalar>{1, -1},
                                  X, y, KFold(20)),
               ValueError);
}

}  // namespace
}  // namespace dagml
