#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"
#include "autodiff/softmax.h"
#include "graph/graph.h"

namespace dagml {
namespace {
// Yᵢⱼ = Xᵢⱼ − logsumexpⱼ(Xᵢ):  X̄ = Ȳ − exp(Y) ⊙ rowsum(Ȳ)
class LogSoftmax final : public Op {
 public:
  const char* name() const override { return "log_softmax"; }
  Shape infer_shape(std::span<const Shape> in) const override { return in[0]; }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    for (Index i = 0; i < x.rows(); ++i) {
      const Scalar m = x.row(i).maxCoeff();
      const Scalar lse = m + std::log((x.row(i).array() - m).exp().sum());
      a.out.row(i) = x.row(i).array() - lse;
    }
  }
  VarList vjp(const VjpArgs& a) const override { return {a.g - exp(a.out) * row_sums(a.g)}; }
  // Each row's Jacobian is I − 1 pᵀ, p = exp(y) = softmax(x):  Ẏ = Ẋ − rowsum(exp(Y) ⊙ Ẋ), each
  // row's sum repeated over its k entries; exp(y) as one row over the q tangent rows.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    const Index k = a.out.cols();
    return t - detail::batched_repeat_entries(detail::batched_row_sums(t * detail::as_row(exp(a.out)), k), k);
  }
};
}  // namespace

Var log_softmax(Var x) {
  static const auto op = std::make_shared<LogSoftmax>();
  return x.graph().apply(op, {x});
}

}  // namespace dagml
