// Tests for KnnRegressor: predictions equal scikit-learn's KNeighborsRegressor on the bundled
// diabetes data (sklearn_reference.h), a hand-worked mean, bad input and save/load.
#include "models/classify/knn_regressor.h"

#include <gtest/gtest.h>

#include "graph/error.h"
#include "tests/models/classify/fixed_split.h"
#include "tests/models/classify/sklearn_reference.h"

namespace dagml {
namespace {

using testing::fixed_split;
namespace ref = sklearn_reference;

TEST(KnnRegressor, MatchesScikitLearn) {
  auto s = fixed_split("diabetes");
  const Vector p = KnnRegressor().fit(s.X_train, s.y_train).predict(s.X_test.topRows(5));
  for (Index i = 0; i < 5; ++i) EXPECT_NEAR(p(i), ref::k_knn_reg_diabetes[i], 1e-12);
  const Vector w = KnnRegressor({.num_neighbors = 4, .weights = NeighborWeights::Distance})
                       .fit(s.X_train, s.y_train)
                       .predict(s.X_test.topRows(5));
  for (Index i = 0; i < 5; ++i) EXPECT_NEAR(w(i), ref::k_knn_reg_dist_diabetes[i], 1e-9);
}

TEST(KnnRegressor, HandWorkedMean) {
  // x = 0, 1, 2, 10 with y = 1, 2, 4, 100; the 3 nearest of 0.9 are 1, 0, 2: mean (2 + 1 + 4)/3.
  Tensor X(4, 1);
  X << 0, 1, 2, 10;
  Vector y(4);
  y << 1, 2, 4, 100;
  KnnRegressor knn({.num_neighbors = 3});
  knn.fit(X, y);
  EXPECT_NEAR(knn.predict(Tensor::Constant(1, 1, 0.9))(0), 7.0 / 3, 1e-15);
  // Distance weights 1/0.1, 1/0.9, 1/1.1.
  const Scalar w0 = 1 / 0.1, w1 = 1 / 0.9, w2 = 1 / 1.1;
  KnnRegressor weighted({.num_neighbors = 3, .weights = NeighborWeights::Distance});
  EXPECT_NEAR(weighted.fit(X, y).predict(Tensor::Constant(1, 1, 0.9))(0), (2 * w0 + 1 * w1 + 4 * w2) / (w0 + w1 + w2),
              1e-12);
  EXPECT_NEAR(knn.score(X, y),
              1 - ((1 - 7.0 / 3) * (1 - 7.0 / 3) + (2 - 7.0 / 3) * (2 - 7.0 / 3) + (4 - 7.0 / 3) * (4 - 7.0 / 3) +
                   (100 - 106.0 / 3) * (100 - 106.0 / 3)) /
                      ((y.array() - y.mean()).square().sum()),
              1e-12);
}

TEST(KnnRegressor, BadInputAndSaveLoad) {
  Tensor X(3, 1);
  X << 0, 1, 2;
  Vector y(3);
  y << 1, 2, std::nan("");
  EXPECT_THROW(KnnRegressor({.num_neighbors = 2}).fit(X, y), ValueError);
  y(2) = 3;
  EXPECT_THROW(KnnRegressor({.num_neighbors = 4}).fit(X, y), ValueError);
  EXPECT_THROW(KnnRegressor().predict(X), NotFittedError);
  auto s = fixed_split("diabetes");
  KnnRegressor knn({.search = {.metric = DistanceMetric::Minkowski, .p = 3}});
  knn.fit(s.X_train, s.y_train);
  const std::string path = testing::temp_path("knn_reg.txt");
  knn.save(path);
  EXPECT_EQ(KnnRegressor::load(path).predict(s.X_test), knn.predict(s.X_test));
}

}  // namespace
}  // namespace dagml
