// The Gaussian mixture's log-likelihood as a graph (models/cluster/gaussian_mixture_graph.h): its
// value is GaussianMixture's, it passes the gradient check, and a fit by L-BFGS on it reaches the
// maximum EM reaches from the same start (iris, three components, full covariances).
#include "models/cluster/gaussian_mixture_graph.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "autodiff/elementwise.h"
#include "autodiff/gradcheck.h"
#include "graph/error.h"
#include "models/cluster/gaussian_mixture.h"
#include "models/data/datasets.h"
#include "optim/graph_objective.h"
#include "optim/lbfgs.h"

namespace dagml {
namespace {

struct MixtureGraph {
  Graph g;
  Var X, logits, means, factors, log_likelihood;
  MixtureGraph(const Tensor& data, const MixtureGraphParameters& p) {
    X = g.input("X", data);
    logits = g.parameter("logits", p.logits);
    means = g.parameter("means", p.means);
    factors = g.parameter("precision_factors", p.precision_factors);
    log_likelihood = gaussian_mixture_log_likelihood(X, logits, means, factors);
  }
};

GaussianMixture iris_mixture(Index max_iterations) {
  GaussianMixture gm({.num_components = 3, .covariance_type = CovarianceType::Full, .reg_covar = 0,
                      .max_iterations = max_iterations, .tolerance = 1e-13, .seed = 3});
  gm.fit(load_dataset("iris").features);
  return gm;
}

TEST(GaussianMixtureGraph, ValueIsTheMixtureLogLikelihood) {
  const GaussianMixture gm = iris_mixture(5);
  const Tensor X = load_dataset("iris").features;
  MixtureGraph m(X, mixture_graph_parameters(gm.weights(), gm.means(), gm.covariances()));
  EXPECT_NEAR(m.log_likelihood.item(), gm.score(X), 1e-12);
  EXPECT_LT((covariances_from_precision_factors(m.factors.value()) - gm.covariances()).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(GaussianMixtureGraph, PassesTheGradientCheck) {
  const Tensor X = load_dataset("iris").features.topRows(30).leftCols(2);
  GaussianMixture gm({.num_components = 2, .covariance_type = CovarianceType::Full, .max_iterations = 3});
  gm.fit(X);
  MixtureGraph m(X, mixture_graph_parameters(gm.weights(), gm.means(), gm.covariances()));
  const GradcheckResult r = gradcheck(m.log_likelihood, {m.logits, m.means, m.factors});
  EXPECT_TRUE(r.passed) << r.message;
}

TEST(GaussianMixtureGraph, GradientFitReachesTheEmMaximum) {
  const Tensor X = load_dataset("iris").features;
  const GaussianMixture start = iris_mixture(0), em = iris_mixture(5000);
  ASSERT_TRUE(em.converged());
  MixtureGraph m(X, mixture_graph_parameters(start.weights(), start.means(), start.covariances()));
  GraphObjective objective(neg(m.log_likelihood), {m.logits, m.means, m.factors});
  const Result r = minimize(objective, objective.parameters_vector(),
                            LbfgsOptions{.stop = {.max_iterations = 5000, .gradient_tolerance = 1e-9}});
  objective.set_parameters(r.x);
  EXPECT_NEAR(-r.value, em.mean_log_likelihood(), 1e-8) << r.message;
  EXPECT_LT((m.means.value() - em.means()).cwiseAbs().maxCoeff(), 1e-4);
  EXPECT_LT((covariances_from_precision_factors(m.factors.value()) - em.covariances()).cwiseAbs().maxCoeff(), 1e-4);
}

TEST(GaussianMixtureGraph, ShapeErrors) {
  Graph g;
  EXPECT_THAT([&] {
    gaussian_mixture_log_likelihood(g.input("X", Tensor::Zero(5, 2)), g.input("a", Tensor::Zero(1, 3)),
                                    g.input("m", Tensor::Zero(3, 2)), g.input("r", Tensor::Zero(5, 2)));
  }, ::testing::ThrowsMessage<ShapeError>(::testing::HasSubstr("found 5×2, 1×3, 3×2 and 5×2")));
}

}  // namespace
}  // namespace dagml
