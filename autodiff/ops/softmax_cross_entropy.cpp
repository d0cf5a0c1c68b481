#include <cmath>
#include <fmt/format.h>

#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/losses.h"
#include "autodiff/reduce.h"
#include "autodiff/softmax.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/graph.h"

namespace dagml {
namespace {
// ℓᵢ = mᵢ + log Σⱼ exp(zᵢⱼ − mᵢ) − z_{i,yᵢ}, mᵢ the row maximum:  z̄ᵢ = ℓ̄ᵢ (softmax(zᵢ) − onehot(yᵢ));
// labels get no gradient. The forward pass keeps P = softmax(z), which it computes anyway, for
// the gradient node (SoftmaxCrossEntropyGradient), so that a training step exponentiates the
// logits once.
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
    const Index n = z.rows(), k = z.cols();
    for (Index i = 0; i < n; ++i) {
      const Scalar label = y(i, 0);
      if (!(label >= 0 && label < static_cast<Scalar>(k)) || label != std::floor(label))
        throw ValueError(
            fmt::format("softmax_cross_entropy: label {} in row {} is not an integer in [0, {})", label, i, k));
    }
    // P = softmax(z) and logsumexp(z) in one vectorised exponential pass; ℓ = logsumexp − z_y.
    detail::softmax_rows(z, probabilities_, &log_sum_exp_);
    for (Index i = 0; i < n; ++i) a.out(i, 0) = log_sum_exp_(i) - z(i, static_cast<Index>(y(i, 0)));
  }
  VarList vjp(const VjpArgs& a) const override;
  // ℓ̇ᵢ = Σⱼ (softmax(zᵢ) − onehot(yᵢ))ⱼ żᵢⱼ: the weights as one row times the q tangent rows,
  // each seed's row sums over the K logits of each example (q × n). Labels have no tangent.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    if (!t) return Var{};
    const Var z = a.in[0];
    const Var weights = detail::as_row(softmax(z) - one_hot(a.in[1], z.cols()));
    return detail::batched_row_sums(t * weights, z.cols());
  }
  // Each node keeps its own P; a graph's copy keeps the P of the value it copies, so that a
  // gradient node built on the copy (evaluated at once, like every node) reads the right one.
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override {
    return std::make_shared<SoftmaxCrossEntropy>(*this);
  }
  const Tensor& probabilities() const { return probabilities_; }

 private:
  Tensor probabilities_;
  Vector log_sum_exp_;
};

// G = g ⊙ (P − onehot(y)) for inputs (z, y, g, ℓ): g an n×1 column, P = softmax(z) as the
// cross-entropy node ℓ of z and y saved it (ℓ is an input so that it has run first; G does not
// depend on ℓ's value). With P rebuilt as a node, softmax(z), for the second derivatives:
//   z̄ = (g ⊙ P) ⊙ (Ḡ − rowsum(Ḡ ⊙ P)),  ḡ = rowsum(Ḡ ⊙ (P − onehot(y))).
class SoftmaxCrossEntropyGradient final : public Op {
 public:
  const char* name() const override { return "softmax_cross_entropy_gradient"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[1] != Shape{in[0].rows, 1} || in[2] != Shape{in[0].rows, 1} || in[3] != Shape{in[0].rows, 1})
      shape_error(*this, in, "expected n×K logits, then n×1 labels, weights and cross-entropies");
    return in[0];
  }
  void forward(const ForwardArgs& a) override {
    const auto* loss = dynamic_cast<const SoftmaxCrossEntropy*>(a.in_ops[3]);
    DAGML_CHECK(loss != nullptr, "softmax_cross_entropy_gradient: input 3 must be a softmax_cross_entropy node");
    const Tensor& P = loss->probabilities();
    DAGML_CHECK(P.rows() == a.out.rows() && P.cols() == a.out.cols(),
                "softmax_cross_entropy_gradient: the cross-entropy node kept {}×{} probabilities for {}×{} logits",
                P.rows(), P.cols(), a.out.rows(), a.out.cols());
    const Tensor& y = *a.in[1];
    const Tensor& g = *a.in[2];
    const Index k = P.cols();
    for (Index i = 0; i < P.rows(); ++i) {
      const Scalar* p = P.data() + i * k;
      Scalar* out = a.out.data() + i * k;
      const Index label = static_cast<Index>(y(i, 0));
      for (Index j = 0; j < k; ++j) out[j] = g(i, 0) * p[j];
      out[label] = g(i, 0) * (p[label] - 1);
    }
  }
  VarList vjp(const VjpArgs& a) const override {
    const Var z = a.in[0], g = a.in[2], u = a.g;
    const Var p = softmax(z);
    return {g * (p * (u - row_sums(u * p))), Var{}, row_sums(u * (p - one_hot(a.in[1], z.cols()))), Var{}};
  }
  // The same with P, g ⊙ P and P − onehot(y) laid out as one row over the m seeds' rows of Ḡ.
  VarList batched_vjp(const BatchedVjpArgs& a) const override {
    const Var z = a.in[0], g = a.in[2], u = a.g;
    const Index k = z.cols();
    const Var p = softmax(z);
    VarList grads;
    grads.push_back(a.wanted[0]
                        ? detail::as_row(g * p) * (u - detail::batched_repeat_entries(
                                                           detail::batched_row_sums(u * detail::as_row(p), k), k))
                        : Var{});
    grads.push_back(Var{});
    grads.push_back(a.wanted[2] ? detail::batched_row_sums(u * detail::as_row(p - one_hot(a.in[1], k)), k) : Var{});
    grads.push_back(Var{});
    return grads;
  }
  // Ġ = (g ⊙ P) ⊙ (ż − rowsum(ż ⊙ P)) + ġ ⊙ (P − onehot(y)), per tangent row; the labels and ℓ
  // carry no tangent of their own (ℓ's is z's, already counted).
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var z = a.in[0], g = a.in[2];
    const Index k = z.cols();
    const Var p = softmax(z);
    Var total;
    if (const Var t = a.tangents[0])
      total = detail::as_row(g * p) *
              (t - detail::batched_repeat_entries(detail::batched_row_sums(t * detail::as_row(p), k), k));
    if (const Var t = a.tangents[2]) {
      const Var term = detail::batched_repeat_entries(t, k) * detail::as_row(p - one_hot(a.in[1], k));
      total = total ? total + term : term;
    }
    return total;
  }
};

VarList SoftmaxCrossEntropy::vjp(const VjpArgs& a) const {
  static const auto gradient = std::make_shared<SoftmaxCrossEntropyGradient>();
  const Var z = a.in[0];
  return {z.graph().apply(gradient, {z, a.in[1], a.g, a.out}), Var{}};
}
}  // namespace

Var softmax_cross_entropy_rows(Var logits, Var labels) {
  return logits.graph().apply(std::make_shared<SoftmaxCrossEntropy>(), {logits, labels});
}

}  // namespace dagml
