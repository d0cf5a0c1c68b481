// Tests for RbfNetwork: the hand-set XOR network of notes 002 §1.7.2 (values derived in
// notes002.md §2.1), XOR and iris with k-means centres, the closed-form output layer against its
// normal equations and the L-BFGS fit, bad input and save/load.
#include "models/classify/rbf_network.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "graph/error.h"
#include "tests/models/classify/fixed_split.h"

namespace dagml {
namespace {

// Bases r¹ = (−1,−1), r² = (1,1) labelled positive (class 1), r³ = (−1,1), r⁴ = (1,−1) negative.
void xor_bases(Tensor& X, Vector& y) {
  X.resize(4, 2);
  X << -1, -1, 1, 1, -1, 1, 1, -1;
  y.resize(4);
  y << 1, 1, 0, 0;
}

TEST(RbfNetwork, NotesXorFixedBasisNetwork) {
  Tensor X;
  Vector y;
  xor_bases(X, y);
  RbfNetwork net({.centers = RbfCenters::TrainingPoints, .gamma = 1, .output = RbfOutput::LabelWeights});
  net.fit(X, y);
  // score = wᵀ[φ(x); 1] with w = [1, 1, −1, −1, 0] is f_1(x) − f_0(x).
  Tensor q(5, 2);
  q << 1, 1, -1, -1, -1, 1, 0, 0, 0.5, 0.5;
  const Tensor F = net.decision_function(q);
  const Vector score = F.col(1) - F.col(0);
  EXPECT_NEAR(score(0), 0.963704, 1e-6);
  EXPECT_NEAR(score(1), 0.963704, 1e-6);
  EXPECT_NEAR(score(2), -0.963704, 1e-6);
  EXPECT_NEAR(score(3), 0.0, 1e-15);  // on the boundary: the tie goes to class 0
  EXPECT_NEAR(score(4), 0.453470, 1e-6);
  EXPECT_NEAR(net.features(q)(3, 0), std::exp(-2.0), 1e-15);
  EXPECT_EQ(net.predict(q), Vector((Vector(5) << 1, 1, 0, 0, 1).finished()));
}

Tensor noisy_xor(Vector& y, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Tensor X(200, 2);
  y.resize(200);
  for (Index i = 0; i < 200; ++i) {
    const Scalar sx = i % 2 ? 1 : -1, sy = (i / 2) % 2 ? 1 : -1;
    X(i, 0) = sx + (static_cast<Scalar>(rng() % 1000) / 1000.0 - 0.5) * 0.6;
    X(i, 1) = sy + (static_cast<Scalar>(rng() % 1000) / 1000.0 - 0.5) * 0.6;
    y(i) = sx == sy ? 1 : 0;
  }
  return X;
}

TEST(RbfNetwork, XorWithKMeansCentres) {
  Vector y;
  const Tensor X = noisy_xor(y, 1);
  RbfNetwork net({.num_centers = 4, .seed = 2});
  net.fit(X, y);
  // The four centroids are the four corners (notes 002 L724), up to order.
  for (Index m = 0; m < 4; ++m) {
    EXPECT_NEAR(std::abs(net.centers()(m, 0)), 1.0, 0.1);
    EXPECT_NEAR(std::abs(net.centers()(m, 1)), 1.0, 0.1);
  }
  Vector y_test;
  const Tensor X_test = noisy_xor(y_test, 9);
  EXPECT_EQ(net.score(X_test, y_test), 1.0);
}

TEST(RbfNetwork, ClosedFormSolvesTheNormalEquations) {
  auto s = testing::fixed_split("iris");
  const Scalar lambda = 0.5;
  RbfNetwork net({.num_centers = 12, .gamma = 0.5, .lambda = lambda, .seed = 4});
  net.fit(s.X_train, s.y_train);
  // ∂/∂W: Φᵀ(ΦW + 1bᵀ − Y) + λW = 0 and ∂/∂b: 1ᵀ(ΦW + 1bᵀ − Y) = 0.
  const Tensor Phi = net.features(s.X_train);
  Tensor Y = Tensor::Zero(s.y_train.size(), 3);
  for (Index i = 0; i < Y.rows(); ++i) Y(i, static_cast<Index>(s.y_train(i))) = 1;
  const Tensor R = net.decision_function(s.X_train) - Y;
  EXPECT_LT((Phi.transpose() * R + lambda * net.weights()).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_LT(R.colwise().sum().cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_GE(net.score(s.X_test, s.y_test), 0.9);
  // Every training row as a centre with a narrow basis interpolates the training labels.
  RbfNetwork all({.centers = RbfCenters::TrainingPoints, .gamma = 50, .lambda = 1e-10});
  EXPECT_EQ(all.fit(s.X_train, s.y_train).score(s.X_train, s.y_train), 1.0);
  RbfNetwork subset({.centers = RbfCenters::RandomSubset, .num_centers = 30, .gamma = 0.5, .lambda = 1e-6, .seed = 1});
  EXPECT_GE(subset.fit(s.X_train, s.y_train).score(s.X_test, s.y_test), 0.9);
}

TEST(RbfNetwork, GradientFitAgreesWithTheClosedForm) {
  auto s = testing::fixed_split("iris");
  const RbfNetworkOptions base{.num_centers = 12, .gamma = 0.5, .lambda = 0.5, .seed = 4};
  RbfNetwork closed(base);
  closed.fit(s.X_train, s.y_train);
  RbfNetworkOptions o = base;
  o.output = RbfOutput::Gradient;
  RbfNetwork grad(o);
  grad.fit(s.X_train, s.y_train);
  EXPECT_TRUE(grad.fit_report().converged) << grad.fit_report().message;
  EXPECT_EQ(grad.centers(), closed.centers());
  EXPECT_LT((grad.weights() - closed.weights()).cwiseAbs().maxCoeff(), 1e-5);
  EXPECT_LT((grad.bias() - closed.bias()).cwiseAbs().maxCoeff(), 1e-5);
  EXPECT_EQ(grad.predict(s.X_test), closed.predict(s.X_test));
  // An iteration limit is reported, not thrown.
  o.max_iterations = 1;
  RbfNetwork short_run(o);
  EXPECT_FALSE(short_run.fit(s.X_train, s.y_train).fit_report().converged);
  EXPECT_EQ(short_run.fit_report().iterations, 1);
}

TEST(RbfNetwork, BadInputAndSaveLoad) {
  EXPECT_THROW(RbfNetwork({.max_iterations = 0}), ValueError);
  EXPECT_THROW(RbfNetwork({.num_centers = 0}), ValueError);
  EXPECT_THROW(RbfNetwork({.gamma = 0}), ValueError);
  EXPECT_THROW(RbfNetwork({.lambda = -1}), ValueError);
  EXPECT_THROW(RbfNetwork({.output = RbfOutput::LabelWeights}), ValueError);
  Tensor X;
  Vector y;
  xor_bases(X, y);
  EXPECT_THAT([&] { RbfNetwork({.num_centers = 5}).fit(X, y); },
              ::testing::ThrowsMessage<ValueError>(::testing::HasSubstr("training set size")));
  EXPECT_THROW(RbfNetwork().predict(X), NotFittedError);
  EXPECT_THROW(RbfNetwork({.num_centers = 2}).fit(X, Vector::Zero(4)), ValueError);
  auto s = testing::fixed_split("wine");
  RbfNetwork net({.num_centers = 8, .gamma = 1e-5, .seed = 3});
  net.fit(s.X_train, s.y_train);
  const std::string path = testing::temp_path("rbf.txt");
  net.save(path);
  EXPECT_EQ(RbfNetwork::load(path).decision_function(s.X_test), net.decision_function(s.X_test));
}

}  // namespace
}  // namespace dagml
