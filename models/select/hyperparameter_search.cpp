#include "models/select/hyperparameter_search.h"

#include "graph/error.h"
#include "optim/lbfgs.h"
#include "optim/newton.h"

namespace dagml {

Result minimize_cv_loss(GraphObjective& objective, const Vector& x0) {
  const Scalar scale = objective.value(x0);
  const Result coarse =
      minimize(objective, x0, LbfgsOptions{.stop = {.max_iterations = 200, .gradient_tolerance = 1e-6 * scale}});
  Result fine;
  try {
    fine = minimize(objective, coarse.x,
                    NewtonOptions{.stop = {.max_iterations = 50,
                                           .gradient_tolerance = 1e-10 * scale,
                                           .value_tolerance = 0,
                                           .step_tolerance = 1e-14}});
  } catch (const NumericalError&) {
    // A trial step left the region where the fit's system is positive definite (e.g. λ → 0 with a
    // singular Gram matrix): keep the L-BFGS answer.
    objective.value(coarse.x);
    return coarse;
  }
  // The polish must end on its own, stricter gradient test, at a minimum (a Hessian that is not
  // positive definite marks a saddle or a flat valley Newton followed downhill) and no higher;
  // otherwise (e.g. its line search stalls at rounding level) the converged L-BFGS answer stands.
  if (fine.status != Status::GradientTolerance || fine.curvature == Curvature::NotPositiveDefinite ||
      !(fine.value <= coarse.value)) {
    objective.value(coarse.x);
    return coarse;
  }
  fine.message = "L-BFGS: " + coarse.message + "; then Newton: " + fine.message;
  fine.iterations += coarse.iterations;
  fine.evaluations += coarse.evaluations;
  fine.history.insert(fine.history.begin(), coarse.history.begin(), coarse.history.end());
  return fine;
}

}  // namespace dagml
