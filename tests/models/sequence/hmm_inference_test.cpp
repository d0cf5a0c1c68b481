// Forward–backward, the likelihood and Viterbi (models/sequence/hmm_inference.h) against the
// worked example of the spec (notes 002 §2.2, derived) and brute-force enumeration of every path.
#include "models/sequence/hmm_inference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "tests/models/sequence/hmm_test_support.h"

namespace dagml {
namespace {

using hmm_test::brute_force_hmm;
using hmm_test::random_hmm;
using hmm_test::RandomHmm;

// log N(x; μ, 1) for each observation and mean: the spec example's emissions.
Tensor unit_gaussian_log_emission(const Vector& x, const Vector& means) {
  Tensor out(x.size(), means.size());
  for (Index n = 0; n < x.size(); ++n)
    for (Index k = 0; k < means.size(); ++k)
      out(n, k) = -0.5 * std::log(2 * std::numbers::pi) - 0.5 * (x(n) - means(k)) * (x(n) - means(k));
  return out;
}

TEST(HmmInference, SpecWorkedExample) {
  // notes 002 §2.2: π = (0.5, 0.5), Π = [[0.9, 0.2], [0.1, 0.8]], N(μ_k, 1) with μ = (0, 3), x = (0, 3, 3).
  const Vector start{{0.5, 0.5}};
  const Tensor transition{{0.9, 0.2}, {0.1, 0.8}};
  const Tensor log_emission = unit_gaussian_log_emission(Vector{{0.0, 3.0, 3.0}}, Vector{{0.0, 3.0}});
  const HmmPosteriors p = hmm_posteriors(log_emission, start, transition);
  EXPECT_NEAR(std::exp(p.log_likelihood), 0.0030436672, 1e-10);
  EXPECT_NEAR(p.log_likelihood, -5.794692, 1e-6);
  EXPECT_NEAR(hmm_log_likelihood(log_emission, start, transition), p.log_likelihood, 1e-14);
  EXPECT_FALSE(p.log_space);
  const double gamma0[] = {0.770841, 0.933047, 0.012644, 0.003884};
  for (Index n = 0; n < 4; ++n) EXPECT_NEAR(p.state(n, 0), gamma0[n], 1e-6) << "n = " << n;
  const ViterbiPath path = viterbi(log_emission, start, transition);
  EXPECT_EQ(path.states, (std::vector<Index>{0, 0, 1, 1}));
  EXPECT_NEAR(path.log_joint, -6.081052, 1e-6);
}

TEST(HmmInference, MatchesBruteForceEnumeration) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Index K = 2 + static_cast<Index>(seed % 3), T = 5;
    const RandomHmm m = random_hmm(K, T, 4.0, seed);
    const auto exact = brute_force_hmm(m.log_emission, m.start, m.transition);
    const HmmPosteriors p = hmm_posteriors(m.log_emission, m.start, m.transition);
    EXPECT_NEAR(p.log_likelihood, exact.log_likelihood, 1e-12) << "seed " << seed;
    EXPECT_NEAR(hmm_log_likelihood(m.log_emission, m.start, m.transition), exact.log_likelihood, 1e-12);
    EXPECT_LT((p.state - exact.state).cwiseAbs().maxCoeff(), 1e-12) << "seed " << seed;
    EXPECT_LT((p.transition - exact.transition).cwiseAbs().maxCoeff(), 1e-12) << "seed " << seed;
    const ViterbiPath path = viterbi(m.log_emission, m.start, m.transition);
    EXPECT_EQ(path.states, exact.best) << "seed " << seed;
    EXPECT_NEAR(path.log_joint, exact.best_log_joint, 1e-12);
  }
}

TEST(HmmInference, PosteriorsAreDistributions) {
  const RandomHmm m = random_hmm(4, 200, 30.0, 7);
  const HmmPosteriors p = hmm_posteriors(m.log_emission, m.start, m.transition);
  EXPECT_LT((p.state.rowwise().sum().array() - 1).abs().maxCoeff(), 1e-12);
  EXPECT_NEAR(p.transition.sum(), 200.0, 1e-9);  // one move per observation
  // Σ_k ξ_n(k, j) = γ_{n−1}(j): the column sums of the counts are the occupancies of z_0..z_{T−1}.
  const Vector left = p.state.topRows(200).colwise().sum().transpose();
  EXPECT_LT((p.transition.colwise().sum().transpose() - left).cwiseAbs().maxCoeff(), 1e-9);
}

// Emissions 999 nats apart underflow b_n(0) = e^{−999} to zero, and Π(1, 0) = 1e-310 makes the
// only state that can emit x_2 nearly unreachable: c_2 < the smallest normal double, so the
// scaled recursion cannot represent the sequence and log space takes over.
TEST(HmmInference, LogSpaceFallbackWhenScalingUnderflows) {
  const Vector start{{1.0, 0.0}};
  const Tensor transition{{1.0, 0.5}, {1e-310, 0.5}};
  const Tensor log_emission{{-1.0, -2.0}, {-1000.0, -1.0}, {-3.0, -1.5}};
  const auto exact = brute_force_hmm(log_emission, start, transition);
  const HmmPosteriors p = hmm_posteriors(log_emission, start, transition);
  EXPECT_TRUE(p.log_space);
  EXPECT_NEAR(p.log_likelihood, exact.log_likelihood, 1e-9);
  EXPECT_NEAR(hmm_log_likelihood(log_emission, start, transition), exact.log_likelihood, 1e-9);
  EXPECT_LT((p.state - exact.state).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((p.transition - exact.transition).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_EQ(viterbi(log_emission, start, transition).states, exact.best);
}

TEST(HmmInference, ImpossibleSequenceHasLikelihoodZero) {
  // State 1 alone can emit x_2, and Π never enters it.
  const Vector start{{1.0, 0.0}};
  const Tensor transition{{1.0, 0.5}, {0.0, 0.5}};
  const Scalar never = -std::numeric_limits<Scalar>::infinity();
  const Tensor log_emission{{-1.0, -1.0}, {never, -1.0}};
  const HmmPosteriors p = hmm_posteriors(log_emission, start, transition);
  EXPECT_EQ(p.log_likelihood, never);
  EXPECT_TRUE(p.state.array().isNaN().all());
  EXPECT_EQ(hmm_log_likelihood(log_emission, start, transition), never);
  EXPECT_EQ(viterbi(log_emission, start, transition).log_joint, never);
  // A step no state can emit at all.
  const Tensor nowhere{{-1.0, -1.0}, {never, never}};
  EXPECT_EQ(hmm_posteriors(nowhere, start, transition).log_likelihood, never);
}

TEST(HmmInference, EmptySequence) {
  const Vector start{{0.25, 0.75}};
  const Tensor transition{{0.9, 0.2}, {0.1, 0.8}};
  const HmmPosteriors p = hmm_posteriors(Tensor(0, 2), start, transition);
  EXPECT_EQ(p.log_likelihood, 0);
  EXPECT_TRUE(p.state.row(0).transpose().isApprox(start));
  EXPECT_EQ(viterbi(Tensor(0, 2), start, transition).states, std::vector<Index>{1});
}

}  // namespace
}  // namespace dagml
