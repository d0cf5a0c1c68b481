#include "models/ensemble/boosting_loss.h"

#include <algorithm>
#include <cmath>

#include "graph/error.h"

#include "models/classify/score_labels.h"

namespace dagml {

void BoostingLoss::check_targets(const Vector& /*y*/, const char* /*who*/) const {}

Vector BoostingLoss::baseline(const Vector& y, const Vector& w, Index outputs) const {
  DAGML_CHECK(outputs == 1, "BoostingLoss::baseline: the Newton baseline is for one output, not {}", outputs);
  Scalar c = 0;
  Tensor F(y.size(), 1), G, H;
  for (int step = 0; step < 100; ++step) {
    F.setConstant(c);
    gradients(y, F, G, H);
    const Scalar h = H.col(0).dot(w);
    if (!(h > 0)) break;
    const Scalar delta = G.col(0).dot(w) / h;
    if (!std::isfinite(delta)) break;
    c -= delta;
    if (std::abs(delta) <= 1e-15 * std::max<Scalar>(1, std::abs(c))) break;
  }
  return Vector::Constant(1, c);
}

Tensor apply_boosting_link(BoostingLink link, const Tensor& F) {
  switch (link) {
    case BoostingLink::Identity: return F;
    case BoostingLink::Exp: return F.array().exp().matrix();
    case BoostingLink::Sigmoid: return (1.0 / (1.0 + (-F.array()).exp())).matrix();
    case BoostingLink::Softmax: return softmax_rows(F);
  }
  return F;
}

}  // namespace dagml
