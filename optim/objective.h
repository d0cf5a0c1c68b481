// Objective: the function an optimizer minimises, over one flat parameter vector x ∈ ℝᵖ.
//
// Every method needs value and gradient (value_and_gradient, fused because a reverse pass yields
// both at once). Newton needs the Hessian (or Hessian-vector products for Newton-CG); Gauss-Newton
// and Levenberg-Marquardt need residuals r(x) ∈ ℝᵐ and their Jacobian, with f(x) = ½‖r(x)‖²;
// minibatch methods need f as a mean over samples, f = (1/n) Σᵢ fᵢ, and its estimate on a batch B,
// f_B = (1/|B|) Σ_{i∈B} fᵢ. An objective says which of these it offers (has_*); calling one it does
// not offer throws ValueError naming the method.
//
// Two implementations: FunctionObjective (plain C++ callables, below) and GraphObjective
// (optim/graph_objective.h: a graph loss and its parameter nodes, evaluated by replay).
#pragma once

#include <functional>
#include <span>
#include <string>

#include "graph/tensor.h"

namespace dagml {

class Objective {
 public:
  virtual ~Objective() = default;

  // p, the length of x.
  virtual Index dimension() const = 0;

  // f(x). x has dimension() entries (every method checks x0 with check_start).
  virtual Scalar value(const Vector& x) = 0;
  // f(x), and ∇f(x) written to `gradient` (resized to p).
  virtual Scalar value_and_gradient(const Vector& x, Vector& gradient) = 0;

  // ∇²f(x), p×p, written to `hessian`.
  virtual bool has_hessian() const { return false; }
  virtual void hessian(const Vector& x, Tensor& hessian);

  // f(x), ∇f(x) and ∇²f(x) together; the default calls value_and_gradient and hessian. Override
  // it where one pass yields all three (GraphObjective replays one plan).
  virtual Scalar value_gradient_and_hessian(const Vector& x, Vector& gradient, Tensor& hessian);

  // (∇²f(x)) v written to `product`. The default uses hessian() when it exists.
  virtual bool has_hessian_vector_product() const { return has_hessian(); }
  virtual void hessian_vector_product(const Vector& x, const Vector& v, Vector& product);

  // r(x) ∈ ℝᵐ, and when `jacobian` is not null J(x) = ∂r/∂x (m×p), for f = ½‖r‖².
  virtual bool has_residuals() const { return false; }
  virtual void residuals(const Vector& x, Vector& r, Tensor* jacobian);

  // n, the number of samples f averages over, or 0 when f is not a mean over samples.
  virtual Index num_samples() const { return 0; }
  // f_B(x) and ∇f_B(x) for the batch B = `rows` (indices in [0, n)), each fᵢ weighted 1/|B|.
  virtual Scalar batch_value_and_gradient(const Vector& x, std::span<const Index> rows, Vector& gradient);

 protected:
  [[noreturn]] void not_offered(const char* what) const;
};

// An objective from callables. `value_and_gradient` is required; the others are optional and, when
// set, switch on the matching has_*(). `value` defaults to value_and_gradient with a scratch
// gradient. A batch callable also needs num_samples ≥ 1.
struct FunctionObjectiveSpec {
  Index dimension = 0;
  std::function<Scalar(const Vector& x, Vector& gradient)> value_and_gradient = {};
  std::function<Scalar(const Vector& x)> value = {};
  std::function<void(const Vector& x, Tensor& hessian)> hessian = {};
  std::function<void(const Vector& x, const Vector& v, Vector& product)> hessian_vector_product = {};
  std::function<void(const Vector& x, Vector& r, Tensor* jacobian)> residuals = {};
  Index num_samples = 0;
  std::function<Scalar(const Vector& x, std::span<const Index> rows, Vector& gradient)> batch_value_and_gradient = {};
};

class FunctionObjective final : public Objective {
 public:
  // Throws ValueError if dimension < 1, value_and_gradient is empty, or num_samples and the batch
  // callable are not given together.
  explicit FunctionObjective(FunctionObjectiveSpec spec);

  Index dimension() const override { return spec_.dimension; }
  Scalar value(const Vector& x) override;
  Scalar value_and_gradient(const Vector& x, Vector& gradient) override;
  bool has_hessian() const override { return static_cast<bool>(spec_.hessian); }
  void hessian(const Vector& x, Tensor& hessian) override;
  bool has_hessian_vector_product() const override { return spec_.hessian_vector_product || spec_.hessian; }
  void hessian_vector_product(const Vector& x, const Vector& v, Vector& product) override;
  bool has_residuals() const override { return static_cast<bool>(spec_.residuals); }
  void residuals(const Vector& x, Vector& r, Tensor* jacobian) override;
  Index num_samples() const override { return spec_.num_samples; }
  Scalar batch_value_and_gradient(const Vector& x, std::span<const Index> rows, Vector& gradient) override;

 private:
  FunctionObjectiveSpec spec_;
  Vector scratch_;
};

// Throws ShapeError naming `who` unless x has objective.dimension() entries, and ValueError unless
// every entry of x is finite.
void check_start(const Objective& objective, const Vector& x, const char* who);

// The start of a least-squares method (Gauss–Newton, Levenberg–Marquardt): check_start, then
// ValueError naming `who` unless the objective offers residuals; evaluates r = r(x0) and its
// Jacobian J (one evaluation) and returns f = ½‖r‖².
Scalar start_least_squares(Objective& objective, const Vector& x0, const char* who, Vector& r, Tensor& J);

}  // namespace dagml
