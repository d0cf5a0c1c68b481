#include "autodiff/batched.h"
#include "autodiff/blocked_cholesky.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/ops/cholesky_factor.h"
#include "autodiff/solvers.h"
#include "autodiff/structure.h"

namespace dagml {
namespace detail {
namespace {

// A symmetric, y = A⁻¹ r with w = A⁻¹ ȳ:  r̄ = w,  Ā = −½ (w yᵀ + y wᵀ)   (symmetrised, since only
// symmetric perturbations of A keep it symmetric).
VarList spd_solve_vjp(Var A, Var factor, Var y, Var g) {
  const Var w = cholesky_solve_with(A, factor, g);
  const Var wy = matmul(w, y, false, true);
  return {scale(wy + transpose(wy), -0.5), w};
}

// The forward rule, the transpose of that VJP: ẏ = A⁻¹ (ṙ − sym(Ȧ) y), sym(Ȧ) = ½ (Ȧ + Ȧᵀ). For q
// seeds the sym(Ȧₛ) y are one (q·n)×n by n×c product, and the q right-hand sides go side by side
// (n × q·c, transpose_blocks) into one solve with the kept factor. dA or dr may be invalid (zero).
Var spd_solve_jvp(Var A, Var factor, Var y, Var dA, Var dr) {
  const Index n = A.rows(), q = dA ? dA.rows() : dr.rows();
  Var rhs = dr;
  if (dA) {
    const Var sym = scale(dA + batched_transpose(dA, n, n), 0.5);
    const Var product = reshape(matmul(reshape(sym, -1, n), y), q, -1);
    rhs = rhs ? rhs - product : neg(product);
  }
  return transpose_blocks(cholesky_solve_with(A, factor, transpose_blocks(rhs, n)), q);
}

// x = A⁻¹ b by Cholesky, keeping the factor.
class CholeskySolve final : public CholeskyFactorOp {
 public:
  const char* name() const override { return "cholesky_solve"; }
  Shape infer_shape(std::span<const Shape> in) const override { return spd_system_shape(*this, in, in[0], in[1]); }
  void forward(const ForwardArgs& a) override {
    factorize(*a.in[0]);
    a.out = cholesky().solve(*a.in[1]);
  }
  VarList vjp(const VjpArgs& a) const override { return spd_solve_vjp(a.in[0], a.out, a.out, a.g); }
  std::optional<Var> jvp(const JvpArgs& a) const override {
    return spd_solve_jvp(a.in[0], a.out, a.out, a.tangents[0], a.tangents[1]);
  }
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override { return std::make_shared<CholeskySolve>(*this); }
};

// y = A⁻¹ r with the factor kept by input 1. Inputs (A, factor node, r).
class CholeskySolveWith final : public Op {
 public:
  const char* name() const override { return "cholesky_solve_with"; }
  Shape infer_shape(std::span<const Shape> in) const override { return spd_system_shape(*this, in, in[0], in[2]); }
  void forward(const ForwardArgs& a) override {
    const auto* factor = dynamic_cast<const CholeskyFactorOp*>(a.in_ops[1]);
    DAGML_CHECK(factor != nullptr, "cholesky_solve_with needs a Cholesky-factored node as input 1");
    a.out = factor->cholesky().solve(*a.in[2]);
  }
  VarList vjp(const VjpArgs& a) const override {
    const VarList g = spd_solve_vjp(a.in[0], a.in[1], a.out, a.g);
    return {g[0], Var{}, g[1]};
  }
  // The factor node's tangent does not enter: its value is not read.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    if (!a.tangents[0] && !a.tangents[2]) return Var{};
    return spd_solve_jvp(a.in[0], a.in[1], a.out, a.tangents[0], a.tangents[2]);
  }
};

// Y = A⁻¹ with the factor kept by input 1 (inverse_from_cholesky). Inputs (A, factor node). For a
// symmetric A: Ā = −½ Y (Ȳ + Ȳᵀ) Y, and Ẏ = −Y sym(Ȧ) Y, for q seeds as in spd_solve_jvp: the
// products S_s Y stacked, each transposed (Y S_s), times Y.
class CholeskyInverseWith final : public Op {
 public:
  const char* name() const override { return "cholesky_inverse_with"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].rows != in[0].cols) shape_error(*this, in, "the matrix must be square");
    return in[0];
  }
  // The inverse and L⁻¹ are computed in buffers kept by the node (one op per node: the state
  // makes it unshareable), so a replay allocates nothing: at n = 500 fresh n×n buffers made the
  // page faults of this op 59 % of a GP fit's.
  void forward(const ForwardArgs& a) override {
    const auto* factor = dynamic_cast<const CholeskyFactorOp*>(a.in_ops[1]);
    DAGML_CHECK(factor != nullptr, "cholesky_inverse_with needs a Cholesky-factored node as input 1");
    inverse_from_cholesky(factor->cholesky().factor(), L_inverse_, inverse_);
    a.out = inverse_;  // symmetric: the same values in a.out's row-major storage
  }
  VarList vjp(const VjpArgs& a) const override {
    return {scale(matmul(matmul(a.out, a.g + transpose(a.g)), a.out), -0.5), Var{}};
  }
  std::optional<Var> jvp(const JvpArgs& a) const override {
    if (!a.tangents[0]) return Var{};
    const Index n = a.out.rows(), q = a.tangents[0].rows();
    const Var sym = scale(a.tangents[0] + batched_transpose(a.tangents[0], n, n), 0.5);
    const Var product = reshape(matmul(reshape(sym, -1, n), a.out), q, -1);  // S_s Y
    return neg(reshape(matmul(reshape(batched_transpose(product, n, n), -1, n), a.out), q, -1));
  }
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override {
    return std::make_shared<CholeskyInverseWith>();
  }

 private:
  Eigen::MatrixXd L_inverse_, inverse_;
};

}  // namespace

Var cholesky_solve_with(Var A, Var factor, Var r) {
  static const auto op = std::make_shared<CholeskySolveWith>();
  return A.graph().apply(op, {A, factor, r});
}

Var cholesky_inverse_with(Var A, Var factor) {
  return A.graph().apply(std::make_shared<CholeskyInverseWith>(), {A, factor});
}

}  // namespace detail

Var cholesky_solve(Var A, Var b) { return A.graph().apply(std::make_shared<detail::CholeskySolve>(), {A, b}); }

}  // namespace dagml
