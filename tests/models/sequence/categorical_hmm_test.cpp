// CategoricalHmm (models/sequence/categorical_hmm.h) on the occasionally dishonest casino of
// Durbin et al., "Biological Sequence Analysis" §3.2 (a fair die, and a loaded one that shows a six
// half of the time): enumeration, one Baum–Welch iteration by hand, recovery from samples and bad
// input.
#include "models/sequence/categorical_hmm.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "graph/error.h"
#include "tests/models/sequence/hmm_test_support.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using hmm_test::brute_force_hmm;

const Vector kCasinoStart{{1.0, 0.0}};
const Tensor kCasinoTransition{{0.95, 0.1}, {0.05, 0.9}};  // columns: from fair, from loaded
Tensor casino_emission() {
  Tensor B(2, 6);
  B.row(0).setConstant(1.0 / 6);
  B.row(1) << 0.1, 0.1, 0.1, 0.1, 0.1, 0.5;
  return B;
}

CategoricalHmm casino(Index max_iterations = 0, Scalar pseudo_count = 0) {
  CategoricalHmm hmm({.num_states = 2, .num_symbols = 6, .pseudo_count = pseudo_count, .initial_start = kCasinoStart,
                      .initial_transition = kCasinoTransition, .initial_emission = casino_emission(),
                      .max_iterations = max_iterations, .tolerance = 0});
  return hmm;
}

Tensor rolls(std::initializer_list<Scalar> faces) {
  Tensor X(static_cast<Index>(faces.size()), 1);
  Index n = 0;
  for (Scalar f : faces) X(n++, 0) = f;
  return X;
}

Tensor log_emission_of(const Tensor& X, const Tensor& B) {
  Tensor out(X.rows(), B.rows());
  for (Index n = 0; n < X.rows(); ++n)
    for (Index k = 0; k < B.rows(); ++k) out(n, k) = std::log(B(k, static_cast<Index>(X(n, 0))));
  return out;
}

