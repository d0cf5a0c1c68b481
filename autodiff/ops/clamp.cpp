#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = min(max(x, lo), hi):  x̄ = ȳ ⊙ [lo < x < hi]
struct ClampTraits {
  static constexpr const char* kName = "clamp";
  Scalar lo, hi;
  bool operator==(const ClampTraits&) const = default;
  std::string attributes() const { return fmt::format("lo={}, hi={}", lo, hi); }
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().max(lo).min(hi); }
  Var vjp(Var x, Var, Var g) const { return g * step(x - lo) * step(hi - x); }
};
}  // namespace
Var clamp(Var x, Scalar lo, Scalar hi) { return detail::apply_unary<ClampTraits>(x, lo, hi); }
}  // namespace dagml
