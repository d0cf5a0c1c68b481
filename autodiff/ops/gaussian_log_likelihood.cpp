#include <cmath>
#include <numbers>

#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/ops/cholesky_factor.h"
#include "autodiff/solvers.h"

namespace dagml {
namespace {

// ℓ = log N(Y; 0, K) summed over the m columns of Y (n×m), with one Cholesky factorisation K = LLᵀ:
//   ℓ = −½ tr(Yᵀ K⁻¹ Y) − (m/2) log det K − (nm/2) log 2π.
// With A = K⁻¹Y (kept factor):  K̄ = ½ ℓ̄ (A Aᵀ − m K⁻¹),  Ȳ = −ℓ̄ A.
// Forward rule: ℓ̇ = ⟨½(AAᵀ − m K⁻¹), K̇⟩ − ⟨A, Ẏ⟩ (K⁻¹ symmetric).
class GaussianLogLikelihood final : public detail::CholeskyFactorOp {
 public:
  const char* name() const override { return "gaussian_log_likelihood"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    detail::spd_system_shape(*this, in, in[0], in[1]);
    return {1, 1};
  }
  void forward(const ForwardArgs& a) override {
    factorize(*a.in[0]);
    const Tensor& Y = *a.in[1];
    Eigen::MatrixXd half_solved = Y;  // L⁻¹Y
    cholesky().solve_lower_in_place(half_solved);
    const Scalar n = static_cast<Scalar>(Y.rows()), m = static_cast<Scalar>(Y.cols());
    const Scalar logdet = cholesky().log_determinant();
    a.out(0, 0) = -0.5 * half_solved.squaredNorm() - 0.5 * m * logdet - 0.5 * n * m * std::log(2 * std::numbers::pi);
  }
  VarList vjp(const VjpArgs& a) const override {
    const Var A = solved(a.in[0], a.in[1], a.out);
    return {a.g * adjoint_of_matrix(a.in[0], a.in[1], a.out, A), neg(a.g * A)};
  }
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var A = solved(a.in[0], a.in[1], a.out);
    Var tangent;
    if (a.tangents[0])
      tangent = matmul(a.tangents[0], detail::as_row(adjoint_of_matrix(a.in[0], a.in[1], a.out, A)), false, true);
    if (a.tangents[1]) {
      const Var from_y = neg(matmul(a.tangents[1], detail::as_row(A), false, true));
      tangent = tangent ? tangent + from_y : from_y;
    }
    return tangent;
  }
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override {
    return std::make_shared<GaussianLogLikelihood>(*this);
  }

 private:
  // A = K⁻¹Y by the factor kept in `self` (this op's node).
  static Var solved(Var K, Var Y, Var self) { return detail::cholesky_solve_with(K, self, Y); }
  // ∂ℓ/∂K = ½ (A Aᵀ − m K⁻¹).
  static Var adjoint_of_matrix(Var K, Var Y, Var self, Var A) {
    const Var inverse = detail::cholesky_inverse_with(K, self);
    return scale(matmul(A, A, false, true) - inverse * static_cast<Scalar>(Y.cols()), 0.5);
  }
};

}  // namespace

Var gaussian_log_likelihood(Var K, Var Y) {
  return K.graph().apply(std::make_shared<GaussianLogLikelihood>(), {K, Y});
}

}  // namespace dagml
