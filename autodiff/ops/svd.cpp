#include <Eigen/SVD>

#include "autodiff/batched.h"
#include "autodiff/decompositions.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/structure.h"
#include "graph/graph.h"

namespace dagml {
namespace {

// P = [U; sᵀ; V], (m + 1 + n)×k: A = U diag(s) Vᵀ, s descending, each column of U with its
// largest-magnitude entry positive (V's columns flip with U's). Backward: see decompositions.h.
class ThinSvdOp final : public Op {
 public:
  const char* name() const override { return "svd"; }
  Shape infer_shape(std::span<const Shape> in) const override {
    if (in[0].size() == 0) shape_error(*this, in, "the SVD of an empty matrix is undefined");
    return {in[0].rows + 1 + in[0].cols, std::min(in[0].rows, in[0].cols)};
  }
  void forward(const ForwardArgs& a) override {
    const Index m = a.in[0]->rows(), n = a.in[0]->cols();
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(Eigen::MatrixXd(*a.in[0]), Eigen::ComputeThinU | Eigen::ComputeThinV);
    Eigen::MatrixXd u = svd.matrixU(), v = svd.matrixV();
    const Eigen::VectorXd signs = sign_convention(u);
    u *= signs.asDiagonal();
    v *= signs.asDiagonal();
    a.out.topRows(m) = u;
    a.out.row(m) = svd.singularValues().transpose();
    a.out.bottomRows(n) = v;
  }
  VarList vjp(const VjpArgs& a) const override {
    const Var A = a.in[0];
    const Index m = A.rows(), n = A.cols(), k = std::min(m, n);
    const Var U = slice_rows(a.out, 0, m), s = transpose(slice_rows(a.out, m, 1)), V = slice_rows(a.out, m + 1, n);
    const Var Ub = slice_rows(a.g, 0, m), sb = transpose(slice_rows(a.g, m, 1)), Vb = slice_rows(a.g, m + 1, n);
    const Var s2 = square(s);
    const Var S = diag(s), S_inv = diag(1.0 / s);
    const Var utub = matmul(U, Ub, true, false), vtvb = matmul(V, Vb, true, false);
    const Var J = inverse_gap_product(s2, utub - transpose(utub));
    const Var K = inverse_gap_product(s2, vtvb - transpose(vtvb));
    const Var core = matmul(J, S) + diag(sb) + matmul(S, K);
    Var grad = matmul(matmul(U, core), V, false, true);
    if (m > k)  // (I − UUᵀ) Ū S⁻¹ Vᵀ
      grad = grad + matmul(matmul(Ub - matmul(U, utub), S_inv), V, false, true);
    if (n > k)  // U S⁻¹ V̄ᵀ (I − VVᵀ)
      grad = grad + matmul(matmul(U, S_inv), Vb - matmul(V, vtvb), false, true);
    return {grad};
  }
  // The transpose of the VJP above. With dP = Uᵀ Ȧ V (k×k) per seed and Fᵢⱼ = 1/(sⱼ² − sᵢ²):
  //   ṡ = diag(dP),
  //   U̇ = U (F ⊙ (dP S + S dPᵀ)) + (I − UUᵀ) Ȧ V S⁻¹        (the second term only when m > k),
  //   V̇ = V (F ⊙ (S dP + dPᵀ S)) + (I − VVᵀ) Ȧᵀ U S⁻¹       (only when n > k).
  // For q seeds: Ȧₛ V is one (q·m)×n by n×k product and Ȧₛᵀ U one (q·n)×m by m×k product (each
  // seed's Ȧₛ transposed by batched_transpose); the products by Uᵀ, U, Vᵀ and V take the seeds
  // side by side (m × q·k …, transpose_blocks); dP S and S dP scale each seed block's columns or
  // rows by s (a row broadcast over the seeds), and F ⊙ · is the blocks form of
  // inverse_gap_product. The tangent rows are P's layout: [U̇ₛ; ṡₛᵀ; V̇ₛ] flattened.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Var t = a.tangents[0];
    const Index m = a.in[0].rows(), n = a.in[0].cols(), k = std::min(m, n), q = t.rows();
    const Var U = slice_rows(a.out, 0, m), s_row = slice_rows(a.out, m, 1), V = slice_rows(a.out, m + 1, n);
    const Var s_cols = detail::batched_tile(s_row, k);              // 1 × k², entry (i, j): sⱼ
    const Var s_rows = detail::batched_repeat_entries(s_row, k);    // 1 × k², entry (i, j): sᵢ
    const Var inv_side = detail::batched_tile(1.0 / s_row, q);      // 1 × (q·k): 1/sⱼ per seed block
    // Ȧₛ V and Ȧₛᵀ U with the seeds side by side, and dP, dPᵀ per seed.
    const Var av = transpose_blocks(reshape(matmul(reshape(t, -1, n), V), q, -1), m);   // m × (q·k)
    const Var dp_side = matmul(U, av, true, false);                                      // k × (q·k)
    const Var dp = transpose_blocks(dp_side, q);                                         // q × k²
    const Var dpt = detail::batched_transpose(dp, k, k);
    const Var s_dot = detail::batched_row_sums(dp * detail::as_row(identity(a.out.graph(), k)), k);  // q × k
    const Var omega_u = detail::inverse_gap_product_blocks(square(transpose(s_row)), dp * s_cols + dpt * s_rows);
    const Var omega_v = detail::inverse_gap_product_blocks(square(transpose(s_row)), dp * s_rows + dpt * s_cols);
    Var u_core = transpose_blocks(omega_u, k);  // k × (q·k)
    Var u_side;
    if (m > k) {  // U (Ω_U − Uᵀ Ȧ V S⁻¹) + Ȧ V S⁻¹
      u_core = u_core - dp_side * inv_side;
      u_side = matmul(U, u_core) + av * inv_side;
    } else {
      u_side = matmul(U, u_core);
    }
    Var v_core = transpose_blocks(omega_v, k);
    Var v_side;
    if (n > k) {  // V (Ω_V − Vᵀ Ȧᵀ U S⁻¹) + Ȧᵀ U S⁻¹
      const Var atu = transpose_blocks(
          reshape(matmul(reshape(detail::batched_transpose(t, m, n), -1, m), U), q, -1), n);  // n × (q·k)
      v_core = v_core - matmul(V, atu, true, false) * inv_side;
      v_side = matmul(V, v_core) + atu * inv_side;
    } else {
      v_side = matmul(V, v_core);
    }
    return concat_cols({transpose_blocks(u_side, q), s_dot, transpose_blocks(v_side, q)});
  }
};

}  // namespace

ThinSvd thin_svd(Var A) {
  static const auto op = std::make_shared<ThinSvdOp>();
  const Var packed = A.graph().apply(op, {A});
  const Index m = A.rows(), n = A.cols();
  return {slice_rows(packed, 0, m), transpose(slice_rows(packed, m, 1)), slice_rows(packed, m + 1, n)};
}

}  // namespace dagml
