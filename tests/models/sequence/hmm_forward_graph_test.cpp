// The forward algorithm as a graph (models/sequence/hmm_forward_graph.h): its value is the
// likelihood, its gradient is the forward–backward posteriors (Eisner 2016), it passes the finite-
// difference gradient check, and an HMM trained by L-BFGS on it reaches Baum–Welch's likelihood.
#include "models/sequence/hmm_forward_graph.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>


#include "autodiff/elementwise.h"
#include "autodiff/derivatives.h"
#include "autodiff/gradcheck.h"
#include "autodiff/linalg.h"
#include "autodiff/softmax.h"
#include "graph/error.h"
#include "models/sequence/categorical_hmm.h"
#include "models/sequence/hmm_inference.h"
#include "optim/graph_objective.h"
#include "optim/lbfgs.h"
#include "tests/models/sequence/hmm_test_support.h"

namespace dagml {
namespace {

// The parameters of a random model as graph parameters, and its log-likelihood node.
struct ForwardGraph {
  Var log_emission, log_start, log_transition, log_p;
};
ForwardGraph forward_graph(Graph& g, const hmm_test::RandomHmm& m) {
  ForwardGraph f;
  f.log_emission = g.parameter("log_emission", m.log_emission);
  f.log_start = g.parameter("log_start", Tensor(m.start.array().log().transpose()));
  f.log_transition = g.parameter("log_transition", Tensor(m.transition.array().log()));
  f.log_p = hmm_forward_log_likelihood(f.log_emission, f.log_start, f.log_transition);
  return f;
}

TEST(HmmForwardGraph, GradientsAreThePosteriors) {
  const hmm_test::RandomHmm m = hmm_test::random_hmm(3, 40, 5.0, 1);
  Graph g;
  const ForwardGraph f = forward_graph(g, m);
  const HmmPosteriors p = hmm_posteriors(m.log_emission, m.start, m.transition);
  EXPECT_NEAR(f.log_p.item(), p.log_likelihood, 1e-11);
  EXPECT_LT((gradient(f.log_p, f.log_emission).value() - p.state.bottomRows(40)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((gradient(f.log_p, f.log_start).value().transpose() - p.state.row(0).transpose()).cwiseAbs().maxCoeff(),
            1e-12);
  EXPECT_LT((gradient(f.log_p, f.log_transition).value() - p.transition).cwiseAbs().maxCoeff(), 1e-11);
}

TEST(HmmForwardGraph, PassesTheGradientCheck) {
  Graph g;
  const ForwardGraph f = forward_graph(g, hmm_test::random_hmm(2, 5, 5.0, 2));
  const GradcheckResult r = gradcheck(f.log_p, {f.log_emission, f.log_start, f.log_transition});
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(HmmForwardGraph, ShapeErrors) {
  Graph g;
  const Var e = g.input("e", Tensor::Zero(4, 3)), s = g.input("s", Tensor::Zero(1, 3));
  EXPECT_THAT([&] { hmm_forward_log_likelihood(e, s, g.input("t", Tensor::Zero(2, 2))); },
              ::testing::ThrowsMessage<ShapeError>(::testing::HasSubstr("found 4×3, 1×3 and 2×2")));
}

// A categorical HMM as a graph: π, the columns of Π and the rows of B are softmaxes of free
// logits, the loss is −Σ_s log p(x^s) / Σ_s T_s over ten sequences. Baum–Welch's fixed point is a
// stationary point of that loss, and L-BFGS on it trains the HMM to a stationary point too (not
// necessarily the same one: the likelihood has several local maxima).
TEST(HmmForwardGraph, BaumWelchsFixedPointIsStationaryAndGradientTrainingWorks) {
  CategoricalHmm truth({.num_states = 2, .num_symbols = 6, .initial_start = Vector{{0.5, 0.5}},
                        .initial_transition = Tensor{{0.95, 0.1}, {0.05, 0.9}},
                        .initial_emission = Tensor{{1 / 6., 1 / 6., 1 / 6., 1 / 6., 1 / 6., 1 / 6.},
                                                   {0.1, 0.1, 0.1, 0.1, 0.1, 0.5}},
                        .max_iterations = 0});
  truth.fit(Tensor::Zero(1, 1));
  const Index S = 10, T = 60, K = 2, M = 6;
  Tensor X(S * T, 1);
  for (Index s = 0; s < S; ++s) X.middleRows(s * T, T) = truth.sample(T, static_cast<std::uint64_t>(s)).X;
  const std::vector<Index> lengths(S, T);
  CategoricalHmm baum_welch({.num_states = K, .num_symbols = M, .max_iterations = 5000, .tolerance = 1e-13, .seed = 1});
  baum_welch.fit(X, lengths);
  ASSERT_TRUE(baum_welch.converged());

  // Logits of Baum–Welch's parameters: log π, log Πᵀ (row j holds column j of Π), log B.
  Graph g;
  const Var start_logits = g.parameter("start_logits", Tensor(baum_welch.start_probabilities().array().log().transpose()));
  const Var transition_logits = g.parameter("transition_logits", Tensor(baum_welch.transition().transpose().array().log()));
  const Var emission_logits = g.parameter("emission_logits", Tensor(baum_welch.emission_probabilities().array().log()));
  const Var log_start = log_softmax(start_logits), log_transition = transpose(log_softmax(transition_logits));
  const Var log_symbol = transpose(log_softmax(emission_logits));  // M×K: log B(k, m) at (m, k)
  std::vector<Var> sequences;
  for (Index s = 0; s < S; ++s) {
    Tensor one_hot = Tensor::Zero(T, M);
    for (Index n = 0; n < T; ++n) one_hot(n, static_cast<Index>(X(s * T + n, 0))) = 1;
    const Var log_emission = matmul(g.input(fmt::format("symbols{}", s), one_hot), log_symbol);  // T×K
    sequences.push_back(hmm_forward_log_likelihood(log_emission, log_start, log_transition));
  }
  GraphObjective objective(scale(add_n(sequences), -1.0 / static_cast<Scalar>(S * T)),
                           {start_logits, transition_logits, emission_logits});
  const Vector fixed_point = objective.parameters_vector();
  Vector gradient_at_fixed_point;
  const Scalar loss = objective.value_and_gradient(fixed_point, gradient_at_fixed_point);
  EXPECT_NEAR(loss, -baum_welch.log_likelihood() / static_cast<Scalar>(S * T), 1e-12);
  EXPECT_LT(gradient_at_fixed_point.norm(), 1e-6);

  // Trained by gradient from uniform π and Π and Baum–Welch's seeded initial B.
  CategoricalHmm start({.num_states = K, .num_symbols = M, .max_iterations = 0, .seed = 1});
  start.fit(X, lengths);
  Vector x0(K + K * K + K * M);
  x0 << Vector::Zero(K + K * K), Tensor(start.emission_probabilities().array().log()).reshaped<Eigen::RowMajor>();
  const LbfgsOptions options{.stop = {.max_iterations = 5000, .gradient_tolerance = 1e-7}};
  const Result r = minimize(objective, x0, options);
  Vector gradient_at_end;
  objective.value_and_gradient(r.x, gradient_at_end);
  EXPECT_LT(gradient_at_end.norm(), 1e-6) << r.message;
  EXPECT_LT(r.value, objective.value(x0) - 0.05);
}

}  // namespace
}  // namespace dagml
