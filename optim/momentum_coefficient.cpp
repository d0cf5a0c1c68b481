#include "optim/momentum_coefficient.h"

#include <fmt/format.h>

#include "graph/error.h"

namespace dagml {

MomentumCoefficient::MomentumCoefficient(Scalar beta) : beta_(beta) {
  if (!(beta >= 0 && beta < 1))
    throw ValueError(fmt::format("momentum coefficient: beta must be in [0, 1), got {}", beta));
}

MomentumCoefficient MomentumCoefficient::convex() {
  MomentumCoefficient c;
  c.convex_ = true;
  return c;
}

}  // namespace dagml
