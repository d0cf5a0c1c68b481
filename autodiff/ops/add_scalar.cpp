#include "autodiff/elementwise.h"
#include "autodiff/ops/elementwise_op.h"

namespace dagml {
namespace {
// y = x + s:  x̄ = ȳ
struct AddScalarTraits {
  static constexpr const char* kName = "add_scalar";
  Scalar s;
  bool operator==(const AddScalarTraits&) const = default;
  std::string attributes() const { return fmt::format("s={}", s); }
  template <class X, class Y>
  void forward(const X& x, Y& y) const { y.array() = x.array() + s; }
  Var vjp(Var, Var, Var g) const { return g; }
};
}  // namespace
Var add_scalar(Var x, Scalar s) { return detail::apply_unary<AddScalarTraits>(x, s); }
}  // namespace dagml
