#include "models/classify/class_scores.h"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <cmath>

#include "graph/error.h"

namespace dagml {

ClassStatistics class_statistics(const Tensor& X, const Vector& y, Index num_classes) {
  ClassStatistics s{Vector::Zero(num_classes), Tensor::Zero(num_classes, X.cols()),
                    Tensor::Zero(num_classes, X.cols())};
  for (Index i = 0; i < X.rows(); ++i) {
    const auto k = static_cast<Index>(y(i));
    s.counts(k) += 1;
    s.sums.row(k) += X.row(i);
  }
  for (Index k = 0; k < num_classes; ++k) {
    if (s.counts(k) > 0) s.means.row(k) = s.sums.row(k) / s.counts(k);
  }
  return s;
}

std::vector<Tensor> class_scatter_matrices(const Tensor& X, const Vector& y, const Tensor& means) {
  const Index K = means.rows(), d = X.cols();
  std::vector<std::vector<Index>> rows(static_cast<size_t>(K));
  for (Index i = 0; i < X.rows(); ++i) rows[static_cast<size_t>(y(i))].push_back(i);
  std::vector<Tensor> G;
  for (Index k = 0; k < K; ++k) {
    const auto& r = rows[static_cast<size_t>(k)];
    Tensor Xc(static_cast<Index>(r.size()), d);
    for (size_t i = 0; i < r.size(); ++i) Xc.row(static_cast<Index>(i)) = X.row(r[i]) - means.row(k);
    Tensor g = Tensor::Zero(d, d);
    g.selfadjointView<Eigen::Lower>().rankUpdate(Xc.transpose());
    g.triangularView<Eigen::StrictlyUpper>() = g.transpose();
    G.push_back(std::move(g));
  }
  return G;
}

Vector resolve_priors(const Vector& priors, const Vector& counts, const char* who) {
  if (priors.size() == 0) return counts / counts.sum();
  if (priors.size() != counts.size()) {
    throw ValueError(
        fmt::format("{}: expected {} priors (one per class), found {}", who, counts.size(), priors.size()));
  }
  if (!priors.allFinite() || (priors.array() < 0).any() || std::abs(priors.sum() - 1) > 1e-8) {
    throw ValueError(
        fmt::format("{}: expected non-negative finite priors summing to 1, found sum {}", who, priors.sum()));
  }
  return priors / priors.sum();
}

std::optional<Tensor> cholesky_factor(const Tensor& S) {
  if (!((S.diagonal().array() > 0).all())) return std::nullopt;
  Eigen::LLT<Eigen::MatrixXd> llt(S);
  if (llt.info() != Eigen::Success) return std::nullopt;
  Tensor L = llt.matrixL();
  const Vector pivots = L.diagonal().cwiseQuotient(S.diagonal().cwiseSqrt());
  if (!pivots.allFinite() || !(pivots.minCoeff() > 1e-7)) return std::nullopt;
  return L;
}

}  // namespace dagml
