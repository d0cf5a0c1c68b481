// Trust-region Newton with Steihaug's conjugate gradients (Nocedal & Wright, Algorithms 4.1 and
// 7.2): Newton steps from Hessian-vector products only, safe where the Hessian is indefinite.
//
// Note [Trust-region Newton]
// At x with g = ∇f(x) the step p approximately minimises the quadratic model
//   m(p) = f + gᵀp + ½ pᵀ ∇²f p   subject to ‖p‖ ≤ Δ
// by CG on ∇²f p = −g from p = 0 (Steihaug): CG stops at the boundary ‖p‖ = Δ when a step would
// cross it, or when it meets a direction d of non-positive curvature dᵀ∇²f d ≤ 0 (then it follows
// d to the boundary: downhill along negative curvature, never towards a maximum), or when
// ‖∇²f p + g‖ ≤ min(0.5, √‖g‖)‖g‖. The step is judged by ρ = (f(x) − f(x + p)) / (m(0) − m(p)):
// ρ > 10⁻⁴ accepts it (f never rises); ρ < ¼ shrinks Δ to ¼‖p‖; ρ > ¾ with p on the boundary
// doubles Δ (up to max_radius). Stopping: the tests of Note [Stopping rules] after each accepted
// step; the radius falling below ε·max(‖x‖, 1) ends the run Stalled (no step can change x). At the
// end the curvature of ∇²f at x is reported (report_curvature) when the objective has a Hessian and
// at most kCurvatureCheckMaxDimension parameters.
#pragma once

#include "optim/callbacks.h"
#include "optim/objective.h"
#include "optim/options.h"

namespace dagml {

struct TrustRegionNewtonOptions {
  StopOptions stop = {.max_iterations = 200, .gradient_tolerance = 1e-8};
  Scalar initial_radius = 1;    // Δ₀ > 0
  Scalar max_radius = 1e10;     // ≥ initial_radius
  Index max_cg_iterations = 0;  // 0: the dimension p; else ≥ 1
};

class TrustRegionNewton {
 public:
  // Throws ValueError for invalid options.
  explicit TrustRegionNewton(TrustRegionNewtonOptions options = {});
  explicit TrustRegionNewton(DefaultOptions) : TrustRegionNewton() {}  // Note [Constructing from options]
  // Needs objective.has_hessian_vector_product() (ValueError otherwise).
  Result minimize(Objective& objective, const Vector& x0, const CallbackList& callbacks = {}) const;
  const TrustRegionNewtonOptions& options() const { return options_; }

 private:
  TrustRegionNewtonOptions options_;
};

Result minimize(Objective& objective, const Vector& x0, const TrustRegionNewtonOptions& options,
                const CallbackList& callbacks = {});

}  // namespace dagml
