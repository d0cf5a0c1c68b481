// Eigen- and singular-value decompositions: reconstruction, ordering, sign convention, errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/SVD>

#include "autodiff/decompositions.h"
#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "graph/tensor.h"

namespace dagml {
namespace {

Tensor sample(Index r, Index c, double phase = 0.3) {
  Tensor t(r, c);
  for (Index i = 0; i < t.size(); ++i) t.data()[i] = std::sin(0.7 * static_cast<double>(i * i) + phase);
  return t;
}

void expect_sign_convention(const Tensor& vectors) {
  for (Index j = 0; j < vectors.cols(); ++j) {
    Index r = 0;
    vectors.col(j).cwiseAbs().maxCoeff(&r);
    EXPECT_GT(vectors(r, j), 0) << "column " << j;
  }
}

TEST(SymmetricEigen, ReconstructsAndOrdersAscending) {
  Graph g;
  const Tensor s = sample(5, 5);
  const Tensor a = s + s.transpose();
  const SymmetricEigen e = symmetric_eigen(g.input("A", a));
  const Tensor V = e.vectors.value(), L = e.values.value();
  EXPECT_TRUE((V * L.col(0).asDiagonal() * V.transpose()).isApprox(a, 1e-12));
  EXPECT_TRUE((V.transpose() * V).isApprox(Tensor::Identity(5, 5), 1e-12));
  for (Index i = 1; i < 5; ++i) EXPECT_LE(L(i - 1, 0), L(i, 0));
  expect_sign_convention(V);
}

TEST(SymmetricEigen, RepeatedEigenvaluesHaveNoVectorGradient) {
  Graph g;
  const Var A = g.parameter("A", Tensor::Identity(3, 3));
  const SymmetricEigen e = symmetric_eigen(A);  // the forward pass is fine
  EXPECT_TRUE(e.values.value().isApprox(Tensor::Ones(3, 1)));
  EXPECT_THAT([&] { gradient(sum(e.vectors), A); },
              ::testing::ThrowsMessage<NumericalError>(::testing::HasSubstr("repeated eigen- or singular values")));
  // The eigenvalues alone are differentiable even when repeated: ∂(Σλ)/∂A = I.
  EXPECT_TRUE(gradient(sum(e.values), A).value().isApprox(Tensor::Identity(3, 3)));
}

TEST(ThinSvd, ReconstructsTallAndWideMatrices) {
  for (const auto& [m, n] : {std::pair<Index, Index>{6, 3}, {3, 6}, {4, 4}}) {
    Graph g;
    const Tensor a = sample(m, n, 0.1 * static_cast<double>(m));
    const ThinSvd d = thin_svd(g.input("A", a));
    const Tensor U = d.u.value(), s = d.s.value(), V = d.v.value();
    EXPECT_TRUE((U * s.col(0).asDiagonal() * V.transpose()).isApprox(a, 1e-12));
    const Eigen::JacobiSVD<Eigen::MatrixXd> reference{Eigen::MatrixXd(a)};
    EXPECT_TRUE(Tensor(reference.singularValues()).isApprox(s, 1e-12));
    expect_sign_convention(U);
  }
}

}  // namespace
}  // namespace dagml
