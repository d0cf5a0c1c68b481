// Truthful statuses: on problems that diverge, no optimizer reports convergence.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "optim/adam.h"
#include "optim/gauss_newton.h"
#include "optim/gradient_descent.h"
#include "optim/lbfgs.h"
#include "optim/levenberg_marquardt.h"
#include "optim/momentum.h"
#include "optim/nesterov.h"
#include "optim/newton.h"
#include "optim/newton_cg.h"
#include "optim/trust_region_newton.h"
#include "optim/test_problems.h"

namespace dagml {
namespace {

// f(x) = −½‖x‖² (unbounded below): ∇f = −x, ∇²f = −I. Every descent method runs off to −∞.
FunctionObjective unbounded() {
  return FunctionObjective({.dimension = 2,
                            .value_and_gradient =
                                [](const Vector& x, Vector& g) {
                                  g = -x;
                                  return -0.5 * x.squaredNorm();
                                },
                            .hessian = [](const Vector&, Tensor& H) { H = -Tensor::Identity(2, 2); }});
}

TEST(Divergence, NoOptimizerReportsConvergenceOnAnUnboundedProblem) {
  const Vector x0 = Vector::Ones(2);
  const StopOptions stop = {.max_iterations = 200, .gradient_tolerance = 1e-6, .value_tolerance = 1e-9,
                            .step_tolerance = 1e-12};
  const std::vector<std::pair<const char*, std::function<Result(Objective&)>>> runs = {
      {"gradient descent",
       [&](Objective& f) {
         return minimize(f, x0, GradientStep(GradientStepOptions{.schedule = StepSchedule::constant(0.1)}),
                         FirstOrderOptions{.stop = stop});
       }},
      {"momentum",
       [&](Objective& f) { return minimize(f, x0, Momentum(MomentumOptions{}), FirstOrderOptions{.stop = stop}); }},
      {"nesterov",
       [&](Objective& f) { return minimize(f, x0, Nesterov(NesterovOptions{}), FirstOrderOptions{.stop = stop}); }},
      {"adam", [&](Objective& f) { return minimize(f, x0, Adam(AdamOptions{}), FirstOrderOptions{.stop = stop}); }},
      {"newton", [&](Objective& f) { return minimize(f, x0, NewtonOptions{.stop = stop}); }},
      {"newton-cg", [&](Objective& f) { return minimize(f, x0, NewtonCgOptions{.stop = stop}); }},
      {"trust-region newton", [&](Objective& f) { return minimize(f, x0, TrustRegionNewtonOptions{.stop = stop}); }},
      {"l-bfgs", [&](Objective& f) { return minimize(f, x0, LbfgsOptions{.stop = stop}); }},
  };
  for (const auto& [name, run] : runs) {
    SCOPED_TRACE(name);
    FunctionObjective f = unbounded();
    const Result r = run(f);
    EXPECT_FALSE(r.converged()) << r.message;
    EXPECT_LT(r.value, -0.5) << r.message;  // it did run downhill
  }
}

// r(x) = atan x: from x = 1.5 the Gauss–Newton step x − atan(x)(1 + x²) lands at −1.69, where f
// is larger, and the iterates grow from there. Undamped Gauss–Newton raising the cost ends Diverged
// and keeps x0 (Note [Gauss–Newton divergence]); Levenberg–Marquardt never raises it and
// converges to 0.
TEST(Divergence, LeastSquaresMethods) {
  FunctionObjective f({.dimension = 1,
                       .value_and_gradient =
                           [](const Vector& x, Vector& g) {
                             g = Vector::Constant(1, std::atan(x[0]) / (1 + x[0] * x[0]));
                             return 0.5 * std::atan(x[0]) * std::atan(x[0]);
                           },
                       .residuals =
                           [](const Vector& x, Vector& r, Tensor* J) {
                             r = Vector::Constant(1, std::atan(x[0]));
                             if (J != nullptr) *J = Tensor::Constant(1, 1, 1 / (1 + x[0] * x[0]));
                           }});
  const Vector start = Vector::Constant(1, 1.5);
  const Result gn = minimize(f, start, GaussNewtonOptions{});
  EXPECT_EQ(gn.status, Status::Diverged) << gn.message;
  EXPECT_NE(gn.message.find("diverged: f rose from"), std::string::npos) << gn.message;
  EXPECT_EQ(gn.x, start);
  EXPECT_EQ(gn.value, f.value(start));
  const Result lm = minimize(f, start, LevenbergMarquardtOptions{});
  EXPECT_TRUE(lm.converged()) << lm.message;
  EXPECT_NEAR(lm.x[0], 0, 1e-12);
  for (std::size_t i = 1; i < lm.history.size(); ++i) EXPECT_LE(lm.history[i], lm.history[i - 1]);
}

}  // namespace
}  // namespace dagml
