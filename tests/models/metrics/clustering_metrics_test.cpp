// Tests for the clustering metrics: a hand-worked case (notes 000 §6.1's k-means example
// X = {0, 1, 10, 11}), scikit-learn 1.2.1 values on iris (sklearn.datasets.load_iris, the same
// numbers as data/iris.csv) with the true species and with fixed rules for the labels, thread
// independence of the silhouette, and the errors.
#include "models/metrics/clustering_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/error.h"
#include "graph/threads.h"
#include "literals.h"
#include "models/data/datasets.h"

namespace dagml {
namespace {

using testing::column;
using testing::kNaN;
using testing::rows;
using testing::vec;

// Labels i % 3 (rule "mod3") or (7 i) % 5 (rule "mod5") for the 150 iris rows.
Vector clustering_rule_labels(Index n, int multiplier, int modulus) {
  Vector z(n);
  for (Index i = 0; i < n; ++i) z(i) = static_cast<double>((multiplier * i) % modulus);
  return z;
}

TEST(ClusteringMetrics, HandWorkedTwoClusters) {
  // Notes 000 §6.1: X = {0, 1, 10, 11}, assignments [0, 0, 1, 1], centres (0.5, 10.5), objective 1.
  const Tensor X = column({0, 1, 10, 11});
  const Vector z = vec({0, 0, 1, 1});
  EXPECT_DOUBLE_EQ(inertia(X, z, column({0.5, 10.5})), 1.0);
  // Silhouette: x=0: a = 1, b = (10 + 11)/2 = 10.5; x=1: a = 1, b = (9 + 10)/2 = 9.5; the other
  // two mirror these. Mean = (9.5/10.5 + 8.5/9.5)/2 (sklearn: 0.899749373433584).
  EXPECT_NEAR(silhouette_score(X, z), (9.5 / 10.5 + 8.5 / 9.5) / 2, 1e-15);
  // CH: B = 2·5² + 2·5² = 100, W = 4·0.25 = 1, (n − K)/(K − 1) = 2: 200 (sklearn: 200.0).
  EXPECT_NEAR(calinski_harabasz_score(X, z), 200.0, 1e-12);
  // DB: S = (0.5, 0.5), centroid distance 10: (0.5 + 0.5)/10 = 0.1 (sklearn: 0.1).
  EXPECT_NEAR(davies_bouldin_score(X, z), 0.1, 1e-15);
  // Label values need not be contiguous: {3, 7} is the same partition.
  EXPECT_EQ(silhouette_score(X, vec({3, 3, 7, 7})), silhouette_score(X, z));
  // A singleton cluster has s = 0: sklearn.metrics.silhouette_score([[0],[1],[10],[11],[30]],
  // [0,0,1,1,2]) = 0.7197994987468672.
  EXPECT_NEAR(silhouette_score(column({0, 1, 10, 11, 30}), vec({0, 0, 1, 1, 2})), 0.7197994987468672, 1e-14);
}

TEST(ClusteringMetrics, InternalScoresMatchScikitLearnOnIris) {
  const Dataset iris = load_dataset("iris");
  const Tensor& X = iris.features;
  const Vector mod3 = clustering_rule_labels(X.rows(), 1, 3), mod5 = clustering_rule_labels(X.rows(), 7, 5);
  // X, y = load_iris(return_X_y=True); sklearn.metrics.silhouette_score(X, labels),
  // calinski_harabasz_score(X, labels), davies_bouldin_score(X, labels) with labels = y,
  // np.arange(150) % 3 and (np.arange(150) * 7) % 5.
  EXPECT_NEAR(silhouette_score(X, iris.target), 0.503477440693296, 1e-12);
  EXPECT_NEAR(calinski_harabasz_score(X, iris.target), 487.33087637489984, 1e-9);
  EXPECT_NEAR(davies_bouldin_score(X, iris.target), 0.7513707094756782, 1e-12);
  EXPECT_NEAR(silhouette_score(X, mod3), -0.02557814596809911, 1e-12);
  EXPECT_NEAR(calinski_harabasz_score(X, mod3), 0.09673625041331453, 1e-12);
  EXPECT_NEAR(davies_bouldin_score(X, mod3), 36.82959934970213, 1e-9);
  EXPECT_NEAR(silhouette_score(X, mod5), -0.059213901249525545, 1e-12);
  EXPECT_NEAR(calinski_harabasz_score(X, mod5), 0.16426137812786928, 1e-12);
  EXPECT_NEAR(davies_bouldin_score(X, mod5), 34.01025739774448, 1e-9);
  // Species 1 and 2 merged under label 2 (labels {0, 2}): silhouette_score(X, g) = 0.6867350732769777.
  Vector g = iris.target;
  for (Index i = 0; i < g.size(); ++i) g(i) = g(i) == 0 ? 0 : 2;
  EXPECT_NEAR(silhouette_score(X, g), 0.6867350732769777, 1e-12);
  // Inertia with the species means as centres: numpy Σ_i ‖x_i − μ_{y_i}‖² = 89.29740000000005.
  Tensor mu = Tensor::Zero(3, X.cols());
  for (Index i = 0; i < X.rows(); ++i) mu.row(static_cast<Index>(iris.target(i))) += X.row(i) / 50.0;
  EXPECT_NEAR(inertia(X, iris.target, mu), 89.29740000000005, 1e-10);
}

TEST(ClusteringMetrics, SilhouetteIsBitwiseTheSameForOneAndTwoThreads) {
  const Dataset iris = load_dataset("iris");
  const Vector mod5 = clustering_rule_labels(iris.features.rows(), 7, 5);
  set_num_threads(1);
  const Scalar one = silhouette_score(iris.features, mod5);
  set_num_threads(2);
  const Scalar two = silhouette_score(iris.features, mod5);
  set_num_threads(0);
  EXPECT_EQ(one, two);
}

TEST(ClusteringMetrics, ExternalScoresMatchScikitLearn) {
  // Hand-checkable: a = [0,0,1,1,2,2], b = [0,0,1,2,2,2]. Pairs (ordered, i ≠ j): Q = Σ n_ij² = 10,
  // tp = 4, fp = Σ b_j² − Q = 4, fn = Σ a_i² − Q = 2, tn = 36 − 16 = 20:
  // ARI = 2(4·20 − 2·4)/((6)(22) + (8)(24)) = 144/324 = 4/9.
  const Vector a = vec({0, 0, 1, 1, 2, 2}), b = vec({0, 0, 1, 2, 2, 2});
  EXPECT_NEAR(adjusted_rand_score(a, b), 4.0 / 9, 1e-15);  // sklearn: 0.4444444444444444
  // sklearn.metrics.normalized_mutual_info_score(a, b), adjusted_mutual_info_score(a, b)
  EXPECT_NEAR(normalized_mutual_info_score(a, b), 0.7396673768007591, 1e-14);
  EXPECT_NEAR(adjusted_mutual_info_score(a, b), 0.5023607027202736, 1e-14);
  EXPECT_DOUBLE_EQ(adjusted_rand_score(b, a), adjusted_rand_score(a, b));

  const Dataset iris = load_dataset("iris");
  const Vector& y = iris.target;
  const Vector mod3 = clustering_rule_labels(y.size(), 1, 3), mod5 = clustering_rule_labels(y.size(), 7, 5);
  // sklearn.metrics.adjusted_rand_score(y, labels), normalized_mutual_info_score(y, labels),
  // adjusted_mutual_info_score(y, labels), y = load_iris().target.
  EXPECT_NEAR(adjusted_rand_score(y, mod3), -0.0132, 1e-14);
  EXPECT_NEAR(normalized_mutual_info_score(y, mod3), 0.00036659731469858704, 1e-14);
  EXPECT_NEAR(adjusted_mutual_info_score(y, mod3), -0.012143611431983295, 1e-13);
  EXPECT_NEAR(adjusted_rand_score(y, mod5), -0.018223234624145785, 1e-14);
  EXPECT_EQ(normalized_mutual_info_score(y, mod5), 0.0);  // independent: each species has 10 of each label
  EXPECT_NEAR(adjusted_mutual_info_score(y, mod5), -0.02067666539756401, 1e-13);
  // Species 1 and 2 merged under label 2: adjusted_rand_score(y, g) = 0.5681159420289855,
  // adjusted_mutual_info_score(y, g) = 0.7315847607219584.
  Vector g = y;
  for (Index i = 0; i < g.size(); ++i) g(i) = g(i) == 0 ? 0 : 2;
  EXPECT_NEAR(adjusted_rand_score(y, g), 0.5681159420289855, 1e-14);
  EXPECT_NEAR(adjusted_mutual_info_score(y, g), 0.7315847607219584, 1e-13);

  // Limit cases (sklearn gives the same): a relabelled partition scores 1; one cluster against
  // all singletons scores 0.
  EXPECT_EQ(adjusted_rand_score(vec({0, 0, 1, 1}), vec({1, 1, 0, 0})), 1.0);
  EXPECT_NEAR(adjusted_mutual_info_score(vec({0, 0, 1, 1}), vec({1, 1, 0, 0})), 1.0, 1e-15);
  EXPECT_EQ(normalized_mutual_info_score(vec({0, 0, 1, 1}), vec({1, 1, 0, 0})), 1.0);
  EXPECT_EQ(adjusted_rand_score(vec({0, 0, 0}), vec({0, 1, 2})), 0.0);
  EXPECT_EQ(normalized_mutual_info_score(vec({0, 0, 0}), vec({0, 1, 2})), 0.0);
  EXPECT_EQ(adjusted_mutual_info_score(vec({0, 0, 0}), vec({0, 1, 2})), 0.0);
  EXPECT_EQ(adjusted_mutual_info_score(vec({4, 4}), vec({1, 1})), 1.0);
}

TEST(ClusteringMetrics, BadInputThrowsTypedErrors) {
  using ::testing::HasSubstr;
  using ::testing::ThrowsMessage;
  const Tensor X = column({0, 1, 10, 11});
  const Vector z = vec({0, 0, 1, 1});
  EXPECT_THROW(silhouette_score(X, vec({0, 0, 1})), ShapeError);
  EXPECT_THROW(calinski_harabasz_score(Tensor(0, 1), Vector()), ValueError);
  EXPECT_THAT(
      [&] {
        silhouette_score(column({0, kNaN, 10, 11}), z);
      },
      ThrowsMessage<ValueError>(HasSubstr("silhouette_score")));
  EXPECT_THAT(
      [&] {
        davies_bouldin_score(X, vec({0, 0.5, 1, 1}));
      },
      ThrowsMessage<ValueError>(HasSubstr("found 0.5 at row 1")));
  EXPECT_THROW(silhouette_score(X, vec({0, -1, 1, 1})), ValueError);
  EXPECT_THROW(silhouette_score(X, vec({0, kNaN, 1, 1})), ValueError);
  EXPECT_THAT(
      [&] {
        silhouette_score(X, vec({2, 2, 2, 2}));
      },
      ThrowsMessage<ValueError>(HasSubstr("expected between 2 and n − 1 = 3 distinct labels for 4 samples, found 1")));
  EXPECT_THAT([&] { calinski_harabasz_score(X, vec({0, 1, 2, 3})); }, ThrowsMessage<ValueError>(HasSubstr("found 4")));
  EXPECT_THROW(davies_bouldin_score(X, vec({0, 1, 2, 3})), ValueError);
  EXPECT_THROW(adjusted_rand_score(z, vec({0, 1})), ShapeError);
  EXPECT_THAT([&] { normalized_mutual_info_score(Vector(), Vector()); },
              ThrowsMessage<ValueError>(HasSubstr("expected at least one label, found none")));
  EXPECT_THROW(adjusted_mutual_info_score(z, vec({0, 1.5, 0, 1})), ValueError);
  EXPECT_THROW(inertia(X, z, column({0.5})), ValueError);                // label 1 ≥ K = 1
  EXPECT_THROW(inertia(X, z, rows({{0.5, 0}, {10.5, 0}})), ShapeError);  // d = 2 centres for d = 1 data
  EXPECT_THROW(inertia(X, z, column({0.5, kNaN})), ValueError);
  EXPECT_THROW(inertia(X, z, Tensor(0, 1)), ValueError);
}

}  // namespace
}  // namespace dagml
