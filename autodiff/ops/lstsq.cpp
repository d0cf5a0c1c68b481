#include <Eigen/QR>
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

// x = argmin ‖A x − b‖² = R⁻¹ Qᵀ b with A = QR. Forward keeps the QR factorization.
class Lstsq final : public Op {
 public:
  const char* name() const override { return "lstsq"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].rows < in[0].cols) shape_error(*this, in, "expected at least as many rows as columns");
    if (in[1].rows != in[0].rows) shape_error(*this, in, "the right-hand side needs as many rows as the matrix");
    return {in[0].cols, in[1].cols};
  }
  void forward(const ForwardArgs& a) override {
    qr_.compute(ColMatrix(*a.in[0]));
    const auto r_diag = qr_.matrixQR().diagonal().cwiseAbs();
    const Scalar tol = std::numeric_limits<Scalar>::epsilon() * static_cast<Scalar>(a.in[0]->rows()) *
                       std::max<Scalar>(r_diag.size() ? r_diag.maxCoeff() : 0, 1e-300);
    if (r_diag.size() && r_diag.minCoeff() <= tol)
      throw NumericalError(fmt::format("lstsq: the {}×{} matrix does not have full column rank", a.in[0]->rows(),
                                       a.in[0]->cols()));
    a.out = qr_.solve(ColMatrix(*a.in[1]));
  }
  VarList vjp(const VjpArgs& a) const override;
  std::optional<Var> jvp(const JvpArgs& a) const override;
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override { return std::make_shared<Lstsq>(*this); }

  // (AᵀA)⁻¹ r = R⁻¹ R⁻ᵀ r.
  ColMatrix normal_solve(const ColMatrix& r) const {
    const Index n = qr_.matrixQR().cols();
    const auto R = qr_.matrixQR().topLeftCorner(n, n).triangularView<Eigen::Upper>();
    return R.solve(R.transpose().solve(r));
  }

 private:
  Eigen::HouseholderQR<ColMatrix> qr_;
};

// z = (AᵀA)⁻¹ r with the QR kept by the lstsq node given as input 1. Inputs (A, lstsq node, r).
// With M = AᵀA and w = M⁻¹ z̄:  r̄ = w,  M̄ = −½(w zᵀ + z wᵀ),  Ā = 2 A M̄ = −A (w zᵀ + z wᵀ).
class NormalSolveWith final : public Op {
 public:
  const char* name() const override { return "normal_solve_with"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[2].rows != in[0].cols) shape_error(*this, in, "the right-hand side needs one row per column of A");
    return in[2];
  }
  void forward(const ForwardArgs& a) override {
    const auto* lstsq = dynamic_cast<const Lstsq*>(a.in_ops[1]);
    DAGML_CHECK(lstsq != nullptr, "normal_solve_with needs a lstsq node as input 1");
    a.out = lstsq->normal_solve(ColMatrix(*a.in[2]));
  }
  VarList vjp(const VjpArgs& a) const override {
    const Var w = with(a.in[0], a.in[1], a.g);
    const Var wz = matmul(w, a.out, false, true);
    return {neg(matmul(a.in[0], wz + transpose(wz))), Var{}, w};
  }
  // ż = M⁻¹ (ṙ − Ṁ z), Ṁ z = Ȧᵀ (A z) + Aᵀ (Ȧ z); the factor node's tangent does not enter. For q
  // seeds: Ȧₛ z and Ȧₛᵀ (A z) are one stacked product each, Aᵀ · one product with the seeds side
  // by side, and the q right-hand sides one normal solve with the kept QR.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var A = a.in[0], z = a.out, dA = a.tangents[0], dr = a.tangents[2];
    if (!dA && !dr) return Var{};
    const Index m = A.rows(), n = A.cols(), q = dA ? dA.rows() : dr.rows();
    Var rhs = dr ? transpose_blocks(dr, n) : Var{};  // n × (q·c)
    if (dA) {
      const Var a_dz = transpose_blocks(reshape(matmul(reshape(dA, -1, n), z), q, -1), m);   // m × (q·c): Ȧₛ z
      const Var dat_az = reshape(matmul(reshape(detail::batched_transpose(dA, m, n), -1, m), matmul(A, z)), q, -1);
      const Var m_dot_z = transpose_blocks(dat_az, n) + matmul(A, a_dz, true, false);       // n × (q·c): Ṁₛ z
      rhs = rhs ? rhs - m_dot_z : neg(m_dot_z);
    }
    return transpose_blocks(with(A, a.in[1], rhs), q);
  }
  static Var with(Var A, Var factor, Var r) {
    static const auto op = std::make_shared<NormalSolveWith>();
    return A.graph().apply(op, {A, factor, r});
  }
};

// With z = (AᵀA)⁻¹ x̄ and r = b − A x:  b̄ = A z,  Ā = r zᵀ − b̄ xᵀ.
VarList Lstsq::vjp(const VjpArgs& a) const {
  const Var A = a.in[0], b = a.in[1], x = a.out;
  const Var z = NormalSolveWith::with(A, x, a.g);
  const Var b_bar = matmul(A, z);
  const Var residual = b - matmul(A, x);
  return {matmul(residual, z, false, true) - matmul(b_bar, x, false, true), b_bar};
}

// From AᵀA x = Aᵀ b, with r = b − A x:
//   ẋ = (AᵀA)⁻¹ (Ȧᵀ r + Aᵀ (ḃ − Ȧ x)),
// the transpose of the VJP above. For q seeds: Ȧₛ x and Ȧₛᵀ r are one stacked product each
// (Ȧₛᵀ by batched_transpose), Aᵀ · one product with the seeds side by side (m × q·k,
// transpose_blocks), and the q right-hand sides one normal solve with the kept QR.
std::optional<Var> Lstsq::jvp(const JvpArgs& a) const {
  const Var A = a.in[0], b = a.in[1], x = a.out, dA = a.tangents[0], db = a.tangents[1];
  const Index m = A.rows(), n = A.cols(), q = dA ? dA.rows() : db.rows();
  Var e = db;  // q × (m·k): ḃ − Ȧ x
  if (dA) {
    const Var dA_x = reshape(matmul(reshape(dA, -1, n), x), q, -1);
    e = e ? e - dA_x : neg(dA_x);
  }
  Var rhs = matmul(A, transpose_blocks(e, m), true, false);  // n × (q·k)
  if (dA) {
    const Var residual = b - matmul(A, x);
    const Var dat_r = reshape(matmul(reshape(detail::batched_transpose(dA, m, n), -1, m), residual), q, -1);
    rhs = rhs + transpose_blocks(dat_r, n);
  }
  return transpose_blocks(NormalSolveWith::with(A, x, rhs), q);
}

}  // namespace

Var lstsq(Var A, Var b) { return A.graph().apply(std::make_shared<Lstsq>(), {A, b}); }

}  // namespace dagml
