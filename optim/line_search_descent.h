// Line-search descent (notes 000 §4.4, Algorithm 8): at each iteration choose a direction u_t,
//   SteepestDescent  u = −∇f(x)
//   RandomDirection  u = ±z, z uniform on the unit sphere (seeded), the sign making ⟨∇f, u⟩ ≤ 0
//   Coordinate       u = ∓e_j, j cycling through 0..p−1, the sign making ⟨∇f, u⟩ ≤ 0
// then α_t = argmin h(α) = f(x + α u) approximately — exactly by Brent's method or by sampling a
// grid along the line, as the notes propose, or by Armijo/strong Wolfe — and x ← x + α_t u
// (the notes print x − α u; the sign is corrected). A direction with ⟨∇f, u⟩ = 0 (orthogonal to
// the gradient) makes the Armijo and Wolfe searches fail; with Exact and Grid the loop keeps x and
// tries the next direction, and reports LineSearchFailure after 4p directions in a row fail.
#pragma once

#include <cstdint>

#include "optim/callbacks.h"
#include "optim/line_search.h"
#include "optim/objective.h"
#include "optim/options.h"

namespace dagml {

enum class DescentDirection { SteepestDescent, RandomDirection, Coordinate };

struct LineSearchDescentOptions {
  StopOptions stop = {};
  DescentDirection direction = DescentDirection::SteepestDescent;
  LineSearchOptions line_search = {.kind = LineSearchKind::Exact, .max_step = 10};
  std::uint64_t seed = 0;  // RandomDirection
};

class LineSearchDescent {
 public:
  // Throws ValueError for invalid options.
  explicit LineSearchDescent(LineSearchDescentOptions options = {});
  explicit LineSearchDescent(DefaultOptions) : LineSearchDescent() {}  // Note [Constructing from options]
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;
  const LineSearchDescentOptions& options() const { return options_; }

 private:
  LineSearchDescentOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const LineSearchDescentOptions& options,
                const CallbackList& callbacks = {});

}  // namespace dagml
