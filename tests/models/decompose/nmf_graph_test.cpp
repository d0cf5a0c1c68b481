// Tests for NMF under a divergence written as a graph (models/decompose/nmf_graph.h): the two
// built-in graph divergences equal the multiplicative updates' objectives and pass the gradient
// check; projected gradient reaches the multiplicative updates' objective on digits, factors an
// exact non-negative rank-3 matrix, satisfies the KKT conditions of the convex code problem, and
// minimises a user-written Itakura–Saito divergence; bad input is refused.
#include "models/decompose/nmf_graph.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "autodiff/elementwise.h"
#include "autodiff/gradcheck.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/random.h"
#include "models/data/datasets.h"
#include "models/decompose/nmf.h"
#include "nmf_reference.h"
#include "optim/stop_after.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;

Tensor nmf_graph_digits() { return load_dataset("digits").features.topRows(40); }
Tensor nmf_graph_W0() { return testing::reference_rows(nmf_reference::k_W0, 40); }
Tensor nmf_graph_H0() { return testing::reference_rows(nmf_reference::k_H0, 4); }

// D(X‖WH) evaluated through the graph divergence at given factors.
Scalar graph_divergence_at(const NmfDivergence& divergence, const Tensor& X, const Tensor& W, const Tensor& H) {
  Graph g;
  return divergence(g.input("X", X), g.constant(W * H)).item();
}

Tensor positive_random(Index rows, Index cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Tensor M(rows, cols);
  for (Index i = 0; i < M.size(); ++i) M.data()[i] = 0.1 + std::abs(standard_normal(rng));
  return M;
}

TEST(NmfGraph, BuiltInDivergencesAreTheMultiplicativeUpdatesObjectives) {
  const Tensor X = nmf_graph_digits();
  for (NMFLoss loss : {NMFLoss::Frobenius, NMFLoss::KullbackLeibler}) {
    SCOPED_TRACE(enum_name(loss));
    NMF mu({.num_components = 4, .loss = loss, .init = NMFInit::Given, .initial_W = nmf_graph_W0(),
            .initial_H = nmf_graph_H0(), .max_iterations = 50, .tolerance = 0});
    const Tensor W = mu.fit_transform(X);
    const NmfDivergence divergence = loss == NMFLoss::Frobenius ? frobenius_divergence : kullback_leibler_divergence;
    // reconstruction_error() = √(2 D) (Note [NMF stopping]).
    const Scalar expected = 0.5 * mu.reconstruction_error() * mu.reconstruction_error();
    EXPECT_NEAR(graph_divergence_at(divergence, X, W, mu.components()), expected, 1e-11 * expected);
  }
}

TEST(NmfGraph, DivergencesPassTheGradientCheck) {
  const Tensor X = nmf_graph_digits().topRows(5).leftCols(12);
  for (const NmfDivergence& divergence : {NmfDivergence(frobenius_divergence), NmfDivergence(kullback_leibler_divergence)}) {
    Graph g;
    const Var W = g.parameter("W", positive_random(5, 2, 1)), H = g.parameter("H", positive_random(2, 12, 2));
    const GradcheckResult r = gradcheck(divergence(g.input("X", X), matmul(W, H)), {W, H});
    EXPECT_TRUE(r.passed) << r.message;
  }
}

TEST(NmfGraph, ReachesTheMultiplicativeUpdatesObjectiveOnDigits) {
  // From scikit-learn's start (nmf_reference.py), both methods run towards a stationary point; NMF
  // is not convex, so the points may differ. Measured: projected gradient stops at 12384.1 after
  // 851 iterations, 0.11 % below the multiplicative updates' 12397.6 after 20,000.
  const Tensor X = nmf_graph_digits();
  NMF mu({.num_components = 4, .init = NMFInit::Given, .initial_W = nmf_graph_W0(), .initial_H = nmf_graph_H0(),
          .max_iterations = 20000, .tolerance = 1e-10});
  mu.fit(X);
  const Scalar mu_divergence = 0.5 * mu.reconstruction_error() * mu.reconstruction_error();
  const NmfGraphFit pg = fit_nmf_by_gradient(
      X, nmf_graph_W0(), nmf_graph_H0(), frobenius_divergence,
      {.stop = {.max_iterations = 20000, .gradient_tolerance = 1e-6, .value_tolerance = 1e-14}});
  EXPECT_TRUE(is_converged(pg.result.status)) << pg.result.message;
  EXPECT_LE(pg.result.value, mu_divergence);
  EXPECT_GE(pg.result.value, 0.99 * mu_divergence);
  EXPECT_GE(pg.W.minCoeff(), 0);
  EXPECT_GE(pg.H.minCoeff(), 0);
  EXPECT_NEAR(pg.result.value, graph_divergence_at(frobenius_divergence, X, pg.W, pg.H), 1e-9 * pg.result.value);
  for (std::size_t t = 1; t < pg.result.history.size(); ++t) EXPECT_LE(pg.result.history[t], pg.result.history[t - 1]);
}

