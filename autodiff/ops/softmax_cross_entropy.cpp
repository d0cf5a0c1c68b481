#include <cmath>
#include <fmt/format.h>

#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/losses.h"
#include "autodiff/softmax.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/graph.h"

namespace dagml {
namespace {
// ℓᵢ = logsumexp(zᵢ) − z_{i,yᵢ}:  z̄ᵢ = ℓ̄ᵢ (softmax(zᵢ) − onehot(yᵢ));  labels get no gradient.
class SoftmaxCrossEntropy final : public Op {
 public:
  const char* name() const override { return "softmax_cross_entropy"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[1].cols != 1 || in[1].rows != in[0].rows)
      shape_error(*this, in, "expected n×K logits and n×1 integer labels");
    if (in[0].cols < 1) shape_error(*this, in, "logits need at least one column");
    return {in[0].rows, 1};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& z = *a.in[0];
    const Tensor& y = *a.in[1];
    for (Index i = 0; i < z.rows(); ++i) {
      const Scalar label = y(i, 0);
      if (!(label >= 0 && label < static_cast<Scalar>(z.cols())) || label != std::floor(label))
        throw ValueError(
            fmt::format("softmax_cross_entropy: label {} in row {} is not an integer in [0, {})", label, i, z.cols()));
    }
    // The exponentials and the logarithms vectorised over the whole batch; the scratch matrix is
    // kept by the thread, so a training step allocates nothing.
    thread_local Tensor e;
    detail::exp_minus_row_max(z, e);
    a.out = e.rowwise().sum();
    a.out.array() = a.out.array().log();
    for (Index i = 0; i < z.rows(); ++i)
      a.out(i, 0) = z.row(i).maxCoeff() + a.out(i, 0) - z(i, static_cast<Index>(y(i, 0)));
  }
  VarList vjp(const VjpArgs& a) const override {
    const Var z = a.in[0];
    return {a.g * (softmax(z) - one_hot(a.in[1], z.cols())), Var{}};
  }
  // ℓ̇ᵢ = Σⱼ (softmax(zᵢ) − onehot(yᵢ))ⱼ żᵢⱼ: the weights as one row times the q tangent rows,
  // each seed's row sums over the K logits of each example (q × n). Labels have no tangent.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    const Var z = a.in[0];
    const Var weights = detail::as_row(softmax(z) - one_hot(a.in[1], z.cols()));
    return detail::batched_row_sums(t * weights, z.cols());
  }
};
}  // namespace

Var softmax_cross_entropy_rows(Var logits, Var labels) {
  static const auto op = std::make_shared<SoftmaxCrossEntropy>();
  return logits.graph().apply(op, {logits, labels});
}

}  // namespace dagml
