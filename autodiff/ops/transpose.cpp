#include <algorithm>

#include "autodiff/batched.h"
#include "autodiff/linalg.h"
#include "graph/graph.h"

namespace dagml {
namespace {
// Y = Xᵀ:  X̄ = Ȳᵀ
class Transpose final : public Op {
 public:
  const char* name() const override { return "transpose"; }
  Shape infer_shape(std::span<const Shape> in) const override { return {in[0].cols, in[0].rows}; }
  // In square tiles, so that both the rows read and the rows written stay in cache (a plain
  // transposed copy strides through the whole input once per output row).
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    if (x.rows() == 1 || x.cols() == 1) {
      a.out = Eigen::Map<const Tensor>(x.data(), a.out.rows(), a.out.cols());
      return;
    }
    constexpr Index kTile = 16;
    for (Index i = 0; i < x.rows(); i += kTile)
      for (Index j = 0; j < x.cols(); j += kTile) {
        const Index h = std::min(kTile, x.rows() - i), w = std::min(kTile, x.cols() - j);
        a.out.block(j, i, w, h) = x.block(i, j, h, w).transpose();
      }
  }
  VarList vjp(const VjpArgs& a) const override { return {transpose(a.g)}; }
  // A vector's entries keep their order; a matrix's would need a transpose per row.
  VarList batched_vjp(const BatchedVjpArgs& a) const override {
    if (a.in[0].rows() == 1 || a.in[0].cols() == 1) return {a.g};
    return {};
  }
  // Ẏ = each tangent row's matrix transposed.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    return detail::batched_transpose(a.tangents[0], a.in[0].rows(), a.in[0].cols());
  }
};
}  // namespace

Var transpose(Var x) {
  static const auto op = std::make_shared<Transpose>();
  return x.graph().apply(op, {x});
}

}  // namespace dagml
