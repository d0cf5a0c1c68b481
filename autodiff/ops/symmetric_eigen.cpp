#include <Eigen/Eigenvalues>

#include "autodiff/batched.h"
#include "autodiff/decompositions.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/structure.h"
#include "graph/graph.h"

namespace dagml {

Eigen::VectorXd sign_convention(const Eigen::Ref<const Eigen::MatrixXd>& vectors) {
  Eigen::VectorXd signs = Eigen::VectorXd::Ones(vectors.cols());
  for (Index j = 0; j < vectors.cols(); ++j) {
    Index r = 0;
    vectors.col(j).cwiseAbs().maxCoeff(&r);
    if (vectors(r, j) < 0) signs(j) = -1;
  }
  return signs;
}

namespace {

// E = [λ | V], n×(n+1): A = V diag(λ) Vᵀ, λ ascending. With Ē = [λ̄ | V̄] and Fᵢⱼ = 1/(λⱼ − λᵢ):
// Ā = ½ (B + Bᵀ), B = V (diag(λ̄) + F ⊙ (Vᵀ V̄)) Vᵀ.
class SymmetricEigenOp final : public Op {
 public:
  const char* name() const override { return "symmetric_eigen"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].rows != in[0].cols) shape_error(*this, in, "expected a square (symmetric) matrix");
    return {in[0].rows, in[0].rows + 1};
  }
  void forward(const ForwardArgs& a) override {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(Eigen::MatrixXd(*a.in[0]));
    if (solver.info() != Eigen::Success) throw NumericalError("symmetric_eigen: the eigensolver did not converge");
    Eigen::MatrixXd vectors = solver.eigenvectors();
    vectors *= sign_convention(vectors).asDiagonal();
    a.out.col(0) = solver.eigenvalues();
    a.out.rightCols(vectors.cols()) = vectors;
  }
  VarList vjp(const VjpArgs& a) const override {
    const Index n = a.in[0].rows();
    const Var values = slice_cols(a.out, 0, 1), vectors = slice_cols(a.out, 1, n);
    const Var value_bar = slice_cols(a.g, 0, 1), vector_bar = slice_cols(a.g, 1, n);
    const Var inner = diag(value_bar) + inverse_gap_product(values, matmul(vectors, vector_bar, true, false));
    const Var b = matmul(matmul(vectors, inner), vectors, false, true);
    return {scale(b + transpose(b), 0.5)};
  }
  // With Ȧ symmetrised as the VJP's Ā is (the forward pass reads one triangle of a symmetric
  // matrix) and S = Vᵀ sym(Ȧ) V per seed:
  //   λ̇ = diag(S),   V̇ = V (F ⊙ S),   Fᵢⱼ = 1/(λⱼ − λᵢ),
  // the transpose of the VJP above. For q seeds: sym(Ȧₛ)·V is one (q·n)×n by n×n product; Vᵀ·
  // and V· each one product with the seeds side by side (transpose_blocks); diag(S) the row sums
  // of S ⊙ I; F ⊙ S the blocks form of inverse_gap_product. Output rows [λ̇ᵢ, V̇ᵢ] as E's layout.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    const Index n = a.in[0].rows(), q = t.rows();
    const Var values = slice_cols(a.out, 0, 1), vectors = slice_cols(a.out, 1, n);
    const Var sym = scale(t + detail::batched_transpose(t, n, n), 0.5);                       // q × n²
    const Var av = transpose_blocks(reshape(matmul(reshape(sym, -1, n), vectors), q, -1), n);  // n × (q·n)
    const Var s = transpose_blocks(matmul(vectors, av, true, false), q);                        // q × n²: Sₛ
    const Var value_dot = detail::batched_row_sums(s * detail::as_row(identity(a.out.graph(), n)), n);  // q × n
    const Var coupled = transpose_blocks(detail::inverse_gap_product_blocks(values, s), n);     // n × (q·n)
    const Var vector_dot = transpose_blocks(matmul(vectors, coupled), q);                       // q × n²
    return reshape(concat_cols({reshape(value_dot, -1, 1), reshape(vector_dot, -1, n)}), q, -1);
  }
};

}  // namespace

SymmetricEigen symmetric_eigen(Var A) {
  static const auto op = std::make_shared<SymmetricEigenOp>();
  const Var packed = A.graph().apply(op, {A});
  return {slice_cols(packed, 0, 1), slice_cols(packed, 1, A.rows())};
}

}  // namespace dagml
