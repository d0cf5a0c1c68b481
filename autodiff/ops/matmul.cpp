#include <fmt/format.h>

#include <array>
#include <vector>

#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/structure.h"
#include "graph/graph.h"
#include "graph/narrow_products.h"

namespace dagml {
namespace {

using FloatMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// out = op(A)·op(B) by Eigen's GEMM, in the operands' precision.
template <class MatrixA, class MatrixB, class MatrixC>
void general_product(const MatrixA& A, const MatrixB& B, bool ta, bool tb, MatrixC& out) {
  if (!ta && !tb)
    out.noalias() = A * B;
  else if (ta && !tb)
    out.noalias() = A.transpose() * B;
  else if (!ta)
    out.noalias() = A * B.transpose();
  else
    out.noalias() = A.transpose() * B.transpose();
}

// out = op(A)·op(B) with both operands rounded to float and the product summed in float
// (Precision::Float32). The float copies live in one buffer per thread that only grows, so a
// replayed product allocates nothing; the result does not depend on the thread that computes it.
void single_precision_product(const Tensor& A, const Tensor& B, bool ta, bool tb, Tensor& out) {
  thread_local std::vector<float> buffer;
  const std::size_t needed = static_cast<std::size_t>(A.size() + B.size() + out.size());
  if (buffer.size() < needed) buffer.resize(needed);
  Eigen::Map<FloatMatrix> a(buffer.data(), A.rows(), A.cols());
  Eigen::Map<FloatMatrix> b(a.data() + a.size(), B.rows(), B.cols());
  Eigen::Map<FloatMatrix> c(b.data() + b.size(), out.rows(), out.cols());
  a = A.cast<float>();
  b = B.cast<float>();
  general_product(a, b, ta, tb, c);
  out = c.cast<double>();
}

// C = op(A)·op(B) by the kernels of Note [Narrow products] when C has few columns and op(A)
// = A, or op(A) = Aᵀ with op(B) = B; false (nothing done) otherwise.
bool product_of_narrow_shape(const Tensor& A, const Tensor& B, bool ta, bool tb, Tensor& out) {
  if (ta && !tb && narrow_transposed_product_pays(A.rows(), A.cols(), out.cols())) {
    narrow_transposed_product(A, B, out);
    return true;
  }
  if (ta || !narrow_product_pays(A.rows(), A.cols(), out.cols())) return false;
  if (tb) {
    narrow_product(A, B, out);
  } else {
    // The rows of Bᵀ side by side, on the stack (k·m ≤ kNarrowBtEntries: no allocation in a
    // training step). Not a thread-local buffer: the calling thread may run another node's
    // product while it waits for this one's tasks.
    alignas(64) std::array<Scalar, kNarrowBtEntries> storage;
    Eigen::Map<Tensor> transposed(storage.data(), B.cols(), B.rows());
    transposed = B.transpose();
    narrow_product(A, transposed, out);
  }
  return true;
}

// C = op(A)·op(B). With G = C̄:
//   C = A B:    Ā = G Bᵀ,    B̄ = Aᵀ G
//   C = Aᵀ B:   Ā = B Gᵀ,    B̄ = A G
//   C = A Bᵀ:   Ā = G B,     B̄ = Gᵀ A
//   C = Aᵀ Bᵀ:  Ā = Bᵀ Gᵀ,   B̄ = Gᵀ Aᵀ
// Each adjoint is itself a matmul with transpose flags, so no transpose is ever copied, and of
// the same precision.
class MatMul final : public Op {
 public:
  MatMul(bool ta, bool tb, Precision precision) : ta_(ta), tb_(tb), precision_(precision) {}
  const char* name() const override { return "matmul"; }
  std::string attributes() const override {
    const std::string transposes = ta_ || tb_ ? fmt::format("{}{}", ta_ ? "Aᵀ" : "A", tb_ ? "Bᵀ" : "B") : "";
    if (precision_ == Precision::Float64) return transposes;
    return transposes.empty() ? "float32" : transposes + ", float32";
  }
  Shape infer_shape(std::span<const Shape> in) const override {
    const Index n = ta_ ? in[0].cols : in[0].rows, k1 = ta_ ? in[0].rows : in[0].cols;
    const Index k2 = tb_ ? in[1].cols : in[1].rows, m = tb_ ? in[1].rows : in[1].cols;
    if (k1 != k2)
      shape_error(*this, in, fmt::format("inner dimensions differ: {} vs {}{}", k1, k2,
                                         ta_ || tb_ ? fmt::format(" (with transposes {})", attributes()) : ""));
    return {n, m};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& A = *a.in[0];
    const Tensor& B = *a.in[1];
    if (precision_ == Precision::Float32) {
      single_precision_product(A, B, ta_, tb_, a.out);
    } else if (a.out.size() == 1 && !ta_ && !tb_) {
      a.out(0, 0) = A.row(0).dot(B.col(0));
    } else if (!product_of_narrow_shape(A, B, ta_, tb_, a.out)) {
      general_product(A, B, ta_, tb_, a.out);
    }
  }
  VarList vjp(const VjpArgs& a) const override {
    const Var A = a.in[0], B = a.in[1], G = a.g;
    if (!ta_ && !tb_) return {product(G, B, false, true), product(A, G, true, false)};
    if (ta_ && !tb_) return {product(B, G, false, true), product(A, G)};
    if (!ta_) return {product(G, B), product(G, A, true, false)};
    return {product(B, G, true, true), product(G, A, true, true)};
  }
  // Batched (row s of G is Gₛ, the s-th cotangent of C = op(A)·op(B), n×c, flattened):
  //   Āₛ = Gₛ op(B)ᵀ for every s at once: G viewed as (m·n)×c rows times op(B)ᵀ, when op(A) = A
  //     or n = 1 (an Āₛ that is transposed back would need a per-row transpose);
  //   B̄ₛ = op(A)ᵀ Gₛ: when c = 1, B̄ = G·op(A), one m×n by n×k product (op(A) itself when G is
  //     the identity seed); for c > 1 (and op(B) = B), the seed index is moved next to the
  //     columns by transpose_blocks, so that one k×n by n×(m·c) product does all seeds.
  // The other cases (Āₛ transposed, B̄ₛ transposed) go row by row.
  // Ẏ = op(Ȧ) op(B) + op(A) op(Ḃ), per tangent row. The first term is one product of the
  // (q·n) × k stack of the seeds' op(Ȧₛ) with op(B); the second brings the seeds' op(Ḃₛ) side by
  // side (transpose_blocks: k × (q·c)), multiplies once by op(A) and moves the seed index back.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var A = a.in[0], B = a.in[1];
    const Index n = a.out.rows(), c = a.out.cols(), k = ta_ ? A.rows() : A.cols();
    Var total;
    if (const Var t = a.tangents[0]) {
      const Var op_a = ta_ ? detail::batched_transpose(t, A.rows(), A.cols()) : t;  // q × (n·k)
      const Var term = reshape(product(reshape(op_a, -1, k), B, false, tb_), t.rows(), n * c);
      total = term;
    }
    if (const Var t = a.tangents[1]) {
      const Var op_b = tb_ ? detail::batched_transpose(t, B.rows(), B.cols()) : t;  // q × (k·c)
      const Var side_by_side = k == 1 ? reshape(op_b, 1, -1) : transpose_blocks(op_b, k);  // k × (q·c)
      const Var stacked = product(A, side_by_side, ta_, false);                            // n × (q·c)
      const Var term = n == 1 ? reshape(stacked, t.rows(), c) : transpose_blocks(stacked, t.rows());
      total = total ? total + term : term;
    }
    return total;
  }
  VarList batched_vjp(const BatchedVjpArgs& a) const override {
    const Var A = a.in[0], B = a.in[1], G = a.g;
    const Index n = a.out.rows(), c = a.out.cols(), m = G.rows();
    const bool can_a = !ta_ || n == 1, can_b = c == 1 || !tb_;
    if ((a.wanted[0] && !can_a) || (a.wanted[1] && !can_b)) return {};
    VarList grads;
    if (a.wanted[0]) {
      const Var rows = n == 1 ? G : reshape(G, -1, c);
      const Var stacked = product(rows, B, false, !tb_);
      grads.push_back(n == 1 ? stacked : reshape(stacked, m, -1));
    } else {
      grads.push_back(Var{});
    }
    if (!a.wanted[1]) grads.push_back(Var{});
    else if (c > 1)
      grads.push_back(transpose_blocks(product(A, transpose_blocks(G, n), !ta_, false), m));
    else if (detail::is_identity_constant(G)) grads.push_back(ta_ ? transpose(A) : A);
    else
      grads.push_back(product(G, A, false, ta_));
    return grads;
  }

