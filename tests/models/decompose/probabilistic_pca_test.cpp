// Tests for ProbabilisticPCA: a hand-worked case (the notes' four points), the closed form against
// a NumPy computation on iris and wine (sklearn_reference.py), EM against the closed form (the
// iterative and closed-form fits of the same model agree), the EM monotonicity and callbacks,
// sampling, and bad input.
#include "models/decompose/probabilistic_pca.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "graph/error.h"
#include "literals.h"
#include "models/data/datasets.h"
#include "models/data/standard_scaler.h"
#include "optim/stop_after.h"
#include "sklearn_reference.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using testing::kNaN;
using testing::rows;

TEST(ProbabilisticPCA, HandWorkedFourPoints) {
  // (2,0), (0,1), (−2,0), (0,−1): S = diag(2, 1/2) with 1/n. k = 1: σ² = 1/2, W = (√(3/2), 0),
  // C = diag(2, 1/2) = S, so ℓ = −½ (2 log 2π + log 1 + tr(C⁻¹ S) = 2) = −log 2π − 1.
  const Tensor X = rows({{2, 0}, {0, 1}, {-2, 0}, {0, -1}});
  for (auto solver : {ProbabilisticPCASolver::ClosedForm, ProbabilisticPCASolver::Em}) {
    SCOPED_TRACE(enum_name(solver));
    // EM stops when ℓ changes by less than 1e-14, so its parameters are within about √1e-14.
    const Scalar close = solver == ProbabilisticPCASolver::Em ? 1e-6 : 1e-12;
    ProbabilisticPCA ppca({.num_components = 1, .solver = solver, .tolerance = 1e-14});
    ppca.fit(X);
    EXPECT_NEAR(ppca.noise_variance(), 0.5, close);
    EXPECT_NEAR(ppca.loadings()(0, 0), std::sqrt(1.5), close);
    EXPECT_NEAR(ppca.loadings()(1, 0), 0, close);
    EXPECT_NEAR(ppca.mean_log_likelihood(), -std::log(2 * std::numbers::pi) - 1, 1e-12);
    EXPECT_NEAR(ppca.score(X), ppca.mean_log_likelihood(), 1e-12);
    // E[z | x] = M⁻¹ Wᵀ x with M = 3/2 + 1/2 = 2: for x = (2, 0), √(3/2) · 2 / 2.
    EXPECT_NEAR(ppca.transform(rows({{2, 0}}))(0, 0), std::sqrt(1.5), close);
    EXPECT_TRUE(ppca.covariance().isApprox(rows({{2, 0}, {0, 0.5}}), close));
  }
}

