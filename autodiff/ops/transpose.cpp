#include "autodiff/linalg.h"
#include "graph/graph.h"

namespace dagml {
namespace {
// Y = Xᵀ:  X̄ = Ȳᵀ
class Transpose final : public Op {
 public:
  const char* name() const override { return "transpose"; }
  Shape infer_shape(std::span<const Shape> in) const override { return {in[0].cols, in[0].rows}; }
  void forward(const ForwardArgs& a) override { a.out = a.in[0]->transpose(); }
  VarList vjp(const VjpArgs& a) const override { return {transpose(a.g)}; }
};
}  // namespace

Var transpose(Var x) {
  static const auto op = std::make_shared<Transpose>();
  return x.graph().apply(op, {x});
}

}  // namespace dagml
