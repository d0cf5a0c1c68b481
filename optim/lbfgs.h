// L-BFGS (limited-memory BFGS; Nocedal & Wright, Algorithm 7.4–7.5). With the last m pairs
// s_k = x_{k+1} − x_k, y_k = ∇f(x_{k+1}) − ∇f(x_k) (kept only when s_kᵀy_k > 0), the direction
// p_t = −H_t ∇f(x_t) comes from the two-loop recursion with initial scaling
// H⁰ = (s_{t−1}ᵀy_{t−1} / y_{t−1}ᵀy_{t−1}) I; then x_{t+1} = x_t + α_t p_t with α_t from a strong
// Wolfe line search (which keeps s_kᵀy_k > 0), first trial α = 1.
#pragma once

#include "optim/callbacks.h"
#include "optim/line_search.h"
#include "optim/objective.h"
#include "optim/options.h"

namespace dagml {

struct LbfgsOptions {
  StopOptions stop = {.max_iterations = 1000, .gradient_tolerance = 1e-6};
  Index memory = 10;  // m ≥ 1 pairs kept
  LineSearchOptions line_search = {.kind = LineSearchKind::StrongWolfe, .max_step = 1e10};
};

class Lbfgs {
 public:
  // Throws ValueError for invalid options.
  explicit Lbfgs(LbfgsOptions options = {});
  explicit Lbfgs(DefaultOptions) : Lbfgs() {}  // Note [Constructing from options]
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;
  const LbfgsOptions& options() const { return options_; }

 private:
  LbfgsOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const LbfgsOptions& options,
                const CallbackList& callbacks = {});

}  // namespace dagml
