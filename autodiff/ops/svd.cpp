#include <Eigen/SVD>

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
};

}  // namespace

ThinSvd thin_svd(Var A) {
  static const auto op = std::make_shared<ThinSvdOp>();
  const Var packed = A.graph().apply(op, {A});
  const Index m = A.rows(), n = A.cols();
  return {slice_rows(packed, 0, m), transpose(slice_rows(packed, m, 1)), slice_rows(packed, m + 1, n)};
}

}  // namespace dagml
