#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = xᵖ:  x̄ = ȳ ⊙ p x^{p−1}
struct PowTraits {
  static constexpr const char* kName = "pow";
  Scalar p;
  bool operator==(const PowTraits&) const = default;
  std::string attributes() const { return fmt::format("p={}", p); }
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array().pow(p); }
  Var vjp(Var x, Var, Var g) const { return g * scale(dagml::pow(x, p - 1), p); }
};
}  // namespace
Var pow(Var x, Scalar p) { return detail::apply_unary<PowTraits>(x, p); }
}  // namespace dagml
