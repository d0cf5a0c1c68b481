#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = s·x:  x̄ = s·ȳ
struct ScaleTraits {
  static constexpr const char* kName = "scale";
  Scalar s;
  bool operator==(const ScaleTraits&) const = default;
  std::string attributes() const { return fmt::format("s={}", s); }
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = s * x.array(); }
  Var vjp(Var, Var, Var g) const { return scale(g, s); }
};
}  // namespace
Var scale(Var x, Scalar s) { return detail::apply_unary<ScaleTraits>(x, s); }
}  // namespace dagml
