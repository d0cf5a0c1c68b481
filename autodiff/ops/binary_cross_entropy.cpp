#include "autodiff/elementwise.h"
#include "autodiff/logistic.h"
#include "autodiff/losses.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// ℓ(z, y) = max(z, 0) − z y + log1p(e^{−|z|})  (never overflows; Note [Vectorised logistic functions]):
// z̄ = ℓ̄ ⊙ (σ(z) − y),  ȳ = −ℓ̄ ⊙ z
struct BinaryCrossEntropyTraits {
  static constexpr const char* kName = "binary_cross_entropy";
  template <class A, class B> static auto f(const A& z, const B& y) {
    return z.max(Scalar(0)) - z * y + detail::log1p_exp_minus_abs(z);
  }
  static Scalar f(Scalar z, Scalar y) {
    const Eigen::Array<Scalar, 1, 1> zs(z);
    return std::max(z, Scalar(0)) - z * y + detail::log1p_exp_minus_abs(zs)(0);
  }
  std::array<Var, 2> vjp(Var z, Var y, Var, Var g) const { return {g * (sigmoid(z) - y), neg(g * z)}; }
};
}  // namespace

Var binary_cross_entropy_with_logits_elementwise(Var z, Var y) {
  if (z.shape() != y.shape())
    throw ShapeError(fmt::format("binary_cross_entropy_with_logits({}, {}): logits and targets must have one shape",
                                 to_string(z.shape()), to_string(y.shape())));
  return detail::apply_binary<BinaryCrossEntropyTraits>(z, y);
}

}  // namespace dagml
