#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "graph/graph.h"

namespace dagml {
namespace {
// y = Σₖ xₖ over operands of one shape:  x̄ₖ = ȳ for every k. Reverse mode sums the adjoint
// contributions of a node used many times with one add_n instead of a chain of adds.
class AddN final : public Op {
 public:
  const char* name() const override { return "add_n"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    for (std::size_t i = 1; i < in.size(); ++i)
      if (in[i] != in[0])
        shape_error(*this, in, fmt::format("every operand must have the shape of the first, operand {} has {}", i,
                                           to_string(in[i])));
    if (in.empty()) shape_error(*this, in, "nothing to add");
    return in[0];
  }
  void forward(const ForwardArgs& a) override {
    if (a.out.size() == 1) {
      Scalar s = 0;
      for (const Tensor* x : a.in) s += (*x)(0, 0);
      a.out(0, 0) = s;
      return;
    }
    a.out = *a.in[0];
    for (std::size_t k = 1; k < a.in.size(); ++k) a.out += *a.in[k];
  }
  VarList vjp(const VjpArgs& a) const override { return std::vector<Var>(a.in.size(), a.g); }
  VarList batched_vjp(const BatchedVjpArgs& a) const override { return vjp(VjpArgs{a.in, a.out, a.g}); }
  // Ẏ = Σ Ẋᵢ over the terms that have a tangent.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    std::vector<Var> terms;
    for (const Var& t : a.tangents)
      if (t) terms.push_back(t);
    return terms.size() == 1 ? terms[0] : add_n(terms);
  }
};
}  // namespace

Var add_n(const std::vector<Var>& terms) {
  if (terms.empty()) throw ValueError("add_n: nothing to add");
  if (terms.size() == 1) return terms[0];
  static const auto op = std::make_shared<AddN>();
  return terms[0].graph().apply(op, terms);
}

}  // namespace dagml
