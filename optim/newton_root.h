// Newton's method for a 1-D root φ(w) = 0 (notes 000 §4.6, root-finding view):
//   w_{t+1} = w_t − α φ(w_t) / φ'(w_t)
// Newton for minimisation is this with φ = f'. Stops when |φ(w)| ≤ tolerance (GradientTolerance),
// when |w_{t+1} − w_t| ≤ tolerance · max(1, |w_t|) (StepTolerance), or after max_iterations.
// φ'(w) = 0 or a non-finite value ends the run with NumericalFailure. The result's x holds the
// single entry w, value = φ(w), and history the iterates w_0, w_1, ….
#pragma once

#include <functional>

#include "optim/result.h"

namespace dagml {

struct NewtonRootOptions {
  Index max_iterations = 100;  // ≥ 1
  Scalar tolerance = 1e-12;    // > 0
  Scalar step = 1;             // damping α ∈ (0, 1]
};

// Throws ValueError for invalid options, empty callables or a non-finite w0.
Result newton_root(const std::function<Scalar(Scalar)>& phi, const std::function<Scalar(Scalar)>& derivative, Scalar w0,
                   const NewtonRootOptions& options = {});

}  // namespace dagml
