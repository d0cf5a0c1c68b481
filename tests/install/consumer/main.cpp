// Links the installed dagml and checks one derivative: d/dx (x² sin x) at x = 2.
#include <cmath>
#include <cstdio>

#include "dagml/dagml.h"

int main() {
  dagml::Graph g;
  const dagml::Var x = g.parameter("x", dagml::scalar_tensor(2.0));
  const dagml::Var y = dagml::square(x) * dagml::sin(x);
  const double dy = dagml::gradient(y, x).item();
  const double expected = 2 * 2.0 * std::sin(2.0) + 4.0 * std::cos(2.0);
  std::printf("dy/dx = %.12f (expected %.12f)\n", dy, expected);
  return std::abs(dy - expected) < 1e-12 ? 0 : 1;
}
