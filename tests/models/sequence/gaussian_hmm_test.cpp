// GaussianHmm (models/sequence/gaussian_hmm.h): one Baum–Welch iteration against the M-step of
// the spec computed from brute-force posteriors, parameter recovery from its own samples, several
// sequences, thread-count independence, callbacks and bad input.
#include "models/sequence/gaussian_hmm.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "graph/error.h"
#include "graph/threads.h"
#include "optim/callbacks.h"
#include "tests/models/sequence/hmm_test_support.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using hmm_test::brute_force_hmm;
using hmm_test::diagonal_log_emission;

// A two-state, two-dimensional model with diagonal covariances.
const Vector kStart{{0.6, 0.4}};
const Tensor kTransition{{0.9, 0.2}, {0.1, 0.8}};
const Tensor kMeans{{-2.0, 0.0}, {2.0, 1.0}};
const Tensor kVariances{{1.0, 0.5}, {0.7, 1.5}};

// A model holding given parameters: fit with no iteration keeps its starting point.
GaussianHmm given_model(CovarianceType type = CovarianceType::Diagonal, Tensor covariances = kVariances) {
  GaussianHmm hmm({.num_states = 2, .covariance_type = type, .reg_covar = 0, .initial_start = kStart,
                   .initial_transition = kTransition, .initial_means = kMeans,
                   .initial_covariances = std::move(covariances), .max_iterations = 0});
  hmm.fit(kMeans);
  return hmm;
}

