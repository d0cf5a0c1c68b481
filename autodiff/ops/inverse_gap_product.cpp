#include <fmt/format.h>

#include "autodiff/batched.h"
#include "autodiff/decompositions.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "autodiff/structure.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// y = F ⊙ M with Fᵢⱼ = 1/(xⱼ − xᵢ) (i ≠ j), Fᵢᵢ = 0. Where xᵢ = xⱼ the product is defined only
// if Mᵢⱼ = 0 (the quantity is invariant within the repeated eigenspace); it is then 0.
// ∂Fᵢⱼ/∂xⱼ = −Fᵢⱼ², ∂Fᵢⱼ/∂xᵢ = Fᵢⱼ², so with H = ȳ ⊙ M ⊙ F ⊙ F:
//   M̄ = F ⊙ ȳ,   x̄ = rowsum(H) − colsum(H)ᵀ.
// The blocks variant (detail::inverse_gap_product_blocks) takes M as r × n², each row one n×n
// matrix flattened, and applies the same F to each: the batched layout, in which the forward
// rules of symmetric_eigen and svd couple q seeds at once. Its x̄ sums the blocks' terms.
class InverseGapProduct final : public Op {
 public:
  explicit InverseGapProduct(bool blocks) : blocks_(blocks) {}
  const char* name() const override { return blocks_ ? "inverse_gap_product_blocks" : "inverse_gap_product"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].cols != 1) shape_error(*this, in, "expected an n×1 column and an n×n matrix");
    const Index n = in[0].rows;
    if (blocks_ ? in[1].cols != n * n : in[1] != Shape{n, n})
      shape_error(*this, in,
                  blocks_ ? "expected an n×1 column and r × n² blocks" : "expected an n×1 column and an n×n matrix");
    return in[1];
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    const Index n = x.rows(), block = n * n;
    const Scalar scale = std::max<Scalar>(x.cwiseAbs().maxCoeff(), 1e-300);
    for (Index b = 0; b * block < a.in[1]->size(); ++b) {
      const Eigen::Map<const Tensor> m(a.in[1]->data() + b * block, n, n);
      Eigen::Map<Tensor> out(a.out.data() + b * block, n, n);
      const Scalar m_scale = std::max<Scalar>(m.cwiseAbs().maxCoeff(), 1e-300);
      for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < n; ++j) {
          const Scalar gap = x(j, 0) - x(i, 0);
          if (i == j) {
            out(i, j) = 0;
          } else if (std::abs(gap) > 1e-10 * scale) {
            out(i, j) = m(i, j) / gap;
          } else if (std::abs(m(i, j)) <= 1e-12 * m_scale) {
            out(i, j) = 0;
          } else {
            throw NumericalError(fmt::format("entries {} and {} coincide ({:.17g}): the eigen- or singular-vector "
                                             "derivative is undefined for repeated eigen- or singular values",
                                             i, j, x(i, 0)));
          }
        }
    }
  }
  VarList vjp(const VjpArgs& a) const override {
    const Var x = a.in[0];
    const Var h = apply(x, apply(x, a.g * a.in[1]));
    if (!blocks_) return {row_sums(h) - transpose(col_sums(h)), apply(x, a.g)};
    const Index n = x.rows();
    const Var stacked = reshape(h, -1, n);  // (r·n) × n, the blocks one under the other
    const Var block_row_sums = col_sums(reshape(row_sums(stacked), h.rows(), n));
    return {transpose(block_row_sums - col_sums(stacked)), apply(x, a.g)};
  }
  // With D = ẋⱼ − ẋᵢ (per seed, n×n) and P = F ⊙ F ⊙ M (the same for every seed):
  //   Ẏ = F ⊙ Ṁ − P ⊙ D,
  // the first term one blocks product over all q·r seed blocks, the second P as a row times D
  // (D's row s: the s-th seed's ẋ tiled minus its entries repeated; repeated over r blocks).
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var x = a.in[0], M = a.in[1];
    const Index n = x.rows(), r = M.shape().size() / (n * n);
    Var total;
    if (const Var t = a.tangents[1])
      total = reshape(detail::inverse_gap_product_blocks(x, reshape(t, -1, n * n)), t.rows(), -1);
    if (const Var t = a.tangents[0]) {
      const Var gaps = detail::batched_tile(t, n) - detail::batched_repeat_entries(t, n);  // q × n²
      const Var term = detail::as_row(apply(x, apply(x, M))) * detail::batched_tile(gaps, r);
      total = total ? total - term : neg(term);
    }
    return total;
  }

 private:
  Var apply(Var x, Var m) const {
    return blocks_ ? detail::inverse_gap_product_blocks(x, m) : inverse_gap_product(x, m);
  }

  bool blocks_;
};

}  // namespace

Var inverse_gap_product(Var x, Var m) {
  static const auto op = std::make_shared<InverseGapProduct>(false);
  return x.graph().apply(op, {x, m});
}

Var detail::inverse_gap_product_blocks(Var x, Var m) {
  static const auto op = std::make_shared<InverseGapProduct>(true);
  return x.graph().apply(op, {x, m});
}

}  // namespace dagml
