#include "optim/update_rule.h"

#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "graph/error.h"

namespace dagml {

void UpdateRule::step(Eigen::Ref<Vector> x, const Eigen::Ref<const Vector>& gradient) {
  if (gradient.size() != x.size())
    throw ShapeError(
        fmt::format("{}: step expects a gradient of x's length {}, got {}", name(), x.size(), gradient.size()));
  if (dimension_ < 0) {
    dimension_ = x.size();
    init_state(dimension_);
  } else if (x.size() != dimension_) {
    throw ShapeError(fmt::format("{}: x has {} entries but the rule's state has {}; call reset() first", name(),
                                 x.size(), dimension_));
  }
  update(x, gradient, ++t_);
}

void UpdateRule::reset() {
  t_ = 0;
  dimension_ = -1;
}

std::vector<Vector*> UpdateRule::mutable_state_vectors() {
  std::vector<Vector*> vectors;
  for (const Vector* v : std::as_const(*this).state_vectors()) vectors.push_back(const_cast<Vector*>(v));
  return vectors;
}

UpdateRule::State UpdateRule::state() const {
  State state{t_, dimension_, {}};
  if (dimension_ >= 0)
    for (const Vector* v : state_vectors()) state.vectors.push_back(*v);
  return state;
}

void UpdateRule::set_state(const State& state) {
  if (state.steps < 0 || state.dimension < -1 || (state.dimension < 0 && state.steps > 0))
    throw ValueError(fmt::format("{}: a state of {} steps in dimension {} is not one a rule can be in", name(),
                                 state.steps, state.dimension));
  reset();
  if (state.dimension >= 0) init_state(state.dimension);
  std::vector<Vector*> vectors = state.dimension >= 0 ? mutable_state_vectors() : std::vector<Vector*>{};
  if (state.vectors.size() != vectors.size())
    throw ValueError(fmt::format("{}: expected a state of {} vectors, found {}", name(), vectors.size(),
                                 state.vectors.size()));
  for (std::size_t k = 0; k < vectors.size(); ++k) {
    if (state.vectors[k].size() != state.dimension)
      throw ValueError(fmt::format("{}: state vector {} has {} entries, expected {}", name(), k,
                                   state.vectors[k].size(), state.dimension));
    *vectors[k] = state.vectors[k];
  }
  t_ = state.steps;
  dimension_ = state.dimension;
}

GradientStep::GradientStep(GradientStepOptions options) : options_(options) {}

void GradientStep::update(Eigen::Ref<Vector> x, const Eigen::Ref<const Vector>& g, Index t) {
  x.noalias() -= options_.schedule.at(t) * g;
}

}  // namespace dagml
