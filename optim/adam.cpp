#include "optim/adam.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"

namespace dagml {
namespace {

void check_beta(Scalar beta, const char* field) {
  if (!(beta > 0 && beta < 1)) throw ValueError(fmt::format("Adam: {} must be in (0, 1), got {}", field, beta));
}

}  // namespace

Adam::Adam(AdamOptions options) : options_(options) {
  check_beta(options.beta1, "beta1");
  check_beta(options.beta2, "beta2");
  if (!(options.epsilon > 0) || !std::isfinite(options.epsilon))
    throw ValueError(fmt::format("Adam: epsilon must be finite and > 0, got {}", options.epsilon));
}

void Adam::update(Eigen::Ref<Vector> x, const Eigen::Ref<const Vector>& g, Index t) {
  const Scalar b1 = options_.beta1, b2 = options_.beta2;
  m_ = b1 * m_ + (1 - b1) * g;
  v_ = b2 * v_ + (1 - b2) * g.cwiseProduct(g);
  const Scalar c1 = 1 - std::pow(b1, static_cast<Scalar>(t));  // bias corrections
  const Scalar c2 = 1 - std::pow(b2, static_cast<Scalar>(t));
  const Scalar alpha = options_.schedule.at(t);
  x.array() -= alpha * (m_.array() / c1) / ((v_.array() / c2).sqrt() + options_.epsilon);
}

}  // namespace dagml
