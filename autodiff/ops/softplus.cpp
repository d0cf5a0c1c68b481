#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = log(1 + eˣ) = max(x, 0) + log1p(e^{−|x|}), which never overflows:
// x̄ = ȳ ⊙ σ(x)
struct SoftplusTraits {
  static constexpr const char* kName = "softplus";
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().max(Scalar(0)) + (-x.array().abs()).exp().log1p(); }
  Var vjp(Var x, Var, Var g) const { return g * sigmoid(x); }
};
}  // namespace
Var softplus(Var x) { return detail::apply_unary<SoftplusTraits>(x); }
}  // namespace dagml