TEST(GaussianHmm, OneBaumWelchIterationIsTheMStepOfTheExactPosteriors) {
  const Tensor X{{-2.5, 0.3}, {-1.0, -0.4}, {1.8, 1.2}, {2.6, 0.1}, {0.2, 2.0}, {-1.7, -0.2}};
  const Scalar reg_covar = 1e-3;
  GaussianHmm hmm({.num_states = 2, .reg_covar = reg_covar, .initial_start = kStart, .initial_transition = kTransition,
                   .initial_means = kMeans, .initial_covariances = kVariances, .max_iterations = 1, .tolerance = 0});
  hmm.fit(X);

  // θ_1 by the formulas of Note [Baum–Welch] on the posteriors of θ_0, enumerated.
  const auto exact = brute_force_hmm(diagonal_log_emission(X, kMeans, kVariances), kStart, kTransition);
  const Vector start = exact.state.row(0).transpose();
  Tensor transition = exact.transition;
  for (Index j = 0; j < 2; ++j) transition.col(j) /= transition.col(j).sum();
  const Tensor gamma = exact.state.bottomRows(6);
  Tensor means(2, 2), variances(2, 2);
  for (Index k = 0; k < 2; ++k) {
    const Scalar nk = gamma.col(k).sum();
    means.row(k) = (gamma.col(k).transpose() * X) / nk;
    for (Index j = 0; j < 2; ++j)
      variances(k, j) = (gamma.col(k).array() * (X.col(j).array() - means(k, j)).square()).sum() / nk + reg_covar;
  }
  EXPECT_LT((hmm.start_probabilities() - start).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((hmm.transition() - transition).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((hmm.means() - means).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((hmm.covariances() - variances).cwiseAbs().maxCoeff(), 1e-12);
  // The reported likelihood is that of θ_1, and it did not fall.
  const auto after = brute_force_hmm(diagonal_log_emission(X, means, variances), start, transition);
  EXPECT_NEAR(hmm.log_likelihood(), after.log_likelihood, 1e-10);
  EXPECT_NEAR(hmm.score(X), after.log_likelihood, 1e-10);
  EXPECT_GE(after.log_likelihood, exact.log_likelihood);
  EXPECT_EQ(hmm.num_iter(), 1);
}

TEST(GaussianHmm, GivenModelScoresAndDecodesLikeEnumeration) {
  const GaussianHmm hmm = given_model();
  const Tensor X{{-2.1, 0.2}, {1.5, 1.4}, {0.1, 0.4}, {2.2, 2.0}, {-1.0, -1.0}};
  const auto exact = brute_force_hmm(diagonal_log_emission(X, kMeans, kVariances), kStart, kTransition);
  EXPECT_NEAR(hmm.score(X), exact.log_likelihood, 1e-12);
  EXPECT_EQ(hmm.decode(X).states, exact.best);
  const Vector z = hmm.predict(X);
  for (Index n = 0; n < 5; ++n) EXPECT_EQ(z(n), static_cast<Scalar>(exact.best[static_cast<std::size_t>(n + 1)]));
  EXPECT_LT((hmm.predict_proba(X) - exact.state.bottomRows(5)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((hmm.posteriors(X).state - exact.state).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(GaussianHmm, SamplesFollowTheModel) {
  const GaussianHmm hmm = given_model();
  const HmmSample s = hmm.sample(40000, 3);
  ASSERT_EQ(s.X.rows(), 40000);
  // Empirical transition frequencies and per-state means (standard errors below 0.01).
  Tensor moves = Tensor::Zero(2, 2);
  Index previous = s.start_state;
  Tensor sums = Tensor::Zero(2, 2);
  Vector counts = Vector::Zero(2);
  for (Index n = 0; n < 40000; ++n) {
    const Index z = static_cast<Index>(s.states(n));
    moves(z, previous) += 1;
    sums.row(z) += s.X.row(n);
    counts(z) += 1;
    previous = z;
  }
  for (Index j = 0; j < 2; ++j) moves.col(j) /= moves.col(j).sum();
  EXPECT_LT((moves - kTransition).cwiseAbs().maxCoeff(), 0.01);
  EXPECT_LT(((sums.array().colwise() / counts.array()).matrix() - kMeans).cwiseAbs().maxCoeff(), 0.03);
  // The same seed, the same draws.
  EXPECT_EQ(hmm.sample(50, 9).X, hmm.sample(50, 9).X);
}

TEST(GaussianHmm, RecoversTheModelFromItsSamples) {
  const GaussianHmm truth = given_model();
  const HmmSample s = truth.sample(3000, 11);
  GaussianHmm hmm({.num_states = 2, .seed = 5});
  hmm.fit(s.X);
  EXPECT_TRUE(hmm.converged());
  EXPECT_EQ(hmm.likelihood_decreases(), 0);
  // States are found up to a permutation: order them by the first mean coordinate.
  const bool swapped = hmm.means()(0, 0) > hmm.means()(1, 0);
  Tensor means = hmm.means(), transition = hmm.transition(), variances = hmm.covariances();
  if (swapped) {
    means.row(0).swap(means.row(1));
    variances.row(0).swap(variances.row(1));
    transition = Tensor(transition.reverse());
  }
  EXPECT_LT((means - kMeans).cwiseAbs().maxCoeff(), 0.1);
  EXPECT_LT((variances - kVariances).cwiseAbs().maxCoeff(), 0.15);
  EXPECT_LT((transition - kTransition).cwiseAbs().maxCoeff(), 0.04);
  // A maximum of the likelihood: at least that of the true parameters.
  EXPECT_GE(hmm.score(s.X), truth.score(s.X));
  // Viterbi finds the sampled states almost everywhere.
  const Vector z = hmm.predict(s.X);
  Index agree = 0;
  for (Index n = 0; n < 3000; ++n) agree += (swapped ? 1 - z(n) : z(n)) == s.states(n);
  EXPECT_GT(agree, 2850);
  // The history is −ℓ per observation, non-increasing.
  const auto& history = hmm.fit_result().history;
  for (std::size_t t = 1; t < history.size(); ++t) EXPECT_LE(history[t], history[t - 1] + 1e-12);
}

TEST(GaussianHmm, EveryCovarianceTypeFits) {
  const HmmSample s = given_model().sample(800, 2);
  for (CovarianceType type :
       {CovarianceType::Full, CovarianceType::Tied, CovarianceType::Diagonal, CovarianceType::Spherical}) {
    GaussianHmm hmm({.num_states = 2, .covariance_type = type, .max_iterations = 200});
    hmm.fit(s.X);
    EXPECT_TRUE(hmm.converged()) << enum_name(type);
    EXPECT_EQ(hmm.likelihood_decreases(), 0) << enum_name(type);
    EXPECT_EQ(hmm.covariance(1).rows(), 2);
  }
  // Full covariances of a diagonal truth: the off-diagonal entries are near zero.
  GaussianHmm full({.num_states = 2, .covariance_type = CovarianceType::Full});
  full.fit(s.X);
  EXPECT_LT(std::abs(full.covariance(0)(0, 1)), 0.15);
}

TEST(GaussianHmm, SeveralSequences) {
  const GaussianHmm truth = given_model();
  const Tensor a = truth.sample(300, 1).X, b = truth.sample(200, 2).X;
  Tensor X(500, 2);
  X << a, b;
  const std::vector<Index> lengths{300, 200};
  EXPECT_EQ(truth.score(X, lengths), truth.score(a) + truth.score(b));
  Vector z(500);
  z << truth.predict(a), truth.predict(b);
  EXPECT_EQ(truth.predict(X, lengths), z);
  Tensor p(500, 2);
  p << truth.predict_proba(a), truth.predict_proba(b);
  EXPECT_EQ(truth.predict_proba(X, lengths), p);
  // One sequence of all rows is a different model of the data (one chain through the boundary).
  EXPECT_NE(truth.score(X), truth.score(X, lengths));

  // The fit sums the sequences' statistics in a fixed order: any thread count, the same model.
  auto fitted_bytes = [&](int threads) {
    set_num_threads(threads);
    GaussianHmm hmm({.num_states = 2, .seed = 4});
    hmm.fit(X, lengths);
    return hmm.to_bytes();
  };
  const std::string one = fitted_bytes(1), two = fitted_bytes(2);
  set_num_threads(0);
  EXPECT_EQ(one, two);
}

// EarlyStopping's on_end may put an earlier iterate in the result: the model then holds it.
TEST(GaussianHmm, EarlyStoppingRestoresTheBestParameters) {
  const Tensor X = given_model().sample(200, 8).X;
  // A score that is best after iteration 1 (on_begin scores the start first): 2, 1, 2, 3, …
  Index calls = 0;
  EarlyStopping early([&](const Vector&) { return std::abs(static_cast<Scalar>(calls++) - 1.0) + 1; },
                      {.patience = 2});
  GaussianHmmOptions options{.num_states = 2, .seed = 3};
  GaussianHmm hmm(options);
  hmm.fit(X, {}, {&early});
  options.max_iterations = 1;
  GaussianHmm one(options);
  one.fit(X);
  EXPECT_EQ(hmm.fit_result().status, Status::CallbackStop);
  EXPECT_EQ(hmm.start_probabilities(), one.start_probabilities());
  EXPECT_EQ(hmm.transition(), one.transition());
  EXPECT_EQ(hmm.means(), one.means());
  EXPECT_EQ(hmm.covariances(), one.covariances());
  EXPECT_NEAR(hmm.log_likelihood(), one.log_likelihood(), 1e-9);
}

TEST(GaussianHmm, BadInput) {
  const Tensor X = given_model().sample(30, 1).X;
  GaussianHmm hmm({.num_states = 2});
  EXPECT_THAT([&] { hmm.fit(X, {10, 10}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("summing to the 30 rows of X, found a sum of 20")));
  EXPECT_THAT([&] { hmm.fit(X, {30, 0}); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("lengths ≥ 1")));
  EXPECT_THAT([&] { hmm.fit(Tensor::Constant(5, 2, 1.0)); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("at least num_states = 2 distinct points, found 1")));
  Tensor nan = X;
  nan(3, 1) = std::nan("");
  EXPECT_THROW(hmm.fit(nan), ValueError);
  EXPECT_THROW(hmm.fit(Tensor(0, 2)), ValueError);
  EXPECT_THROW(hmm.predict(X), NotFittedError);
  hmm.fit(X);
  EXPECT_THROW(hmm.predict(Tensor::Zero(4, 3)), ShapeError);
  EXPECT_THAT([&] { hmm.score(X, {31}); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("gaussian_hmm::score")));
  EXPECT_THROW(hmm.sample(0), ValueError);
  EXPECT_THROW(hmm.covariance(2), ValueError);
  // A fit that throws leaves the fitted model as it was.
  const std::string before = hmm.to_bytes();
  EXPECT_THROW(hmm.fit(Tensor::Constant(5, 2, 1.0)), ValueError);
  EXPECT_TRUE(hmm.fitted());
  EXPECT_EQ(hmm.to_bytes(), before);

  EXPECT_THAT([] { GaussianHmm({.num_states = 0}); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("num_states ≥ 1")));
  EXPECT_THAT([] { GaussianHmm({.num_states = 2, .initial_transition = Tensor{{0.5, 0.5}, {0.6, 0.5}}}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("column 0 of initial_transition")));
  EXPECT_THAT([] { GaussianHmm({.num_states = 2, .initial_start = Vector{{1.0}}}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("initial_start of num_states = 2 entries, found 1")));
  EXPECT_THAT([] { GaussianHmm({.num_states = 2, .initial_covariances = kVariances}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("need initial_means")));
  EXPECT_THAT([] { GaussianHmm({.num_states = 2, .initial_means = kMeans, .initial_covariances = -kVariances}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("positive definite")));
}

}  // namespace
}  // namespace dagml