TEST(ProbabilisticPCA, ClosedFormMatchesNumPy) {
  namespace ref = sklearn_reference;
  struct Case {
    const char* name;
    Index k;
    Scalar sigma2, log_likelihood;
    Tensor abs_loadings, score_samples, abs_posterior;
  };
  const Case cases[] = {
      {"iris", 2, ref::k_iris_ppca_noise_variance, ref::k_iris_ppca_mean_log_likelihood,
       testing::reference_rows(ref::k_iris_ppca_abs_loadings, 4),
       testing::reference_rows(ref::k_iris_ppca_score_samples, 3),
       testing::reference_rows(ref::k_iris_ppca_abs_posterior_means, 3)},
      {"wine", 3, ref::k_wine_ppca_noise_variance, ref::k_wine_ppca_mean_log_likelihood,
       testing::reference_rows(ref::k_wine_ppca_abs_loadings, 13),
       testing::reference_rows(ref::k_wine_ppca_score_samples, 3),
       testing::reference_rows(ref::k_wine_ppca_abs_posterior_means, 3)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Tensor X = load_dataset(c.name).features;
    ProbabilisticPCA closed({.num_components = c.k});
    closed.fit(X);
    EXPECT_NEAR(closed.noise_variance(), c.sigma2, 1e-10 * c.sigma2);
    EXPECT_NEAR(closed.mean_log_likelihood(), c.log_likelihood, 1e-10 * std::abs(c.log_likelihood));
    EXPECT_TRUE(closed.loadings().cwiseAbs().isApprox(c.abs_loadings, 1e-9));
    const Vector scores = closed.score_samples(X.topRows(3));
    for (Index i = 0; i < 3; ++i) EXPECT_NEAR(scores(i), c.score_samples(i, 0), 1e-10 * std::abs(scores(i)));
    EXPECT_TRUE(closed.transform(X.topRows(3)).cwiseAbs().isApprox(c.abs_posterior, 1e-9));
    EXPECT_TRUE(closed.converged());
    EXPECT_EQ(closed.num_iter(), 0);
  }
}

// Note: EM converges linearly, slowly when the k-th and (k+1)-th eigenvalues of S are close or the
// features have very different scales (raw wine: proline's variance is 10⁵ times the others'; EM
// is still 1e-7 away in ℓ after 2·10⁵ iterations there), which is why the closed form is the
// default. The agreement test runs on iris and on standardised wine.
TEST(ProbabilisticPCA, EmAgreesWithTheClosedForm) {
  struct Case {
    const char* name;
    Index k;
    Tensor X;
  };
  const Case cases[] = {{"iris", 2, load_dataset("iris").features},
                        {"standardised wine", 3, StandardScaler().fit_transform(load_dataset("wine").features)}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ProbabilisticPCA closed({.num_components = c.k});
    closed.fit(c.X);
    // From a random W_0 EM reaches the same maximum; rotated to principal axes, the same W.
    ProbabilisticPCA em({.num_components = c.k,
                         .solver = ProbabilisticPCASolver::Em,
                         .max_iterations = 100000,
                         .tolerance = 1e-14,
                         .seed = 7});
    em.fit(c.X);
    const Scalar ll = closed.mean_log_likelihood();
    EXPECT_TRUE(em.converged()) << em.fit_result().message;
    EXPECT_EQ(em.likelihood_decreases(), 0);
    EXPECT_LE(em.mean_log_likelihood(), ll + 1e-12 * std::abs(ll));  // the closed form is the maximum
    EXPECT_NEAR(em.mean_log_likelihood(), ll, 1e-10 * std::abs(ll));
    EXPECT_NEAR(em.noise_variance(), closed.noise_variance(), 1e-5 * closed.noise_variance());
    EXPECT_LT((em.loadings() - closed.loadings()).cwiseAbs().maxCoeff(),
              1e-4 * closed.loadings().cwiseAbs().maxCoeff());
    EXPECT_LT((em.covariance() - closed.covariance()).cwiseAbs().maxCoeff(),
              1e-5 * closed.covariance().cwiseAbs().maxCoeff());
    // The recorded history is −ℓ_0, −ℓ_1, …: non-increasing up to rounding (the loop's own rule).
    const auto& history = em.fit_result().history;
    for (std::size_t t = 1; t < history.size(); ++t)
      EXPECT_LE(history[t], history[t - 1] + 1e-10 * (1 + std::abs(history[t - 1])));
  }
}

TEST(ProbabilisticPCA, CallbacksSeeEmAndMayStopIt) {
  const Tensor X = load_dataset("iris").features;
  testing::StopAfter stop(3);
  ProbabilisticPCA ppca({.num_components = 2, .solver = ProbabilisticPCASolver::Em, .tolerance = 0});
  ppca.fit(X, {&stop});
  EXPECT_EQ(ppca.fit_result().status, Status::CallbackStop);
  EXPECT_EQ(ppca.num_iter(), 3);
  EXPECT_FALSE(ppca.converged());
}

TEST(ProbabilisticPCA, SamplesHaveTheModelCovariance) {
  const Tensor X = load_dataset("iris").features;
  ProbabilisticPCA ppca({.num_components = 2});
  ppca.fit(X);
  const PpcaSample draws = ppca.sample(200000, 3);
  const Tensor centred = draws.X.rowwise() - draws.X.colwise().mean();
  const Tensor covariance = centred.transpose() * centred / static_cast<Scalar>(draws.X.rows());
  EXPECT_LT((covariance - ppca.covariance()).cwiseAbs().maxCoeff(), 0.02 * ppca.covariance().cwiseAbs().maxCoeff());
  EXPECT_LT((draws.X.colwise().mean().transpose() - ppca.mean()).cwiseAbs().maxCoeff(), 0.02);
  EXPECT_EQ(draws.Z.cols(), 2);
  // Same seed, same draws.
  EXPECT_EQ(ppca.sample(5, 3).X, draws.X.topRows(5));
}

TEST(ProbabilisticPCA, RejectsBadOptionsAndInput) {
  EXPECT_THROW(ProbabilisticPCA({.num_components = 0}), ValueError);
  EXPECT_THROW(ProbabilisticPCA({.max_iterations = -1}), ValueError);
  EXPECT_THROW(ProbabilisticPCA({.tolerance = -1}), ValueError);
  EXPECT_THROW(ProbabilisticPCA({.num_components = 2}).fit(rows({{1, 2}, {3, 4}, {5, 7}})), ValueError);  // k = d
  EXPECT_THROW(ProbabilisticPCA().fit(rows({{1, 2}})), ValueError);
  EXPECT_THROW(ProbabilisticPCA().fit(rows({{1, kNaN}, {3, 4}})), ValueError);
  try {
    ProbabilisticPCA().fit(rows({{0, 0}, {1, 1}, {2, 2}}));  // on a line: σ² = 0
    FAIL() << "expected a ValueError";
  } catch (const ValueError& e) {
    EXPECT_THAT(e.what(), HasSubstr("subspace of dimension ≤ num_components = 1"));
  }
  ProbabilisticPCA ppca;
  EXPECT_THROW(ppca.transform(rows({{1, 2}})), NotFittedError);
  EXPECT_THROW(ppca.sample(1), NotFittedError);
  ppca.fit(rows({{1, 2}, {3, 4}, {5, 7}}));
  EXPECT_THROW(ppca.score_samples(rows({{1, 2, 3}})), ShapeError);
  EXPECT_THROW(ppca.sample(-1), ValueError);
}

}  // namespace
}  // namespace dagml
