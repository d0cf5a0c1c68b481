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

}  // namespace
}  // namespace dagml
