#include "models/nn/dropout.h"

#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "graph/error.h"

namespace dagml::nn {

Dropout::Dropout(Scalar p) : p_(p) {
  if (!(p >= 0 && p < 1)) throw ValueError(fmt::format("Dropout: p must be in [0, 1), found {}", p));
}

std::string Dropout::describe() const { return fmt::format("dropout (p = {})", p_); }

Var Dropout::build(Var x, BuildContext& ctx) const {
  if (!ctx.training() || p_ == 0) return x;
  return x * ctx.noise(NoiseKind::DropoutMask, x.rows(), x.cols(), 1 - p_);
}

}  // namespace dagml::nn
