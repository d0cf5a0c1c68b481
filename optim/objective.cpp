#include "optim/objective.h"

#include <fmt/format.h>

#include "graph/error.h"

namespace dagml {

void Objective::not_offered(const char* what) const {
  throw ValueError(fmt::format("this objective offers no {}; the method needs it", what));
}

void Objective::hessian(const Vector&, Tensor&) { not_offered("Hessian"); }

Scalar Objective::value_gradient_and_hessian(const Vector& x, Vector& gradient, Tensor& hessian) {
  const Scalar f = value_and_gradient(x, gradient);
  this->hessian(x, hessian);
  return f;
}

void Objective::hessian_vector_product(const Vector& x, const Vector& v, Vector& product) {
  if (!has_hessian()) not_offered("Hessian-vector product");
  Tensor h;
  hessian(x, h);
  product = h * v;
}

void Objective::residuals(const Vector&, Vector&, Tensor*) { not_offered("residuals"); }

Scalar Objective::batch_value_and_gradient(const Vector&, std::span<const Index>, Vector&) {
  not_offered("minibatch evaluation (num_samples() is 0)");
}

FunctionObjective::FunctionObjective(FunctionObjectiveSpec spec) : spec_(std::move(spec)) {
  if (spec_.dimension < 1)
    throw ValueError(fmt::format("FunctionObjective: dimension must be >= 1, got {}", spec_.dimension));
  if (!spec_.value_and_gradient) throw ValueError("FunctionObjective: value_and_gradient is required");
  if ((spec_.num_samples > 0) != static_cast<bool>(spec_.batch_value_and_gradient))
    throw ValueError(fmt::format(
        "FunctionObjective: num_samples ({}) and batch_value_and_gradient must be given together", spec_.num_samples));
  if (spec_.num_samples < 0)
    throw ValueError(fmt::format("FunctionObjective: num_samples must be >= 0, got {}", spec_.num_samples));
}

Scalar FunctionObjective::value(const Vector& x) {
  if (spec_.value) return spec_.value(x);
  return spec_.value_and_gradient(x, scratch_);
}

Scalar FunctionObjective::value_and_gradient(const Vector& x, Vector& gradient) {
  return spec_.value_and_gradient(x, gradient);
}

void FunctionObjective::hessian(const Vector& x, Tensor& hessian) {
  if (!spec_.hessian) not_offered("Hessian");
  spec_.hessian(x, hessian);
}

void FunctionObjective::hessian_vector_product(const Vector& x, const Vector& v, Vector& product) {
  if (spec_.hessian_vector_product) return spec_.hessian_vector_product(x, v, product);
  Objective::hessian_vector_product(x, v, product);
}

void FunctionObjective::residuals(const Vector& x, Vector& r, Tensor* jacobian) {
  if (!spec_.residuals) not_offered("residuals");
  spec_.residuals(x, r, jacobian);
}

Scalar FunctionObjective::batch_value_and_gradient(const Vector& x, std::span<const Index> rows, Vector& gradient) {
  if (!spec_.batch_value_and_gradient) not_offered("minibatch evaluation");
  return spec_.batch_value_and_gradient(x, rows, gradient);
}

void check_start(const Objective& objective, const Vector& x, const char* who) {
  if (x.size() != objective.dimension())
    throw ShapeError(fmt::format("{}: x0 must have {} entries (the objective's dimension), got {}", who,
                                 objective.dimension(), x.size()));
  if (!x.allFinite()) throw ValueError(fmt::format("{}: x0 has NaN or infinite entries", who));
}

Scalar start_least_squares(Objective& objective, const Vector& x0, const char* who, Vector& r, Tensor& J) {
  check_start(objective, x0, who);
  if (!objective.has_residuals())
    throw ValueError(fmt::format("{}: the objective offers no residuals (use GraphObjective::least_squares)", who));
  objective.residuals(x0, r, &J);
  return 0.5 * r.squaredNorm();
}

}  // namespace dagml
