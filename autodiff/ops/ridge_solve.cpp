#include <fmt/format.h>

#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/ops/cholesky_factor.h"
#include "autodiff/reduce.h"
#include "autodiff/solvers.h"
#include "autodiff/structure.h"

namespace dagml {
namespace {

// w = (XᵀX + λD)⁻¹ Xᵀ y (primal) or Xᵀ (XXᵀ + λI)⁻¹ y (dual). Forward keeps the Cholesky factor
// of the system matrix; the VJP rebuilds that matrix as graph nodes (so that second derivatives
// see its dependence on X and λ) and solves with the kept factor.
class RidgeSolve final : public detail::CholeskyFactorOp {
 public:
  RidgeSolve(Index unpenalized, bool dual) : unpenalized_(unpenalized), dual_(dual) {}
  const char* name() const override { return "ridge_solve"; }
  std::string attributes() const override {
    return fmt::format("{}{}", dual_ ? "dual" : "primal",
                       unpenalized_ >= 0 ? fmt::format(", column {} unpenalized", unpenalized_) : "");
  }
  Shape infer_shape(std::span<const Shape> in) const override {
    const Shape X = in[0], y = in[1];
    if (y.rows != X.rows) shape_error(*this, in, "X and y need one row per sample");
    if (in[2] != Shape{1, 1}) shape_error(*this, in, "λ must be 1×1");
    if (unpenalized_ >= X.cols) shape_error(*this, in, fmt::format("the unpenalized column {} is not a column of X", unpenalized_));
    return {X.cols, y.cols};
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& X = *a.in[0];
    const Tensor& y = *a.in[1];
    const Scalar lambda = (*a.in[2])(0, 0);
    if (!(lambda >= 0)) throw ValueError(fmt::format("ridge_solve: λ must be ≥ 0, found {}", lambda));
    if (dual_) {
      Eigen::MatrixXd K = X * X.transpose();
      K.diagonal().array() += lambda;
      factorize_lower(K);
      a.out.noalias() = X.transpose() * cholesky().solve(y);
    } else {
      Eigen::MatrixXd M = X.transpose() * X;
      M.diagonal().array() += lambda;
      if (unpenalized_ >= 0) M(unpenalized_, unpenalized_) -= lambda;
      factorize_lower(M);
      a.out = cholesky().solve(X.transpose() * y);
    }
  }
  VarList vjp(const VjpArgs& a) const override {
    const Var X = a.in[0], y = a.in[1], lambda = a.in[2], w = a.out, g = a.g;
    Graph& graph = g.graph();
    if (dual_) {
      const Var K = matmul(X, X, false, true) + identity(graph, X.rows()) * lambda;
      const Var dual_coef = detail::cholesky_solve_with(K, w, y);
      const Var u = detail::cholesky_solve_with(K, w, matmul(X, g));
      const Var ua = matmul(u, dual_coef, false, true);
      return {matmul(dual_coef, g, false, true) - matmul(ua + transpose(ua), X), u, neg(sum(u * dual_coef))};
    }
    Tensor d = Tensor::Identity(X.cols(), X.cols());
    if (unpenalized_ >= 0) d(unpenalized_, unpenalized_) = 0;
    const Var D = graph.constant(d, "ridge penalty pattern");
    const Var M = matmul(X, X, true, false) + D * lambda;
    const Var z = detail::cholesky_solve_with(M, w, g);
    const Var zw = matmul(z, w, false, true);
    return {matmul(y, z, false, true) - matmul(X, zw + transpose(zw)), matmul(X, z), neg(sum(z * matmul(D, w)))};
  }
  // The transpose of the VJP above, from the normal equations. Primal, M w = Xᵀ y with
  // M = XᵀX + λD and r = y − X w:
  //   ẇ = M⁻¹ (Ẋᵀ r + Xᵀ (ẏ − Ẋ w) − λ̇ D w).
  // Dual, w = Xᵀ a with K a = y, K = XXᵀ + λI:
  //   ȧ = K⁻¹ (ẏ − Ẋ w − X Ẋᵀ a − λ̇ a),   ẇ = Ẋᵀ a + Xᵀ ȧ.
  // For q seeds: Ẋₛ w and Ẋₛᵀ r (Ẋₛᵀ a) are one stacked product each (Ẋₛᵀ by batched_transpose),
  // the products by X or Xᵀ take the seeds side by side (transpose_blocks), and the q right-hand
  // sides are one solve with the kept factor (the system matrix rebuilt as a node, as in the VJP).
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var X = a.in[0], y = a.in[1], lambda = a.in[2], w = a.out;
    const Var dX = a.tangents[0], dy = a.tangents[1], dl = a.tangents[2];
    const Index n = X.rows(), d = X.cols(), q = dX ? dX.rows() : dy ? dy.rows() : dl.rows();
    Graph& graph = w.graph();
    // Ẋₛᵀ v for an n × k node v, in the batched layout (q × d·k).
    auto dXt_times = [&](Var v) {
      return reshape(matmul(reshape(detail::batched_transpose(dX, n, d), -1, n), v), q, -1);
    };
    Var e = dy;  // q × (n·k): ẏ − Ẋ w
    if (dX) {
      const Var dX_w = reshape(matmul(reshape(dX, -1, d), w), q, -1);
      e = e ? e - dX_w : neg(dX_w);
    }
    if (dual_) {
      const Var K = matmul(X, X, false, true) + identity(graph, n) * lambda;
      const Var dual_coef = detail::cholesky_solve_with(K, w, y);
      if (dl) {
        const Var dl_a = dl * detail::as_row(dual_coef);
        e = e ? e - dl_a : neg(dl_a);
      }
      Var rhs = transpose_blocks(e, n);  // n × (q·k)
      Var dX_a;
      if (dX) {
        dX_a = dXt_times(dual_coef);  // q × (d·k)
        rhs = rhs - matmul(X, transpose_blocks(dX_a, d));
      }
      const Var dw = transpose_blocks(matmul(X, detail::cholesky_solve_with(K, w, rhs), true, false), q);
      return dX_a ? dw + dX_a : dw;
    }
    Tensor d_pattern = Tensor::Identity(d, d);
    if (unpenalized_ >= 0) d_pattern(unpenalized_, unpenalized_) = 0;
    const Var D = graph.constant(d_pattern, "ridge penalty pattern");
    const Var M = matmul(X, X, true, false) + D * lambda;
    Var per_seed;  // q × (d·k): Ẋᵀ r − λ̇ D w
    if (dX) per_seed = dXt_times(y - matmul(X, w));
    if (dl) {
      const Var dl_dw = dl * detail::as_row(matmul(D, w));
      per_seed = per_seed ? per_seed - dl_dw : neg(dl_dw);
    }
    Var rhs = e ? matmul(X, transpose_blocks(e, n), true, false) : Var{};  // d × (q·k)
    if (per_seed) rhs = rhs ? rhs + transpose_blocks(per_seed, d) : transpose_blocks(per_seed, d);
    return transpose_blocks(detail::cholesky_solve_with(M, w, rhs), q);
  }
  std::shared_ptr<Op> clone(const std::shared_ptr<Op>&) const override { return std::make_shared<RidgeSolve>(*this); }

 private:
  Index unpenalized_;
  bool dual_;
};

}  // namespace

Var ridge_solve(Var X, Var y, Var lambda, const RidgeSolveOptions& options) {
  const bool dual = options.form == RidgeSolveOptions::Form::Dual ||
                    (options.form == RidgeSolveOptions::Form::Automatic && X.rows() < X.cols() && options.unpenalized_column < 0);
  if (dual && options.unpenalized_column >= 0)
    throw ValueError("ridge_solve: the dual form penalizes every column; use the primal form with an unpenalized column");
  return X.graph().apply(std::make_shared<RidgeSolve>(options.unpenalized_column, dual), {X, y, lambda});
}

}  // namespace dagml
