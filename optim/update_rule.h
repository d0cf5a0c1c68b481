// First-order update rules: objects with internal state and a step API, used one step at a time
// by a trainer that computes its own gradients, and by the first-order loop of
// optim/gradient_descent.h (which runs these very objects).
//
//   Adam adam({.schedule = StepSchedule::constant(1e-3)});
//   for (...) { compute g = ∇f(x); adam.step(x, g); }
//   adam.reset();  // forget the moments and the step count
//
// step(x, g) expects g = ∇f at x, the point the rule keeps (for Nesterov this is the look-ahead
// point, see optim/nesterov.h); position(x) maps that point to the iterate the method reports.
// A rule sizes its state on the first step after construction or reset(); a later step with a
// different length of x throws ShapeError.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "graph/tensor.h"
#include "optim/options.h"
#include "optim/step_schedule.h"

namespace dagml {

class UpdateRule {
 public:
  virtual ~UpdateRule() = default;

  // One update of x in place, from the gradient g at x (same length; ShapeError otherwise). x may
  // be a Vector or a view of contiguous memory, e.g. Eigen::Map<Vector>(tensor.data(), tensor.size())
  // to update a parameter tensor where it lives.
  void step(Eigen::Ref<Vector> x, const Eigen::Ref<const Vector>& gradient);
  // Forgets all state; the next step is step 1 again.
  void reset();
  // The number of steps taken since construction or reset().
  Index steps() const { return t_; }
  // The iterate that x stands for (x itself except for Nesterov).
  virtual Vector position(const Vector& x) const { return x; }

  // Everything a step reads besides x and g: the step count, the dimension (−1 before the first
  // step) and the state vectors (momentum's velocity, Adam's two moments). A rule of the same kind
  // and options given a rule's state() by set_state() makes the same steps on the same bits, so a
  // training checkpoint can continue a run (Note [Resuming training], models/nn/training_checkpoint.h).
  struct State {
    Index steps = 0;
    Index dimension = -1;
    std::vector<Vector> vectors;
  };
  State state() const;
  // ValueError, naming the rule, unless the state has this rule's number of vectors, each of
  // `dimension` entries (none before the first step).
  void set_state(const State& state);

  virtual std::unique_ptr<UpdateRule> clone() const = 0;
  virtual std::string name() const = 0;

 protected:
  // Step number t ≥ 1 on x; state is already sized to x.
  virtual void update(Eigen::Ref<Vector> x, const Eigen::Ref<const Vector>& gradient, Index t) = 0;
  // Allocates zero state for dimension p.
  virtual void init_state(Index p) = 0;
  // The state vectors, in a fixed order (none for plain gradient descent).
  virtual std::vector<const Vector*> state_vectors() const { return {}; }

 private:
  std::vector<Vector*> mutable_state_vectors();

  Index t_ = 0;
  Index dimension_ = -1;
};

struct GradientStepOptions {
  StepSchedule schedule = StepSchedule::constant(0.01);
};

// Plain (stochastic) gradient descent (notes 000 Algorithm 4; notes 003 L675):
//   x_{t+1} = x_t − α_t ∇f(x_t)
class GradientStep final : public UpdateRule {
 public:
  explicit GradientStep(GradientStepOptions options = {});
  explicit GradientStep(DefaultOptions) : GradientStep() {}  // Note [Constructing from options]
  std::unique_ptr<UpdateRule> clone() const override { return std::make_unique<GradientStep>(*this); }
  std::string name() const override { return "gradient descent"; }
  const GradientStepOptions& options() const { return options_; }

 protected:
  void update(Eigen::Ref<Vector> x, const Eigen::Ref<const Vector>& gradient, Index t) override;
  void init_state(Index) override {}

 private:
  GradientStepOptions options_;
};

}  // namespace dagml
