// Logistic regression: the notes' worked cases (notes001_003.md D4, notes000_part2.md §2.2),
// scikit-learn's coefficients at a given C, agreement of the solvers, the IRLS Hessian against
// the autodiff Hessian, probabilities, errors and save/load.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "discriminative_test_util.h"
#include "graph/error.h"
#include "models/classify/logistic_regression.h"
#include "models/data/datasets.h"
#include "models/data/standard_scaler.h"
#include "models/io/model_file.h"
#include "optim/adam.h"
#include "optim/update_rule.h"

namespace dagml {
namespace {

using test::rows;
using test::vec;

constexpr double kInf = std::numeric_limits<double>::infinity();

// D4, notes 001 form (sum, no penalty): x = [0,1,2,3], y = [0,1,0,1].
TEST(LogisticRegression, NotesD4NewtonIterates) {
  const Tensor X = rows({{0}, {1}, {2}, {3}});
  const Vector y = vec({0, 1, 0, 1});
  LogisticRegression one({.C = kInf, .solver = LogisticSolver::Newton, .max_iterations = 1});
  one.fit(X, y);
  EXPECT_NEAR(one.coef()(0, 0), 0.8, 1e-12);  // first Newton/IRLS step from 0
  EXPECT_NEAR(one.intercept()(0), -1.2, 1e-12);
  EXPECT_NEAR(one.fit_result().history.front(), 4 * std::log(2.0), 1e-12);  // J(0) = 4 ln 2
  LogisticRegression full({.C = kInf, .solver = LogisticSolver::Newton, .tolerance = 1e-10});
  full.fit(X, y);
  EXPECT_TRUE(full.fit_result().converged());
  EXPECT_LE(full.fit_result().iterations, 6);
  EXPECT_NEAR(full.coef()(0, 0), 0.9081842626, 1e-9);
  EXPECT_NEAR(full.intercept()(0), -1.3622763938, 1e-9);
  EXPECT_NEAR(full.fit_result().value, 2.3474865351, 1e-9);
}

// D4: one gradient step with ε = 0.1 from 0 gives w = (0.1, 0) (sum form: ∇J(0) = (−1, 0)); in
// notes 003's mean form ∂ℓ/∂w = −0.25, so the step gives w = 0.025; both forms reach the same
// optimum.
TEST(LogisticRegression, NotesD4GradientStepsAndMeanForm) {
  const Tensor X = rows({{0}, {1}, {2}, {3}});
  const Vector y = vec({0, 1, 0, 1});
  const auto step = std::make_shared<GradientStep>(GradientStepOptions{.schedule = StepSchedule::constant(0.1)});
  LogisticRegression sum({.C = kInf, .solver = LogisticSolver::FirstOrder, .max_iterations = 1}, step);
  sum.fit(X, y);
  EXPECT_NEAR(sum.coef()(0, 0), 0.1, 1e-12);
  EXPECT_NEAR(sum.intercept()(0), 0.0, 1e-12);
  LogisticRegression mean(
      {.C = kInf, .reduction = LossReduction::Mean, .solver = LogisticSolver::FirstOrder, .max_iterations = 1}, step);
  EXPECT_NEAR(mean.fit(X, y).coef()(0, 0), 0.025, 1e-12);
  const auto big = std::make_shared<GradientStep>(GradientStepOptions{.schedule = StepSchedule::constant(0.5)});
  LogisticRegression gd({.C = kInf,
                         .reduction = LossReduction::Mean,
                         .solver = LogisticSolver::FirstOrder,
                         .tolerance = 1e-10,
                         .max_iterations = 5000},
                        big);
  gd.fit(X, y);
  EXPECT_TRUE(gd.fit_result().converged());
  EXPECT_NEAR(gd.coef()(0, 0), 0.908184, 1e-6);
  EXPECT_NEAR(gd.intercept()(0), -1.362276, 1e-6);
  EXPECT_NEAR(gd.fit_result().value, 0.5868716, 1e-7);  // = J*/4
}

// notes000_part2.md §2.2: X = [[1,0],[1,1]] (bias column first, no separate intercept), y = [0,1]:
// one Newton step from 0 gives w = (−2, 4).
TEST(LogisticRegression, NotesBiasColumnFirstNewtonStep) {
  LogisticRegression m({.C = kInf, .fit_intercept = false, .solver = LogisticSolver::Newton, .max_iterations = 1});
  m.fit(rows({{1, 0}, {1, 1}}), vec({0, 1}));
  EXPECT_NEAR(m.coef()(0, 0), -2.0, 1e-12);
  EXPECT_NEAR(m.coef()(1, 0), 4.0, 1e-12);
  EXPECT_EQ(m.intercept()(0), 0.0);
}

// The IRLS Hessian X̃ᵀSX̃ + (1/C) diag(1,…,1,0), S = diag(σᵢ(1 − σᵢ)), X̃ = [X 1], equals the
// autodiff Hessian of the graph loss at an arbitrary point.
TEST(LogisticRegression, IrlsHessianEqualsAutodiffHessian) {
  const Dataset bc = load_dataset("breast_cancer");
  const Tensor X = StandardScaler().fit_transform(bc.features.topRows(60)).leftCols(5);
  const Vector y = bc.target.head(60);
  const Scalar C = 0.7;
  LogisticProblem p = make_logistic_problem(X, y, {.C = C});
  Vector x(6);
  x << 0.3, -0.2, 0.5, 0.1, -0.4, 0.25;
  Tensor H;
  p.objective->hessian(x, H);
  Tensor Xt(60, 6);
  Xt.leftCols(5) = X;
  Xt.col(5).setOnes();
  const Eigen::ArrayXd s = (1 + (-(Xt * x).array()).exp()).inverse();
  Tensor irls = Xt.transpose() * (s * (1 - s)).matrix().asDiagonal() * Xt;
  irls.diagonal().head(5).array() += 1 / C;
  EXPECT_TRUE(H.isApprox(irls, 1e-12));
  // and the gradient X̃ᵀ(σ − y) + w/C
  Vector g;
  p.objective->value_and_gradient(x, g);
  Vector expected = Xt.transpose() * (s.matrix() - y);
  expected.head(5) += x.head(5) / C;
  EXPECT_TRUE(g.isApprox(expected, 1e-12));
}

// Reference: scikit-learn 1.2.1, LogisticRegression(C=1.0, solver='newton-cg', tol=1e-10,
// max_iter=100000) (objective Σᵢ ℓᵢ + ½‖w‖²/C, unpenalised intercept; newton-cg because
// scikit-learn's lbfgs stops on its relative-decrease test about 1e-4 short of the optimum) on
// breast cancer standardised with StandardScaler: coef_[0][:6], intercept_, training accuracy,
// predict_proba of row 0.
TEST(LogisticRegression, BreastCancerMatchesScikitLearn) {
  const Dataset bc = load_dataset("breast_cancer");
  const Tensor X = StandardScaler().fit_transform(bc.features);
  const Vector ref = vec({-0.3630925324, -0.3876754428, -0.3510621191, -0.4356098029, -0.1618311028, 0.5626540335});
  for (auto solver : {LogisticSolver::Lbfgs, LogisticSolver::Newton}) {
    LogisticRegression m({.C = 1.0, .solver = solver, .tolerance = 1e-6, .max_iterations = 10000});
    m.fit(X, bc.target);
    EXPECT_TRUE(m.fit_result().converged())
        << m.fit_result().message << " |g| = " << m.fit_result().gradient_norm << " f = " << m.fit_result().value;
    for (Index j = 0; j < 6; ++j) EXPECT_NEAR(m.coef()(j, 0), ref(j), 1e-4) << j;
    EXPECT_NEAR(m.intercept()(0), 0.214502718, 1e-4);
    EXPECT_NEAR(m.score(X, bc.target), 0.9876977152899824, 1e-12);
    const Tensor P = m.predict_proba(X.topRows(1));
    EXPECT_NEAR(P(0, 1), 1.2077509599e-09, 1e-12);
    EXPECT_NEAR(P(0, 0) + P(0, 1), 1.0, 1e-15);
  }
}

// Reference: scikit-learn 1.2.1, LogisticRegression(C=0.5, solver='newton-cg', tol=1e-10,
// max_iter=100000) (multinomial) on iris: coef_, intercept_, accuracy, predict_proba of rows 0,
// 50, 100. (Its lbfgs result is 7.7e-4 away: it stops with ‖∇J‖ = 7e-3.)
TEST(LogisticRegression, IrisMultinomialMatchesScikitLearn) {
  const Dataset iris = load_dataset("iris");
  const Tensor coef = rows({{-0.4065205362, 0.7311130435, -2.0628042575, -0.8635891863},
                            {0.3711519437, -0.3608653727, -0.1082081077, -0.6766050968},
                            {0.0353685925, -0.3702476708, 2.1710123652, 1.5401942831}});
  const Vector intercept = vec({8.4989962385, 2.1111890209, -10.6101852594});
  const Tensor proba = rows({{9.6981472575e-01, 3.0184678152e-02, 5.9609862488e-07},
                             {5.1995681725e-03, 7.7940001923e-01, 2.1540041260e-01},
                             {1.0486430043e-05, 1.2747874097e-02, 9.8724163947e-01}});
  for (auto solver : {LogisticSolver::Lbfgs, LogisticSolver::Newton}) {
    LogisticRegression m({.C = 0.5, .solver = solver, .tolerance = 1e-6, .max_iterations = 10000});
    m.fit(iris.features, iris.target);
    EXPECT_TRUE(m.fit_result().converged())
        << m.fit_result().message << " |g| = " << m.fit_result().gradient_norm << " f = " << m.fit_result().value;
    // W is identifiable (the penalty makes Σ_k W_k = 0); the unpenalised intercepts are defined
    // up to a common shift and are reported with Σ_k b_k = 0, as scikit-learn's.
    EXPECT_LT((m.coef().transpose() - coef).cwiseAbs().maxCoeff(), 1e-4);
    EXPECT_LT((m.intercept() - intercept).cwiseAbs().maxCoeff(), 1e-4);
    EXPECT_NEAR(m.score(iris.features, iris.target), 0.9666666666666667, 1e-12);
    Tensor Xq(3, 4);
    Xq << iris.features.row(0), iris.features.row(50), iris.features.row(100);
    EXPECT_LT((m.predict_proba(Xq) - proba).cwiseAbs().maxCoeff(), 1e-6);
  }
}

// Iterative solvers of one objective agree: minibatch Adam ends near the L-BFGS optimum, and the
// same seed gives the same model.
TEST(LogisticRegression, MinibatchAdamApproachesTheLbfgsOptimum) {
  const Dataset bc = load_dataset("breast_cancer");
  const Tensor X = StandardScaler().fit_transform(bc.features);
  const LogisticRegressionOptions mean{
      .C = 10.0, .reduction = LossReduction::Mean, .tolerance = 1e-8, .max_iterations = 1000};
  LogisticRegression exact(mean);
  exact.fit(X, bc.target);
  LogisticRegressionOptions sgd = mean;
  sgd.solver = LogisticSolver::FirstOrder;
  sgd.batch_size = 32;
  sgd.max_iterations = 300;
  sgd.seed = 5;
  const auto adam = std::make_shared<Adam>(AdamOptions{.schedule = StepSchedule::step_decay(0.01, 0.5, 50)});
  LogisticRegression a(sgd, adam), b(sgd, adam);
  a.fit(X, bc.target);
  b.fit(X, bc.target);
  EXPECT_EQ(a.coef(), b.coef()) << a.fit_result().message << " " << a.fit_result().iterations;
  EXPECT_NEAR(a.fit_result().value, exact.fit_result().value, 2e-3) << a.fit_result().message;
  EXPECT_LT((a.coef() - exact.coef()).norm(), 0.1 * exact.coef().norm());
  sgd.reduction = LossReduction::Sum;
  EXPECT_THROW(LogisticRegression{sgd}, ValueError);  // batches need the mean form
}

TEST(LogisticRegression, BinaryMultinomialOptionGivesTheSameProbabilities) {
  const Dataset bc = load_dataset("breast_cancer");
  const Tensor X = StandardScaler().fit_transform(bc.features).leftCols(4);
  // Softmax with K = 2 and penalty ½‖W‖²/C on both columns equals the sigmoid model with
  // w = W₁ − W₀ and penalty ¼‖w‖²/C, i.e. C doubled.
  LogisticRegression sig({.C = 2.0, .tolerance = 1e-10, .max_iterations = 1000});
  LogisticRegression soft(
      {.C = 1.0, .multi_class = LogisticMultiClass::Multinomial, .tolerance = 1e-10, .max_iterations = 1000});
  sig.fit(X, bc.target);
  soft.fit(X, bc.target);
  EXPECT_EQ(soft.coef().cols(), 2);
  EXPECT_LT((sig.predict_proba(X) - soft.predict_proba(X)).cwiseAbs().maxCoeff(), 1e-7);
}

TEST(LogisticRegression, BadInputIterationLimitSaveLoad) {
  EXPECT_THROW(LogisticRegression({.C = 0}), ValueError);
  EXPECT_THROW(LogisticRegression({.C = std::nan("")}), ValueError);
  EXPECT_THROW(LogisticRegression({.tolerance = 0}), ValueError);
  EXPECT_THROW(LogisticRegression({.max_iterations = 0}), ValueError);
  LogisticRegression m;
  EXPECT_THROW(m.predict(rows({{1}})), NotFittedError);
  EXPECT_THROW(m.fit(rows({{0}, {1}}), vec({1, 1})), ValueError);
  EXPECT_THROW(m.fit(rows({{0}, {1}}), vec({0, 7})), ValueError);
  EXPECT_THROW(m.fit(rows({{0}, {std::nan("")}}), vec({0, 1})), ValueError);
  EXPECT_THROW(m.fit(rows({{0}, {1}}), vec({0, 1, 1})), ShapeError);
  const Dataset iris = load_dataset("iris");
  LogisticRegression capped({.max_iterations = 2});
  capped.fit(iris.features, iris.target);
  EXPECT_FALSE(capped.fit_result().converged());
  EXPECT_EQ(capped.fit_result().status, Status::MaxIterations);
  m.fit(iris.features, iris.target);
  EXPECT_THROW(m.predict(rows({{1, 2}})), ShapeError);
  const std::string path = (std::filesystem::temp_directory_path() / "dagml_logreg_test.model").string();
  m.save(path);
  const LogisticRegression back = LogisticRegression::load(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.predict_proba(iris.features), m.predict_proba(iris.features));
  EXPECT_EQ(back.options().tolerance, m.options().tolerance);
}

// The linear classifiers' load check (linear_classifier.h): K classes need K score columns, or
// one for K = 2 (predict_proba writes K columns from them). Payloads in the layout of
// LogisticRegression::serialize: options, fitted flag, d, W, b, K.
std::string logistic_file(const Tensor& W, const Vector& b, Index num_classes, Index d = 2) {
  std::string payload;
  {
    ModelOutputArchive ar(payload);
    ar(LogisticRegressionOptions{}, true, d, W, b, num_classes);
  }
  return frame_model_file(LogisticRegression::kTypeName, 1, payload);
}

TEST(LogisticRegression, LoadRefusesInconsistentScores) {
  const Tensor X = rows({{-1, 0}, {2, 1}});
  const auto load = [](const std::string& bytes) { return LogisticRegression::from_model_file(ModelFile(bytes, "t")); };
  const LogisticRegression good = load(logistic_file(rows({{1}, {0}}), vec({0}), 2));
  EXPECT_EQ(good.predict(X), vec({0, 1}));
  EXPECT_EQ(good.predict_proba(X).cols(), 2);
  EXPECT_THROW(load(logistic_file(rows({{1}, {0}}), vec({0}), 3)), ParseError);                // one column, K = 3
  EXPECT_THROW(load(logistic_file(rows({{1, 0}, {0, 1}}), vec({0, 0}), 3)), ParseError);       // two columns, K = 3
  EXPECT_THROW(load(logistic_file(rows({{1}, {0}}), vec({0, 0}), 2)), ParseError);             // b too long
  EXPECT_THROW(load(logistic_file(rows({{1}}), vec({0}), 2)), ParseError);                     // W of 1 row, d = 2
  EXPECT_EQ(load(logistic_file(rows({{1}}), vec({0}), 2, 1)).predict(rows({{3}})), vec({1}));  // d = 1
}

}  // namespace
}  // namespace dagml