TEST(NmfGraph, FactorsAnExactNonNegativeRankThreeMatrix) {
  Tensor W_true = positive_random(30, 3, 7), H_true = positive_random(3, 12, 8);
  W_true.col(0).head(10).setZero();  // parts that are really used sparsely
  H_true.row(1).tail(4).setZero();
  const Tensor X = W_true * H_true;
  const NmfGraphFit f = fit_nmf_by_gradient(X, positive_random(30, 3, 9), positive_random(3, 12, 10),
                                            frobenius_divergence,
                                            {.stop = {.max_iterations = 50000, .gradient_tolerance = 1e-9}});
  EXPECT_LT((X - f.W * f.H).norm(), 1e-5 * X.norm()) << f.result.message;
}

TEST(NmfGraph, CodesSatisfyTheKktConditionsOfTheConvexCodeProblem) {
  // With H fixed, ½‖X − WH‖² is convex in W: the result is optimal iff, with G = (WH − X)Hᵀ,
  // G_ij ≥ 0 where W_ij = 0 and G_ij = 0 where W_ij > 0.
  const Tensor X = load_dataset("digits").features.middleRows(40, 10);
  NMF mu({.num_components = 4, .init = NMFInit::Given, .initial_W = nmf_graph_W0(), .initial_H = nmf_graph_H0(),
          .max_iterations = 200, .tolerance = 0});
  mu.fit(nmf_graph_digits());
  const Tensor& H = mu.components();
  const NmfGraphFit codes = nmf_codes_by_gradient(X, Tensor::Constant(10, 4, 1.0), H, frobenius_divergence,
                                                  {.stop = {.max_iterations = 20000, .gradient_tolerance = 1e-8}});
  ASSERT_TRUE(is_converged(codes.result.status)) << codes.result.message;
  EXPECT_EQ(codes.H, H);
  const Tensor G = (codes.W * H - X) * H.transpose();
  const Scalar scale = (X * H.transpose()).cwiseAbs().maxCoeff();
  int zeros = 0;
  for (Index i = 0; i < G.size(); ++i) {
    if (codes.W.data()[i] == 0) {
      ++zeros;
      EXPECT_GE(G.data()[i], -1e-8 * scale);
    } else {
      EXPECT_NEAR(G.data()[i], 0, 1e-8 * scale);
    }
  }
  EXPECT_GT(zeros, 0);  // some constraints are active: the test checks both kinds of entry
}

TEST(NmfGraph, MinimisesAUserWrittenItakuraSaitoDivergence) {
  // D_IS(X‖R) = Σ X/R − log(X/R) − 1 (the β = 0 divergence; X > 0): written by the user, not
  // provided by dagml. Its minimum over R is R = X, so an exact factorisation has D = 0.
  const NmfDivergence itakura_saito = [](Var X, Var R) {
    const Var ratio = X / R;
    return sum(ratio - log(ratio)) - Scalar(X.value().size());
  };
  const Tensor X = positive_random(20, 3, 11) * positive_random(3, 8, 12);
  const NmfGraphFit f = fit_nmf_by_gradient(X, positive_random(20, 3, 13), positive_random(3, 8, 14), itakura_saito,
                                            {.stop = {.max_iterations = 5000, .gradient_tolerance = 1e-10}});
  EXPECT_LT(f.result.value, 1e-6 * f.result.history.front()) << f.result.message;
  for (std::size_t t = 1; t < f.result.history.size(); ++t) EXPECT_LE(f.result.history[t], f.result.history[t - 1]);
}

TEST(NmfGraph, CallbacksSeeTheDivergenceAndMayStop) {
  testing::StopAfter stop(3);
  const NmfGraphFit f =
      fit_nmf_by_gradient(nmf_graph_digits(), nmf_graph_W0(), nmf_graph_H0(), frobenius_divergence, {}, {&stop});
  EXPECT_EQ(f.result.status, Status::CallbackStop);
  EXPECT_EQ(f.result.iterations, 3);
  EXPECT_EQ(stop.values.back(), f.result.value);
  EXPECT_EQ(stop.last_x, f.result.x);
}

TEST(NmfGraph, RejectsBadInput) {
  const Tensor X = nmf_graph_digits(), W0 = nmf_graph_W0(), H0 = nmf_graph_H0();
  Tensor negative = X;
  negative(3, 5) = -1;
  EXPECT_THAT([&] { fit_nmf_by_gradient(negative, W0, H0, frobenius_divergence); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("data X")));
  Tensor nan = W0;
  nan(0, 0) = std::numeric_limits<Scalar>::quiet_NaN();
  EXPECT_THROW(fit_nmf_by_gradient(X, nan, H0, frobenius_divergence), ValueError);
  EXPECT_THAT([&] { fit_nmf_by_gradient(X, W0.topRows(39), H0, frobenius_divergence); },
              ::testing::ThrowsMessage<ShapeError>(HasSubstr("found W 39×4 and H 4×64")));
  EXPECT_THROW(fit_nmf_by_gradient(X, W0, H0, [](Var X, Var R) { return square(X - R); }), ShapeError);
  EXPECT_THROW(fit_nmf_by_gradient(Tensor(0, 64), Tensor(0, 4), H0, frobenius_divergence), ValueError);
}

}  // namespace
}  // namespace dagml