 private:
  // op(x)·op(y) in this op's precision: the adjoints' and tangents' products.
  Var product(Var x, Var y, bool tx = false, bool ty = false) const { return matmul(x, y, precision_, tx, ty); }

  bool ta_, tb_;
  Precision precision_;
};

}  // namespace

Var matmul(Var a, Var b, Precision precision, bool transpose_a, bool transpose_b) {
  static const auto ops = [] {
    std::array<std::shared_ptr<Op>, 8> all;
    for (int i = 0; i < 8; ++i)
      all[static_cast<std::size_t>(i)] =
          std::make_shared<MatMul>(i & 1, i & 2, i & 4 ? Precision::Float32 : Precision::Float64);
    return all;
  }();
  const int which = (transpose_a ? 1 : 0) | (transpose_b ? 2 : 0) | (precision == Precision::Float32 ? 4 : 0);
  return a.graph().apply(ops[static_cast<std::size_t>(which)], {a, b});
}

Var matmul(Var a, Var b, bool transpose_a, bool transpose_b) {
  return matmul(a, b, Precision::Float64, transpose_a, transpose_b);
}

Var outer(Var u, Var v) {
  if (u.cols() != 1 || v.cols() != 1)
    throw ShapeError(fmt::format("outer({}, {}): expected two column vectors", to_string(u.shape()),
                                 to_string(v.shape())));
  return matmul(u, v, false, true);
}

}  // namespace dagml
