#include <fmt/format.h>

#include "autodiff/decompositions.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// y = F ⊙ M with Fᵢⱼ = 1/(xⱼ − xᵢ) (i ≠ j), Fᵢᵢ = 0. Where xᵢ = xⱼ the product is defined only
// if Mᵢⱼ = 0 (the quantity is invariant within the repeated eigenspace); it is then 0.
// ∂Fᵢⱼ/∂xⱼ = −Fᵢⱼ², ∂Fᵢⱼ/∂xᵢ = Fᵢⱼ², so with H = ȳ ⊙ M ⊙ F ⊙ F:
//   M̄ = F ⊙ ȳ,   x̄ = rowsum(H) − colsum(H)ᵀ.
class InverseGapProduct final : public Op {
 public:
  const char* name() const override { return "inverse_gap_product"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].cols != 1) shape_error(*this, in, "expected an n×1 column and an n×n matrix");
    if (in[1] != Shape{in[0].rows, in[0].rows}) shape_error(*this, in, "expected an n×1 column and an n×n matrix");
    return in[1];
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    const Tensor& m = *a.in[1];
    const Scalar scale = std::max<Scalar>(x.cwiseAbs().maxCoeff(), 1e-300);
    const Scalar m_scale = std::max<Scalar>(m.cwiseAbs().maxCoeff(), 1e-300);
    for (Index i = 0; i < x.rows(); ++i)
      for (Index j = 0; j < x.rows(); ++j) {
        const Scalar gap = x(j, 0) - x(i, 0);
        if (i == j) {
          a.out(i, j) = 0;
        } else if (std::abs(gap) > 1e-10 * scale) {
          a.out(i, j) = m(i, j) / gap;
        } else if (std::abs(m(i, j)) <= 1e-12 * m_scale) {
          a.out(i, j) = 0;
        } else {
          throw NumericalError(fmt::format("entries {} and {} coincide ({:.17g}): the eigen- or singular-vector "
                                           "derivative is undefined for repeated eigen- or singular values",
                                           i, j, x(i, 0)));
        }
      }
  }
  VarList vjp(const VjpArgs& a) const override {
    const Var x = a.in[0];
    const Var h = inverse_gap_product(x, inverse_gap_product(x, a.g * a.in[1]));
    return {row_sums(h) - transpose(col_sums(h)), inverse_gap_product(x, a.g)};
  }
};

}  // namespace

Var inverse_gap_product(Var x, Var m) {
  static const auto op = std::make_shared<InverseGapProduct>();
  return x.graph().apply(op, {x, m});
}

}  // namespace dagml
