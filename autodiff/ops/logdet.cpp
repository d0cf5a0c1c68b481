#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/ops/cholesky_factor.h"
#include "autodiff/solvers.h"

namespace dagml {
namespace {

// y = log det A = 2 Σ log Lᵢᵢ with A = L Lᵀ:  Ā = ȳ A⁻¹ (symmetric), A⁻¹ by the kept factor.
class LogDet final : public detail::CholeskyFactorOp {
 public:
  const char* name() const override { return "logdet"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].rows != in[0].cols) shape_error(*this, in, "the matrix must be square");
    return {1, 1};
  }
  void forward(const ForwardArgs& a) override {
    factorize(*a.in[0]);
    a.out(0, 0) = cholesky().log_determinant();
  }
  VarList vjp(const VjpArgs& a) const override {
    const Var inverse = detail::cholesky_inverse_with(a.in[0], a.out);
    return {a.g * inverse};
  }
  // ẏ = tr(A⁻¹ Ȧ) = ⟨A⁻¹, Ȧ⟩ (A⁻¹ symmetric): A⁻¹ once by the kept factor, then one
  // matrix–vector product of the q seeds with it as a row.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var inverse = detail::cholesky_inverse_with(a.in[0], a.out);
    return matmul(a.tangents[0], detail::as_row(inverse), false, true);
  }
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override { return std::make_shared<LogDet>(*this); }
};

}  // namespace

Var logdet(Var A) { return A.graph().apply(std::make_shared<LogDet>(), {A}); }

}  // namespace dagml
