#include "models/cluster/gaussian_mixture_graph.h"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <numbers>
#include <vector>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "autodiff/softmax.h"
#include "autodiff/structure.h"
#include "graph/error.h"

namespace dagml {

Var gaussian_mixture_log_likelihood(Var X, Var logits, Var means, Var precision_factors) {
  const Index K = means.rows(), d = means.cols();
  if (X.cols() != d || logits.rows() != 1 || logits.cols() != K || precision_factors.rows() != K * d ||
      precision_factors.cols() != d)
    throw ShapeError(fmt::format("gaussian_mixture_log_likelihood: expected X n×d, logits 1×K, means K×d and "
                                 "precision factors (K·d)×d, found {}×{}, {}×{}, {}×{} and {}×{}",
                                 X.rows(), X.cols(), logits.rows(), logits.cols(), means.rows(), means.cols(),
                                 precision_factors.rows(), precision_factors.cols()));
  Graph& g = X.graph();
  const Var strict_upper = g.constant(Tensor(Tensor::Ones(d, d).triangularView<Eigen::StrictlyUpper>()));
  const Scalar constant = -0.5 * static_cast<Scalar>(d) * std::log(2 * std::numbers::pi);
  std::vector<Var> log_densities;  // n×1 each
  for (Index k = 0; k < K; ++k) {
    const Var R = slice_rows(precision_factors, k * d, d);
    const Var log_diagonal = diag_part(R);  // d×1
    const Var P = R * strict_upper + diag(exp(log_diagonal));
    const Var Y = matmul(X - slice_rows(means, k, 1), P);  // (x − μ_k) P_k, n×d
    log_densities.push_back((constant + sum(log_diagonal)) - 0.5 * row_sums(square(Y)));
  }
  return mean(row_logsumexp(concat_cols(log_densities) + log_softmax(logits)));
}

MixtureGraphParameters mixture_graph_parameters(const Vector& weights, const Tensor& means, const Tensor& covariances) {
  const Index K = means.rows(), d = means.cols();
  MixtureGraphParameters p{Tensor(weights.array().log().transpose()), means, Tensor(K * d, d)};
  for (Index k = 0; k < K; ++k) {
    // P = L⁻ᵀ for Σ = L Lᵀ: P Pᵀ = (L Lᵀ)⁻¹, P upper triangular with a positive diagonal.
    const Eigen::MatrixXd L = Eigen::LLT<Eigen::MatrixXd>(Eigen::MatrixXd(covariances.middleRows(k * d, d))).matrixL();
    Eigen::MatrixXd P = L.transpose().triangularView<Eigen::Upper>().solve(Eigen::MatrixXd::Identity(d, d));
    P.diagonal() = P.diagonal().array().log();
    p.precision_factors.middleRows(k * d, d) = P;
  }
  return p;
}

Tensor covariances_from_precision_factors(const Tensor& R) {
  const Index d = R.cols(), K = R.rows() / d;
  Tensor covariances(K * d, d);
  for (Index k = 0; k < K; ++k) {
    Eigen::MatrixXd P = Eigen::MatrixXd(R.middleRows(k * d, d)).triangularView<Eigen::StrictlyUpper>();
    P.diagonal() = R.middleRows(k * d, d).diagonal().array().exp();
    const Eigen::MatrixXd precision = P * P.transpose();
    covariances.middleRows(k * d, d) = precision.inverse();
  }
  return covariances;
}

}  // namespace dagml
