#include "optim/line_search_descent.h"

#include <cmath>
#include <numbers>
#include <random>

#include "optim/descent_loop.h"

namespace dagml {

LineSearchDescent::LineSearchDescent(LineSearchDescentOptions options) : options_(options) {
  validate(options.stop, "LineSearchDescent");
  validate(options.line_search, "LineSearchDescent");
}

Result LineSearchDescent::minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks) const {
  check_start(objective, x0, "LineSearchDescent");
  std::mt19937_64 rng(options_.seed);
  Index next_coordinate = 0;
  Index failures = 0;  // consecutive directions without a decrease
  DescentMethod method{
      .name = "LineSearchDescent",
      .direction =
          [&](const Vector&, const Vector& g, Vector& u, Index&) {
            const Index p = g.size();
            switch (options_.direction) {
              case DescentDirection::SteepestDescent:
                u = -g;
                return;
              case DescentDirection::RandomDirection: {
                // Box–Muller normals from raw 64-bit words (portable), normalised to the sphere.
                u.resize(p);
                for (Index j = 0; j < p; ++j) {
                  const double u1 = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
                  const double u2 = static_cast<double>(rng() >> 11) * 0x1.0p-53;
                  u[j] = std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
                }
                u /= u.norm();
                break;
              }
              case DescentDirection::Coordinate:
                u = Vector::Zero(p);
                u[next_coordinate] = 1;
                next_coordinate = (next_coordinate + 1) % p;
                break;
            }
            if (g.dot(u) > 0) u = -u;
          },
  };
  const bool sampled =
      options_.line_search.kind == LineSearchKind::Exact || options_.line_search.kind == LineSearchKind::Grid;
  if (sampled && options_.direction != DescentDirection::SteepestDescent) {
    // A direction may not decrease f (orthogonal to ∇f, or a minimum along it already): keep x
    // and go on to the next direction instead of stopping.
    // After p consecutive failures every direction tried is a dead end: report the failure.
    method.on_failure = [&] { return ++failures < x0.size() * 4; };
    method.accepted = [&](const Vector&, const Vector&, const Vector&, const Vector&) { failures = 0; };
  }
  return descent_loop(objective, x0, options_.stop, options_.line_search, method, callbacks);
}

Result minimize(Objective& objective, const Vector& x0, const LineSearchDescentOptions& options,
                const CallbackList& callbacks) {
  return LineSearchDescent(options).minimize(objective, x0, callbacks);
}

}  // namespace dagml
