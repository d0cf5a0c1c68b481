#include "optim/line_search.h"

#include <gtest/gtest.h>

#include "optim/test_problems.h"

namespace dagml {
namespace {

TEST(LineSearch, EachKindDecreasesRosenbrockAlongTheGradient) {
  FunctionObjective f = testing::rosenbrock();
  const Vector x = (Vector(2) << -1.2, 1).finished();
  Vector g;
  const double f0 = f.value_and_gradient(x, g);
  const Vector p = -g / g.norm();
  const double d0 = g.dot(p);
  for (LineSearchKind kind :
       {LineSearchKind::Armijo, LineSearchKind::StrongWolfe, LineSearchKind::Exact, LineSearchKind::Grid}) {
    const LineSearchOptions o{.kind = kind, .max_step = 2};
    Vector x_new, g_new;
    double f_new;
    const LineSearchResult r = line_search(f, o, x, f0, g, p, x_new, f_new, g_new);
    ASSERT_TRUE(r.ok) << static_cast<int>(kind);
    EXPECT_LT(f_new, f0);
    EXPECT_LT((x_new - (x + r.alpha * p)).norm(), 1e-15);
    EXPECT_NEAR(f_new, f.value(x_new), 1e-12);
    if (kind == LineSearchKind::Armijo || kind == LineSearchKind::StrongWolfe) {
      EXPECT_LE(f_new, f0 + o.c1 * r.alpha * d0);
    }
    if (kind == LineSearchKind::StrongWolfe) {
      EXPECT_LE(std::abs(g_new.dot(p)), o.c2 * std::abs(d0));
    }
    if (kind == LineSearchKind::Exact) {
      EXPECT_NEAR(g_new.dot(p), 0, 1e-5);  // stationary along p
    }
  }
}

TEST(LineSearch, ScalarMinimisers) {
  auto h = [](double a) { return (a - 0.7) * (a - 0.7) + 1; };
  EXPECT_NEAR(brent_minimize(h, 0, 3), 0.7, 1e-7);
  EXPECT_NEAR(golden_section_minimize(h, 0, 3, 1e-10), 0.7, 1e-7);  // √ε-limited: h is flat near 0.7
  auto quartic = [](double a) { return std::pow(a - 2, 4) + a; };   // minimum at 2 − (1/4)^{1/3}
  EXPECT_NEAR(brent_minimize(quartic, -5, 5, 1e-10), 2 - std::cbrt(0.25), 1e-6);
  EXPECT_THROW(brent_minimize(h, 1, 0), ValueError);
}

TEST(LineSearch, AscentDirectionAndBadOptions) {
  FunctionObjective f = testing::quadratic(Tensor::Identity(2, 2), Vector::Zero(2));
  const Vector x = Vector::Ones(2);
  Vector g, x_new, g_new;
  const double f0 = f.value_and_gradient(x, g);
  double f_new;
  EXPECT_FALSE(line_search(f, {}, x, f0, g, g, x_new, f_new, g_new).ok);
  EXPECT_THROW(validate(LineSearchOptions{.c1 = 0}, "test"), ValueError);
  EXPECT_THROW(validate(LineSearchOptions{.shrink = 1}, "test"), ValueError);
  EXPECT_THROW(validate(LineSearchOptions{.grid_points = 0}, "test"), ValueError);
}

// f(x) = x² at x = 1e16 along p = −1e-10: every trial point x + αp (α ≤ max_step) rounds to x, so
// f_new = f and, once c₁αφ'(0) is below half a rounding unit of f = 1e32, Armijo's test
// f_new ≤ f + c₁αφ'(0) would pass. Every kind stops with `stalled` instead of accepting a step that
// does not move x.
TEST(LineSearch, TrialPointsThatRoundToXStallAndAreNeverAccepted) {
  FunctionObjective f = testing::quadratic(Tensor::Identity(1, 1) * 2, Vector::Zero(1));  // f = x²
  const Vector x = Vector::Constant(1, 1e16), p = Vector::Constant(1, -1e-10);
  Vector g, x_new, g_new;
  const double f0 = f.value_and_gradient(x, g);
  ASSERT_EQ(f0, 1e32);
  for (LineSearchKind kind : {LineSearchKind::None, LineSearchKind::Armijo, LineSearchKind::StrongWolfe,
                              LineSearchKind::Exact, LineSearchKind::Grid}) {
    SCOPED_TRACE(static_cast<int>(kind));
    double f_new;
    const LineSearchResult r = line_search(f, {.kind = kind}, x, f0, g, p, x_new, f_new, g_new);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.stalled);
  }
  // A step that does move x is taken as before.
  double f_new;
  const LineSearchResult moved = line_search(f, {}, x, f0, g, -g, x_new, f_new, g_new);
  EXPECT_TRUE(moved.ok);
  EXPECT_FALSE(moved.stalled);
}

}  // namespace
}  // namespace dagml