TEST(CategoricalHmm, GivenModelMatchesEnumeration) {
  const Tensor X = rolls({0, 5, 5, 5, 2, 5, 1});
  CategoricalHmm hmm = casino();
  hmm.fit(X);
  const auto exact = brute_force_hmm(log_emission_of(X, casino_emission()), kCasinoStart, kCasinoTransition);
  EXPECT_NEAR(hmm.score(X), exact.log_likelihood, 1e-12);
  EXPECT_EQ(hmm.decode(X).states, exact.best);
  EXPECT_NEAR(hmm.decode(X).log_joint, exact.best_log_joint, 1e-12);
  EXPECT_LT((hmm.predict_proba(X) - exact.state.bottomRows(7)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_EQ(hmm.num_symbols(), 6);
}

TEST(CategoricalHmm, OneBaumWelchIterationByHand) {
  const Tensor X = rolls({0, 5, 5, 3, 5, 5, 1, 4});
  const Scalar pseudo_count = 0.5;
  CategoricalHmm hmm = casino(1, pseudo_count);
  hmm.fit(X);
  const auto exact = brute_force_hmm(log_emission_of(X, casino_emission()), kCasinoStart, kCasinoTransition);
  Tensor transition = exact.transition;
  for (Index j = 0; j < 2; ++j) transition.col(j) /= transition.col(j).sum();
  Tensor B = Tensor::Constant(2, 6, pseudo_count);
  for (Index n = 0; n < 8; ++n) B.col(static_cast<Index>(X(n, 0))) += exact.state.row(n + 1).transpose();
  B.array().colwise() /= B.rowwise().sum().array();
  EXPECT_LT((hmm.start_probabilities() - exact.state.row(0).transpose()).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((hmm.transition() - transition).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((hmm.emission_probabilities() - B).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(CategoricalHmm, RecoversTheCasinoFromItsRolls) {
  CategoricalHmm truth = casino();
  truth.fit(rolls({0, 1, 2, 3, 4, 5}));
  // Twenty sessions of 500 rolls, each starting at the fair die.
  const Index S = 20, T = 500;
  Tensor X(S * T, 1);
  std::vector<Index> lengths(S, T);
  for (Index s = 0; s < S; ++s) X.middleRows(s * T, T) = truth.sample(T, static_cast<std::uint64_t>(s)).X;
  CategoricalHmm hmm({.num_states = 2, .max_iterations = 500, .tolerance = 1e-9, .seed = 2});
  hmm.fit(X, lengths);
  EXPECT_EQ(hmm.likelihood_decreases(), 0);
  EXPECT_GE(hmm.score(X, lengths), truth.score(X, lengths));
  const Index loaded = hmm.emission_probabilities()(0, 5) > hmm.emission_probabilities()(1, 5) ? 0 : 1;
  EXPECT_NEAR(hmm.emission_probabilities()(loaded, 5), 0.5, 0.05);
  EXPECT_NEAR(hmm.emission_probabilities()(1 - loaded, 5), 1.0 / 6, 0.04);
  EXPECT_NEAR(hmm.transition()(loaded, loaded), 0.9, 0.05);
  EXPECT_NEAR(hmm.start_probabilities()(1 - loaded), 1.0, 0.05);
}

TEST(CategoricalHmm, SeveralColumns) {
  // Two independent symbol columns per step: B is K × 2M, one block per column.
  Tensor X(6, 2);
  X << 0, 2, 1, 2, 0, 1, 1, 0, 1, 0, 0, 2;
  CategoricalHmm hmm({.num_states = 2, .max_iterations = 30});
  hmm.fit(X);
  EXPECT_EQ(hmm.num_symbols(), 3);
  const Tensor& B = hmm.emission_probabilities();
  ASSERT_EQ(B.cols(), 6);
  EXPECT_LT((B.leftCols(3).rowwise().sum().array() - 1).abs().maxCoeff(), 1e-12);
  EXPECT_LT((B.rightCols(3).rowwise().sum().array() - 1).abs().maxCoeff(), 1e-12);
  const HmmSample s = hmm.sample(100, 1);
  EXPECT_EQ(s.X.cols(), 2);
  EXPECT_LE(s.X.maxCoeff(), 2);
}

TEST(CategoricalHmm, BadSymbols) {
  CategoricalHmm hmm({.num_states = 2});
  EXPECT_THAT([&] { hmm.fit(rolls({0, 1.5, 2})); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("integers in 0..10⁹, found 1.5 at row 1, column 0")));
  EXPECT_THAT([&] { hmm.fit(rolls({0, -1, 2})); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("found -1 at row 1")));
  EXPECT_THAT([&] { CategoricalHmm({.num_symbols = 3}).fit(rolls({0, 3})); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("integers in 0..2, found 3")));
  hmm.fit(rolls({0, 1, 2, 1, 0}));
  EXPECT_THAT([&] { hmm.predict(rolls({0, 3})); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("categorical_hmm::predict: expected symbol codes that are "
                                                            "integers in 0..2, found 3 at row 1")));
  // A symbol the model gives probability zero: the sequence is impossible.
  CategoricalHmm never({.num_states = 1, .num_symbols = 3});
  never.fit(rolls({0, 1, 0}));
  EXPECT_EQ(never.score(rolls({0, 2})), -std::numeric_limits<Scalar>::infinity());
  EXPECT_THAT([&] { never.predict_proba(rolls({0, 2})); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("has probability zero under the model")));
  // With a pseudo-count it is merely unlikely.
  CategoricalHmm smoothed({.num_states = 1, .num_symbols = 3, .pseudo_count = 1});
  smoothed.fit(rolls({0, 1, 0}));
  EXPECT_NEAR(smoothed.emission_probabilities()(0, 2), 1.0 / 6, 1e-12);  // (0 + 1) / (3 + 3)

  EXPECT_THROW(CategoricalHmm({.num_symbols = -1}), ValueError);
  EXPECT_THROW(CategoricalHmm({.pseudo_count = -1}), ValueError);
  EXPECT_THAT([] { CategoricalHmm({.num_states = 2, .initial_emission = Tensor::Constant(2, 3, 0.5)}).fit(rolls({0, 1})); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("summing to 1")));
}

}  // namespace
}  // namespace dagml
