#include <Eigen/LU>
#include <fmt/format.h>

#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/solvers.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/graph.h"

namespace dagml {
namespace {

using ColMatrix = Eigen::MatrixXd;

Shape square_system_shape(const Op& op, std::span<const Shape> in, const Shape& A, const Shape& b) {
  if (A.rows != A.cols) shape_error(op, in, "the matrix must be square");
  if (b.rows != A.rows) shape_error(op, in, "the right-hand side needs as many rows as the matrix");
  return b;
}

// x = A⁻¹ b. Forward keeps the LU factorization for the adjoint solves below.
class Solve final : public Op {
 public:
  const char* name() const override { return "solve"; }
  Shape infer_shape(std::span<const Shape> in) const override { return square_system_shape(*this, in, in[0], in[1]); }
  void forward(const ForwardArgs& a) override {
    lu_.compute(ColMatrix(*a.in[0]));
    if (!(lu_.rcond() > std::numeric_limits<Scalar>::epsilon()))
      throw NumericalError(fmt::format("solve: the {}×{} matrix is singular to working precision (rcond {:.3g})",
                                       a.in[0]->rows(), a.in[0]->cols(), lu_.rcond()));
    a.out = lu_.solve(ColMatrix(*a.in[1]));
  }
  VarList vjp(const VjpArgs& a) const override;
  std::optional<Var> jvp(const JvpArgs& a) const override;
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override { return std::make_shared<Solve>(*this); }
  const Eigen::PartialPivLU<ColMatrix>& lu() const { return lu_; }

 private:
  Eigen::PartialPivLU<ColMatrix> lu_;
};

// y = A⁻¹ r (or A⁻ᵀ r when transposed), with the LU saved by the Solve node given as input 1.
// Inputs (A, solve node, r). With w = A⁻ᵀ ȳ (resp. A⁻¹ ȳ):
//   y = A⁻¹ r:  r̄ = w,  Ā = −w yᵀ        y = A⁻ᵀ r:  r̄ = w,  Ā = −y wᵀ
class LuSolveWith final : public Op {
 public:
  explicit LuSolveWith(bool transposed) : transposed_(transposed) {}
  const char* name() const override { return "lu_solve_with"; }
  std::string attributes() const override { return transposed_ ? "Aᵀ" : "A"; }
  Shape infer_shape(std::span<const Shape> in) const override { return square_system_shape(*this, in, in[0], in[2]); }
  void forward(const ForwardArgs& a) override {
    const auto* solve = dynamic_cast<const Solve*>(a.in_ops[1]);
    DAGML_CHECK(solve != nullptr, "lu_solve_with needs a solve node as input 1");
    const ColMatrix r = *a.in[2];
    a.out = transposed_ ? ColMatrix(solve->lu().transpose().solve(r)) : ColMatrix(solve->lu().solve(r));
  }
  VarList vjp(const VjpArgs& a) const override {
    const Var w = with(a.in[0], a.in[1], a.g, !transposed_);
    const Var dA = transposed_ ? matmul(a.out, w, false, true) : matmul(w, a.out, false, true);
    return {neg(dA), Var{}, w};
  }
  // ẏ = A⁻¹ (ṙ − Ȧ y), resp. A⁻ᵀ (ṙ − Ȧᵀ y); the factor node's tangent does not enter (its value
  // is not read, and the factorization's dependence on A is input 0's).
  std::optional<Var> jvp(const JvpArgs& a) const override {
    if (!a.tangents[0] && !a.tangents[2]) return Var{};
    return tangent(a.in[0], a.in[1], a.out, a.tangents[0], a.tangents[2], transposed_);
  }
  // The tangent of y = op(A)⁻¹ r for q seeds (Ȧ q × n², ṙ q × size(r); either may be invalid):
  // the seeds' Ȧₛ y are one (q·n)×n by n×c product, and the q right-hand sides ṙₛ − Ȧₛ y go side
  // by side (n × q·c, transpose_blocks) into one solve with the kept LU.
  static Var tangent(Var A, Var factor, Var y, Var dA, Var dr, bool transposed) {
    const Index n = A.rows(), q = dA ? dA.rows() : dr.rows();
    Var rhs = dr;
    if (dA) {
      const Var op_dA = transposed ? detail::batched_transpose(dA, n, n) : dA;
      const Var product = reshape(matmul(reshape(op_dA, -1, n), y), q, -1);
      rhs = rhs ? rhs - product : neg(product);
    }
    return transpose_blocks(with(A, factor, transpose_blocks(rhs, n), transposed), q);
  }
  static Var with(Var A, Var factor, Var r, bool transposed) {
    static const auto plain = std::make_shared<LuSolveWith>(false);
    static const auto trans = std::make_shared<LuSolveWith>(true);
    return A.graph().apply(transposed ? trans : plain, {A, factor, r});
  }

 private:
  bool transposed_;
};

VarList Solve::vjp(const VjpArgs& a) const {
  const Var w = LuSolveWith::with(a.in[0], a.out, a.g, true);
  return {neg(matmul(w, a.out, false, true)), w};
}

// Y = A⁻¹ B:  Ẏ = A⁻¹ (Ḃ − Ȧ Y), with the LU kept by this node.
std::optional<Var> Solve::jvp(const JvpArgs& a) const {
  return LuSolveWith::tangent(a.in[0], a.out, a.out, a.tangents[0], a.tangents[1], false);
}

}  // namespace

Var solve(Var A, Var b) { return A.graph().apply(std::make_shared<Solve>(), {A, b}); }

}  // namespace dagml
