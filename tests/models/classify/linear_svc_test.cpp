// LinearSVC (dual coordinate descent): the notes' hand cases, strong duality, scikit-learn's
// LinearSVC, agreement with the kernel SVM's dual as the bias penalty vanishes, errors, save/load.
#include <gtest/gtest.h>

#include <filesystem>

#include "graph/error.h"
#include "models/classify/linear_svc.h"
#include "models/classify/svc.h"
#include "models/data/datasets.h"
#include "models/data/standard_scaler.h"
#include "optim/callbacks.h"
#include "discriminative_test_util.h"

namespace dagml {
namespace {

using test::rows;
using test::vec;

// notes001_003.md D14 without a bias: ½w² + C Σ max(0, 1 − w) on x = ∓1 gives w = 2C for C < ½,
// w = 1 beyond; notes 001's w² + CΣξ gives w = C for C < 1.
TEST(LinearSVC, SoftMarginOneDimension) {
  const Tensor X = rows({{-1}, {1}});
  const Vector y = vec({0, 1});
  for (double C : {0.1, 0.3, 2.0}) {
    LinearSVC m({.C = C, .fit_intercept = false, .tolerance = 1e-12});
    m.fit(X, y);
    EXPECT_NEAR(m.coef()(0), std::min(2 * C, 1.0), 1e-10) << C;
    EXPECT_NEAR(m.primal_objective(), m.dual_objective(), 1e-10) << C;
    LinearSVC n({.C = C, .fit_intercept = false, .tolerance = 1e-12, .half_norm = false});
    EXPECT_NEAR(n.fit(X, y).coef()(0), std::min(C, 1.0), 1e-10) << C;
  }
}

// D13 hard margin through the origin: (1,1)+, (−1,−1)− ⇒ w = (½, ½), margin √2.
TEST(LinearSVC, HardMarginThroughTheOrigin) {
  LinearSVC m({.C = 1e6, .fit_intercept = false, .tolerance = 1e-12});
  m.fit(rows({{1, 1}, {-1, -1}}), vec({1, 0}));
  EXPECT_NEAR(m.coef()(0), 0.5, 1e-10);
  EXPECT_NEAR(m.coef()(1), 0.5, 1e-10);
  EXPECT_NEAR(1 / m.coef().norm(), std::sqrt(2.0), 1e-9);
  EXPECT_TRUE(m.slacks().isZero(1e-10));
}

// Reference: scikit-learn 1.2.1, LinearSVC(loss='hinge', C=0.1, tol=1e-10, max_iter=1000000,
// random_state=0) on the first 200 rows of breast cancer standardised with StandardScaler (with
// and without fit_intercept). LIBLINEAR's solution to 1e-10 is unique up to the solver tolerance.
TEST(LinearSVC, BreastCancerMatchesScikitLearn) {
  const Dataset bc = load_dataset("breast_cancer");
  const Tensor X = StandardScaler().fit_transform(bc.features.topRows(200));
  const Vector y = bc.target.head(200);
  LinearSVC m({.C = 0.1, .tolerance = 1e-10, .max_iterations = 100000});
  m.fit(X, y);
  EXPECT_TRUE(m.converged());
  const Vector ref = vec({-0.181258816524, -0.462416985502, -0.182901507888, -0.17211792347, -0.055500242408});
  for (Index j = 0; j < 5; ++j) EXPECT_NEAR(m.coef()(j), ref(j), 1e-6) << j;
  EXPECT_NEAR(m.intercept(), -0.397116679486, 1e-6);
  EXPECT_NEAR(m.primal_objective(), m.dual_objective(), 1e-6);  // strong duality
  LinearSVC o({.C = 0.1, .fit_intercept = false, .tolerance = 1e-10, .max_iterations = 100000});
  o.fit(X, y);
  const Vector ref0 = vec({-0.192395506261, -0.457041471853, -0.193518674777, -0.113866573112, -0.063479422962});
  for (Index j = 0; j < 5; ++j) EXPECT_NEAR(o.coef()(j), ref0(j), 1e-6) << j;
  EXPECT_EQ(o.intercept(), 0.0);
}

// With a large intercept_scaling B the bias penalty ½(b/B)² vanishes and the solution approaches
// the SVM with a free bias, solved in its own dual by SMO (SVC with a linear kernel).
TEST(LinearSVC, AgreesWithTheKernelDualAsTheBiasPenaltyVanishes) {
  const Dataset bc = load_dataset("breast_cancer");
  const Tensor X = StandardScaler().fit_transform(bc.features.topRows(200));
  const Vector y = bc.target.head(200);
  SVC dual({.C = 0.1, .kernel = std::make_shared<LinearKernel>(), .tolerance = 1e-8});
  dual.fit(X, y);
  LinearSVC primal({.C = 0.1, .intercept_scaling = 100, .tolerance = 1e-9, .max_iterations = 1000000});
  primal.fit(X, y);
  EXPECT_NEAR(primal.intercept(), dual.intercept()(0), 2e-3);
  EXPECT_LT((primal.coef() - dual.coef().row(0).transpose()).norm(), 2e-3);
}

// The primal, minimised directly (smoothed hinge by L-BFGS; subgradient descent), and the dual
// reach the same optimum of the same objective.
TEST(LinearSVC, PrimalAndDualOptimaAgree) {
  const Dataset bc = load_dataset("breast_cancer");
  const Tensor X = StandardScaler().fit_transform(bc.features.topRows(200));
  const Vector y = bc.target.head(200);
  LinearSVC dual({.C = 0.1, .tolerance = 1e-10, .max_iterations = 100000});
  dual.fit(X, y);
  LinearSVC smooth(
      {.C = 0.1, .tolerance = 1e-6, .max_iterations = 20000, .solver = LinearSvcSolver::Smoothed, .smoothing = 1e4});
  smooth.fit(X, y);
  EXPECT_NEAR(smooth.primal_objective(), dual.primal_objective(), 1e-4 * dual.primal_objective());
  EXPECT_LT((smooth.coef() - dual.coef()).norm(), 1e-2);
  EXPECT_NEAR(smooth.intercept(), dual.intercept(), 1e-2);
  LinearSVC sub({.C = 0.1, .max_iterations = 20000, .solver = LinearSvcSolver::Subgradient});
  sub.fit(X, y);
  EXPECT_NEAR(sub.primal_objective(), dual.primal_objective(), 1e-2 * dual.primal_objective());
  EXPECT_LT((sub.coef() - dual.coef()).norm(), 0.1);
  EXPECT_THROW(sub.dual_coef(), ValueError);
  // the 1-D hand case (D14) without a bias: w = 2C
  LinearSVC one(
      {.C = 0.3, .fit_intercept = false, .tolerance = 1e-9, .solver = LinearSvcSolver::Smoothed, .smoothing = 1e6});
  EXPECT_NEAR(one.fit(rows({{-1}, {1}}), vec({0, 1})).coef()(0), 0.6, 1e-5);
}

TEST(LinearSVC, IterationLimitBadInputSaveLoad) {
  const Dataset bc = load_dataset("breast_cancer");
  const Tensor X = StandardScaler().fit_transform(bc.features);
  LinearSVC capped({.C = 10, .tolerance = 1e-12, .max_iterations = 2});
  capped.fit(X, bc.target);
  EXPECT_FALSE(capped.converged());
  EXPECT_EQ(capped.num_iterations(), 2);
  EXPECT_THROW(LinearSVC({.C = -1}), ValueError);
  EXPECT_THROW(LinearSVC({.intercept_scaling = 0}), ValueError);
  EXPECT_THROW(LinearSVC({.max_iterations = 0}), ValueError);
  EXPECT_THROW(LinearSVC({.smoothing = 0}), ValueError);
  LinearSVC m;
  EXPECT_THROW(m.coef(), NotFittedError);
  EXPECT_THROW(m.fit(rows({{0}, {1}}), vec({0, 0})), ValueError);
  EXPECT_THROW(m.fit(rows({{0}, {1}, {2}}), vec({0, 1, 2})), ValueError);
  EXPECT_THROW(m.fit(rows({{0}, {INFINITY}}), vec({0, 1})), ValueError);
  m.fit(X, bc.target);
  const std::string path = (std::filesystem::temp_directory_path() / "dagml_linear_svc_test.model").string();
  m.save(path);
  const LinearSVC back = LinearSVC::load(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.decision_function(X), m.decision_function(X));
}

// The callback protocol (optim/callbacks.h): one call per epoch (Dual) with the dual objective
// ½‖w̃‖² − Σα and x = (w, b, α); a Stop after epoch k leaves exactly the model of max_iterations = k,
// reported as CallbackStop. The primal solvers pass the callbacks to their optimizer.
TEST(LinearSVC, CallbackStopsAfterTheEpochItAskedFor) {
  const Dataset bc = load_dataset("breast_cancer");
  const Tensor X = StandardScaler().fit_transform(bc.features);
  const Index n = X.rows(), d = X.cols();
  const LinearSVCOptions o{.C = 10, .tolerance = 1e-12, .seed = 2};
  std::vector<Index> seen;
  std::vector<Scalar> values;
  Vector last_x;
  FunctionCallback stop_at_4([&](const IterationInfo& info) {
    seen.push_back(info.iteration);
    values.push_back(info.value);
    last_x = *info.x;
    return info.iteration < 4;
  });
  LinearSVC stopped(o);
  stopped.fit(X, bc.target, {&stop_at_4});
  LinearSVCOptions four = o;
  four.max_iterations = 4;
  LinearSVC capped(four);
  capped.fit(X, bc.target);
  EXPECT_EQ(seen, (std::vector<Index>{1, 2, 3, 4}));
  EXPECT_EQ(stopped.fit_result().status, Status::CallbackStop);
  EXPECT_EQ(capped.fit_result().status, Status::MaxIterations);
  EXPECT_FALSE(stopped.converged());
  EXPECT_EQ(stopped.num_iterations(), 4);
  EXPECT_EQ(stopped.coef(), capped.coef());
  EXPECT_EQ(stopped.intercept(), capped.intercept());
  EXPECT_EQ(stopped.dual_coef(), capped.dual_coef());
  ASSERT_EQ(last_x.size(), d + 1 + n);
  const Vector signs = 2 * bc.target.array() - 1;
  EXPECT_EQ(Vector(last_x.head(d)), stopped.coef());
  EXPECT_EQ(last_x(d), stopped.intercept());
  EXPECT_EQ(Vector(last_x.tail(n).cwiseProduct(signs)), stopped.dual_coef());
  EXPECT_EQ(values.back(), -stopped.dual_objective());
  for (std::size_t k = 1; k < values.size(); ++k) EXPECT_LE(values[k], values[k - 1]);  // dual CD descends

  // Subgradient runs max_iterations steps and has no convergence test: MaxIterations, not converged.
  LinearSVC sub({.C = 0.1, .max_iterations = 50, .solver = LinearSvcSolver::Subgradient});
  sub.fit(X, bc.target);
  EXPECT_EQ(sub.fit_result().status, Status::MaxIterations);
  EXPECT_FALSE(sub.converged());
  for (const LinearSvcSolver solver : {LinearSvcSolver::Subgradient, LinearSvcSolver::Smoothed}) {
    seen.clear();
    LinearSVC primal({.C = 0.1, .max_iterations = 200, .solver = solver});
    primal.fit(X, bc.target, {&stop_at_4});
    EXPECT_EQ(seen, (std::vector<Index>{1, 2, 3, 4}));
    EXPECT_EQ(primal.fit_result().status, Status::CallbackStop);
    EXPECT_EQ(primal.num_iterations(), 4);
    EXPECT_EQ(last_x.size(), d + 1);  // (w, b)
  }
}

}  // namespace
}  // namespace dagml
