// Tests for SoftKMeans: the worked step of notes 000 (part 2, L370), the energy never rising,
// a stiff β giving k-means' centres, the k-means start, and bad input.
#include "models/cluster/soft_k_means.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/error.h"
#include "literals.h"
#include "models/cluster/k_means.h"
#include "models/data/datasets.h"

namespace dagml {
namespace {

using testing::column;
using testing::kNaN;
using testing::rows;

TEST(SoftKMeans, NotesWorkedStep) {
  // X = {0, 1, 3, 4}, c = (0, 4), β = 1: r(1) = [0.99999989, 0.99966465, 0.00033535, 1.1254e−07]
  // and c ← (Σ r_i(k) x_i / Σ r_i(k)) = (0.50033558, 3.49966442).
  const Tensor X = column({0, 1, 3, 4});
  SoftKMeans soft({.num_clusters = 2,
                   .beta = 1,
                   .init = SoftKMeansInit::Given,
                   .initial_centers = column({0, 4}),
                   .max_iterations = 1});
  soft.fit(X);
  EXPECT_NEAR(soft.centers()(0, 0), 0.50033558, 1e-8);
  EXPECT_NEAR(soft.centers()(1, 0), 3.49966442, 1e-8);
  EXPECT_EQ(soft.num_iter(), 1);
  EXPECT_FALSE(soft.converged());
  // By symmetry the fixed point is (0.5, 3.5) less a little: more iterations converge.
  SoftKMeans converged({.num_clusters = 2, .init = SoftKMeansInit::Given, .initial_centers = column({0, 4})});
  converged.fit(X);
  EXPECT_TRUE(converged.converged());
  EXPECT_NEAR(converged.centers()(0, 0) + converged.centers()(1, 0), 4, 1e-12);
  const Tensor R = converged.predict_proba(X);
  EXPECT_LT((R.rowwise().sum().array() - 1).abs().maxCoeff(), 1e-15);
  EXPECT_EQ(converged.predict(X), testing::vec({0, 0, 1, 1}));
}

TEST(SoftKMeans, EnergyNeverRisesAndStiffBetaGivesKMeans) {
  const Tensor X = load_dataset("iris").features;
  SoftKMeans soft({.num_clusters = 3, .beta = 0.5, .seed = 1});
  soft.fit(X);
  EXPECT_TRUE(soft.converged()) << soft.fit_result().message;
  const auto& history = soft.fit_result().history;
  for (std::size_t t = 1; t < history.size(); ++t)
    EXPECT_LE(history[t], history[t - 1] + 1e-12 * std::abs(history[t - 1]));
  EXPECT_NEAR(soft.score(X), -soft.energy() / 150, 1e-12);
  // β = 1000: responsibilities are hard to rounding, so the centres are k-means' from the same start.
  KMeans hard({.num_clusters = 3, .seed = 1});
  hard.fit(X);
  SoftKMeans stiff({.num_clusters = 3, .beta = 1000, .init = SoftKMeansInit::Given, .initial_centers = hard.centers()});
  stiff.fit(X);
  EXPECT_LT((stiff.centers() - hard.centers()).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_EQ(stiff.predict(X), hard.predict(X));
}

TEST(SoftKMeans, RejectsBadOptionsAndInput) {
  EXPECT_THROW(SoftKMeans({.num_clusters = 0}), ValueError);
  EXPECT_THROW(SoftKMeans({.beta = 0}), ValueError);
  EXPECT_THROW(SoftKMeans({.max_iterations = 0}), ValueError);
  EXPECT_THROW(SoftKMeans({.num_clusters = 2, .init = SoftKMeansInit::Given, .initial_centers = column({1})}),
               ValueError);
  EXPECT_THROW(SoftKMeans({.num_clusters = 3}).fit(column({1, 2})), ValueError);
  EXPECT_THROW(SoftKMeans({.num_clusters = 1}).fit(rows({{1, kNaN}})), ValueError);
  EXPECT_THROW(SoftKMeans({.num_clusters = 1, .init = SoftKMeansInit::Given, .initial_centers = rows({{1, 2}})})
                   .fit(column({1, 2})),
               ShapeError);
  SoftKMeans soft({.num_clusters = 1});
  EXPECT_THROW(soft.predict(column({1})), NotFittedError);
  soft.fit(column({1, 2}));
  EXPECT_THROW(soft.predict(rows({{1, 2}})), ShapeError);
}

}  // namespace
}  // namespace dagml
