// Tests for Hamerly's assignment step and KMeans with algorithm = hamerly: the bounds skip most
// points yet give the full search's assignment; a fit gives Lloyd's assignments, centres,
// iteration count and status from the same start on iris, digits and a seeded synthetic set; the
// result does not depend on the thread count; and the rule of algorithm = auto.
#include "models/cluster/hamerly_assignment.h"

#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include "models/cluster/k_means.h"
#include "models/data/datasets.h"
#include "models/data/synthetic_blobs.h"
#include "literals.h"

namespace dagml {
namespace {

using testing::column;

TEST(HamerlyAssignment, SkipsMostPointsAndAgreesWithTheFullSearch) {
  const Dataset digits = load_dataset("digits");
  const Tensor& X = digits.features;
  Tensor C = X.topRows(10);
  HamerlyAssignment hamerly;
  Vector labels, dist, full_labels, full_dist;
  hamerly.assign(X, C, labels, dist);
  EXPECT_EQ(hamerly.last_full_searches(), X.rows());  // no bounds yet
  Index skipped = 0;
  for (int iteration = 0; iteration < 8; ++iteration) {
    // Lloyd's update, then the assignment to the moved centres both ways.
    Tensor sums = Tensor::Zero(C.rows(), X.cols());
    Vector counts = Vector::Zero(C.rows());
    for (Index i = 0; i < X.rows(); ++i) {
      sums.row(static_cast<Index>(labels(i))) += X.row(i);
      counts(static_cast<Index>(labels(i))) += 1;
    }
    ASSERT_TRUE((counts.array() > 0).all());
    C = sums.array().colwise() / counts.array();
    hamerly.assign(X, C, labels, dist);
    assign_to_centers(X, C, full_labels, full_dist);
    EXPECT_EQ(labels, full_labels) << "iteration " << iteration;
    EXPECT_LT((dist - full_dist).cwiseAbs().maxCoeff(), 1e-9 * full_dist.maxCoeff());
    skipped += X.rows() - hamerly.last_full_searches();
  }
  // The bounds do their work from the first moves of the centres on: 5,911 of the 8 × 1,797
  // searches are skipped (41 %, while the centres still move far: the first rows are a poor start).
  EXPECT_GT(3 * skipped, 8 * X.rows());
}

TEST(HamerlyAssignment, PointsRelabelledByTheCallerAreSearchedAgain) {
  // x = 0, 1, 10, 11 with centres 0.5 and 10.5; the caller moves point 3 to centre 0 (as the
  // empty-cluster rule does): the next call searches it again and gives it back to centre 1.
  const Tensor X = column({0, 1, 10, 11});
  HamerlyAssignment hamerly;
  Vector labels, dist;
  hamerly.assign(X, column({0.5, 10.5}), labels, dist);
  EXPECT_EQ(labels, testing::vec({0, 0, 1, 1}));
  labels(3) = 0;
  hamerly.assign(X, column({0.5, 10.5}), labels, dist);
  EXPECT_EQ(labels, testing::vec({0, 0, 1, 1}));
  EXPECT_EQ(hamerly.last_full_searches(), 1);
  EXPECT_EQ(dist, testing::vec({0.25, 0.25, 0.25, 0.25}));
}

// Hamerly against Lloyd from the same start: the same assignments hence bitwise the same centres,
// the same iteration count and status, and the inertia to rounding.
void expect_lloyd_result(const Tensor& X, KMeansOptions options) {
  options.algorithm = KMeansAlgorithm::Lloyd;
  const KMeans lloyd = KMeans(options).fit(X);
  options.algorithm = KMeansAlgorithm::Hamerly;
  const KMeans hamerly = KMeans(options).fit(X);
  EXPECT_EQ(hamerly.labels(), lloyd.labels());
  EXPECT_EQ(hamerly.centers(), lloyd.centers());
  EXPECT_EQ(hamerly.num_iter(), lloyd.num_iter());
  EXPECT_EQ(hamerly.fit_result().status, lloyd.fit_result().status);
  EXPECT_NEAR(hamerly.inertia(), lloyd.inertia(), 1e-12 * lloyd.inertia());
  ASSERT_EQ(hamerly.fit_result().history.size(), lloyd.fit_result().history.size());
  for (std::size_t t = 0; t < lloyd.fit_result().history.size(); ++t)
    EXPECT_NEAR(hamerly.fit_result().history[t], lloyd.fit_result().history[t], 1e-12 * lloyd.fit_result().history[t]);
}

TEST(KMeansHamerly, GivesLloydsResultOnIris) {
  const Dataset iris = load_dataset("iris");
  Tensor init(3, 4);
  init << iris.features.row(0), iris.features.row(50), iris.features.row(100);
  expect_lloyd_result(iris.features, {.num_clusters = 3, .init = KMeansInit::Given, .initial_centers = init});
  expect_lloyd_result(iris.features, {.num_clusters = 8, .num_init = 3, .seed = 1});
}

TEST(KMeansHamerly, GivesLloydsResultOnDigits) {
  const Dataset digits = load_dataset("digits");
  expect_lloyd_result(digits.features, {.num_clusters = 10, .seed = 2});
  expect_lloyd_result(digits.features, {.num_clusters = 30, .max_iterations = 40, .seed = 3});
}

TEST(KMeansHamerly, GivesLloydsResultOnASyntheticSet) {
  expect_lloyd_result(synthetic_blobs(4000, 3, 12, 5), {.num_clusters = 12, .tolerance = 0, .seed = 6});
  // More centres than blobs: clusters split and merge for many iterations; empty clusters too.
  expect_lloyd_result(synthetic_blobs(2000, 2, 4, 7),
                      {.num_clusters = 25, .init = KMeansInit::Random, .tolerance = 0, .seed = 8});
}

TEST(KMeansHamerly, GivesLloydsResultInHighDimension) {
  // d = 200 with K = 10, where auto takes Hamerly (Fashion-MNIST's shape); 5,000 rows: 16 groups
  // of row blocks whose centre sums are gathered during the assignment.
  expect_lloyd_result(synthetic_blobs(5000, 200, 10, 9), {.num_clusters = 10, .tolerance = 0, .seed = 10});
}

TEST(KMeansHamerly, DoesNotDependOnTheThreadCount) {
  const Dataset digits = load_dataset("digits");
  const Tensor synthetic = synthetic_blobs(4000, 3, 12, 5);
  const KMeansOptions o{.num_clusters = 12, .seed = 4, .algorithm = KMeansAlgorithm::Hamerly};
  const auto fit_with = [&](int threads, const Tensor& X) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    return KMeans(o).fit(X);
  };
  for (const Tensor* X : {&digits.features, &synthetic}) {
    const KMeans one = fit_with(1, *X), two = fit_with(2, *X);
    EXPECT_EQ(one.centers(), two.centers());
    EXPECT_EQ(one.labels(), two.labels());
    EXPECT_EQ(one.inertia(), two.inertia());  // bitwise
    EXPECT_EQ(one.fit_result().history, two.fit_result().history);
  }
}

TEST(KMeansHamerly, EmptyClusterRuleAsLloyd) {
  // The centre at 1000 attracts no point and moves to the farthest one (x = 10), as with Lloyd.
  KMeans fitted({.num_clusters = 2, .init = KMeansInit::Given, .initial_centers = column({1, 1000}),
                 .algorithm = KMeansAlgorithm::Hamerly});
  fitted.fit(column({0, 1, 2, 10}));
  EXPECT_EQ(fitted.centers()(1, 0), 10.0);
  EXPECT_NEAR(fitted.inertia(), 2.0, 1e-12);
}

TEST(KMeansHamerly, AutoRule) {
  EXPECT_EQ(chosen_k_means_algorithm(KMeansAlgorithm::Auto, 4, 3), KMeansAlgorithm::Lloyd);
  EXPECT_EQ(chosen_k_means_algorithm(KMeansAlgorithm::Auto, 64, 10), KMeansAlgorithm::Hamerly);
  EXPECT_EQ(chosen_k_means_algorithm(KMeansAlgorithm::Auto, 2, kHamerlyMinClusters), KMeansAlgorithm::Hamerly);
  EXPECT_EQ(chosen_k_means_algorithm(KMeansAlgorithm::Auto, kHamerlyMaxFeatures + 1, 50), KMeansAlgorithm::Lloyd);
  EXPECT_EQ(chosen_k_means_algorithm(KMeansAlgorithm::Auto, 784, kHamerlyMaxClustersAnyFeatures),
            KMeansAlgorithm::Hamerly);
  EXPECT_EQ(chosen_k_means_algorithm(KMeansAlgorithm::Auto, 784, kHamerlyMaxClustersAnyFeatures + 1),
            KMeansAlgorithm::Lloyd);
  EXPECT_EQ(chosen_k_means_algorithm(KMeansAlgorithm::Lloyd, 2, 50), KMeansAlgorithm::Lloyd);
  EXPECT_EQ(chosen_k_means_algorithm(KMeansAlgorithm::Hamerly, 4, 3), KMeansAlgorithm::Hamerly);
}

}  // namespace
}  // namespace dagml
