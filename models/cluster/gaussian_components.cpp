#include "models/cluster/gaussian_components.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "autodiff/softmax.h"
#include "graph/error.h"
#include "graph/packets.h"
#include "graph/parallel_products.h"
#include "graph/random.h"

namespace dagml {

namespace {
constexpr Index kGaussianRowsPerTask = 256;  // fixed split: results do not depend on the thread count

// Σⱼ ((xⱼ − μⱼ)·sⱼ)² over d entries: whole vector packets, then the last d mod P entries in order
// (the diagonal E-step's Mahalanobis term, one row and one component).
Scalar scaled_squared_distance(const double* x, const double* mu, const double* s, Index d) {
  using namespace Eigen::internal;
  const Index vectorised = d - d % kDoubleLanes;
  DoublePacket sum = pset1<DoublePacket>(0.0);
  for (Index j = 0; j < vectorised; j += kDoubleLanes) {
    const DoublePacket t =
        pmul(psub(ploadu<DoublePacket>(x + j), ploadu<DoublePacket>(mu + j)), ploadu<DoublePacket>(s + j));
    sum = pmadd(t, t, sum);
  }
  Scalar total = predux(sum);
  for (Index j = vectorised; j < d; ++j) {
    const Scalar t = (x[j] - mu[j]) * s[j];
    total += t * t;
  }
  return total;
}

// scatterⱼ += r·(xⱼ − μⱼ)² over d entries, in vector packets (the diagonal M-step, one row and
// one component).
void add_weighted_squared_deviations(const double* x, const double* mu, Scalar r, double* scatter, Index d) {
  using namespace Eigen::internal;
  const Index vectorised = d - d % kDoubleLanes;
  const DoublePacket weight = pset1<DoublePacket>(r);
  for (Index j = 0; j < vectorised; j += kDoubleLanes) {
    const DoublePacket t = psub(ploadu<DoublePacket>(x + j), ploadu<DoublePacket>(mu + j));
    pstoreu(scatter + j, pmadd(weight, pmul(t, t), ploadu<DoublePacket>(scatter + j)));
  }
  for (Index j = vectorised; j < d; ++j) {
    const Scalar t = x[j] - mu[j];
    scatter[j] += r * (t * t);
  }
}

const Scalar kGaussianLog2Pi = std::log(2 * std::numbers::pi);
// Whether the type stores d×d blocks (full, tied) rather than variances (diagonal, spherical).
bool has_square_scatter(CovarianceType type) { return type == CovarianceType::Full || type == CovarianceType::Tied; }
}  // namespace

std::pair<Index, Index> covariance_shape(CovarianceType type, Index K, Index d) {
  switch (type) {
    case CovarianceType::Full:
      return {K * d, d};
    case CovarianceType::Tied:
      return {d, d};
    case CovarianceType::Diagonal:
      return {K, d};
    case CovarianceType::Spherical:
      return {K, 1};
  }
  return {0, 0};
}

Tensor factorize_covariances(const Tensor& cov, CovarianceType type, Index K, Index d, Scalar reg_covar,
                             const char* who) {
  auto singular = [&](const std::string& which, Scalar pivot) {
    throw NumericalError(fmt::format(
        "{}: expected positive definite covariances, found {} singular (a pivot or variance of {:.3g}): the "
        "component has collapsed onto too few distinct points or a lower-dimensional subspace; a larger reg_covar "
        "(now {:.3g}) fixes it",
        who, which, pivot, reg_covar));
  };
  Tensor factors(cov.rows(), cov.cols());
  const bool square = has_square_scatter(type);
  Scalar largest = 0;
  for (Index b = 0; b < (square ? cov.rows() / d : 1); ++b)
    largest = std::max(largest, square ? cov.middleRows(b * d, d).diagonal().maxCoeff() : cov.maxCoeff());
  const Scalar zero = static_cast<Scalar>(d) * std::numeric_limits<Scalar>::epsilon() * largest;
  if (square) {
    // The components' factorizations in parallel; the first singular one (by index) is reported,
    // whatever the threads.
    const Index blocks = type == CovarianceType::Full ? K : 1;
    Vector failed_pivot = Vector::Constant(blocks, std::numeric_limits<Scalar>::quiet_NaN());
    tbb::parallel_for(Index{0}, blocks, [&](Index k) {
      const Eigen::MatrixXd block = cov.middleRows(k * d, d);
      const Eigen::LLT<Eigen::MatrixXd> llt(block);
      const Eigen::MatrixXd L = llt.matrixL();
      if (llt.info() != Eigen::Success || !L.allFinite() || !(L.diagonal().array().square().minCoeff() > zero))
        failed_pivot(k) =
            llt.info() == Eigen::Success ? L.diagonal().array().square().minCoeff() : block.diagonal().minCoeff();
      factors.middleRows(k * d, d) = L;
    });
    for (Index k = 0; k < blocks; ++k)
      if (!std::isnan(failed_pivot(k)))
        singular(type == CovarianceType::Tied ? std::string("the shared (tied) covariance")
                                              : fmt::format("the covariance of component {}", k),
                 failed_pivot(k));
  } else {
    for (Index k = 0; k < cov.rows(); ++k) {
      const Scalar smallest = cov.row(k).minCoeff();
      if (!(smallest > zero) || !cov.row(k).allFinite())
        singular(fmt::format("the covariance of component {}", k), smallest);
    }
    factors = cov.cwiseSqrt();
  }
  return factors;
}

void check_initial_covariances(const Tensor& covariances, CovarianceType type, Index K, Index d, Scalar reg_covar,
                               const char* who) {
  const auto [rows, cols] = covariance_shape(type, K, d);
  if (covariances.rows() != rows || covariances.cols() != cols)
    throw ValueError(fmt::format("{}: expected {} initial_covariances of shape {}×{}, found {}×{}", who, enum_name(type),
                                 rows, cols, covariances.rows(), covariances.cols()));
  if (!covariances.allFinite())
    throw ValueError(fmt::format("{}: expected finite initial_covariances, found a non-finite entry", who));
  try {
    factorize_covariances(covariances, type, K, d, reg_covar, who);
  } catch (const NumericalError& e) {
    throw ValueError(fmt::format("{} (in initial_covariances)", e.what()));
  }
}

Tensor gaussian_log_joint(const Tensor& X, const GaussianComponents& c, CovarianceType type) {
  const Index n = X.rows(), d = X.cols(), K = c.means.rows();
  Vector log_norm(K);  // log π_k − ½ d log 2π − ½ log |Σ_k|
  for (Index k = 0; k < K; ++k) {
    Scalar half_log_det = 0;
    switch (type) {
      case CovarianceType::Full:
        half_log_det = c.factors.middleRows(k * d, d).diagonal().array().log().sum();
        break;
      case CovarianceType::Tied:
        half_log_det = c.factors.diagonal().array().log().sum();
        break;
      case CovarianceType::Diagonal:
        half_log_det = c.factors.row(k).array().log().sum();
        break;
      case CovarianceType::Spherical:
        half_log_det = static_cast<Scalar>(d) * std::log(c.factors(k, 0));
        break;
    }
    log_norm(k) = std::log(c.weights(k)) - 0.5 * static_cast<Scalar>(d) * kGaussianLog2Pi - half_log_det;
  }
  Tensor out(n, K);
  // The diagonal and spherical Mahalanobis terms row by row, each row of X read once for all K
  // components, with the reciprocal scales 1/σ_kj (1/σ_k) multiplied in.
  const Tensor inverse_scales = type == CovarianceType::Full || type == CovarianceType::Tied
                                    ? Tensor()
                                    : Tensor(c.factors.array().inverse());
  // Full and tied: ‖L⁻¹(x − μ)‖² = ‖(x − μ)ᵀ P‖² with P = L⁻ᵀ (upper triangular, the Cholesky
  // factor of the precision Σ⁻¹, as scikit-learn computes it), so each block of rows costs one
  // matrix product per component instead of a triangular solve, which Eigen runs at a fraction
  // of a product's speed.
  std::vector<Eigen::MatrixXd> precision_factors(
      static_cast<std::size_t>(has_square_scatter(type) ? (type == CovarianceType::Full ? K : 1) : 0));
  tbb::parallel_for(std::size_t{0}, precision_factors.size(), [&](std::size_t k) {
    const Eigen::MatrixXd L = c.factors.middleRows(static_cast<Index>(k) * d, d);
    precision_factors[k] = L.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd::Identity(d, d)).transpose();
  });
  const Index blocks = (n + kGaussianRowsPerTask - 1) / kGaussianRowsPerTask;
  tbb::parallel_for(tbb::blocked_range<Index>(0, blocks, 1), [&](const tbb::blocked_range<Index>& range) {
    for (Index b = range.begin(); b != range.end(); ++b) {
      const Index begin = b * kGaussianRowsPerTask, count = std::min(kGaussianRowsPerTask, n - begin);
      if (type == CovarianceType::Diagonal || type == CovarianceType::Spherical) {
        for (Index i = begin; i < begin + count; ++i)
          for (Index k = 0; k < K; ++k) {
            const Scalar mahalanobis =  // ‖(x − μ) / σ‖²
                type == CovarianceType::Diagonal
                    ? scaled_squared_distance(X.row(i).data(), c.means.row(k).data(), inverse_scales.row(k).data(), d)
                    : (X.row(i) - c.means.row(k)).squaredNorm() * (inverse_scales(k, 0) * inverse_scales(k, 0));
            out(i, k) = log_norm(k) - 0.5 * mahalanobis;
          }
        continue;
      }
      Tensor D(count, d), Y(count, d);  // allocated once per block, for all K components
      for (Index k = 0; k < K; ++k) {
        D = X.middleRows(begin, count).rowwise() - c.means.row(k);
        Y.noalias() = D * precision_factors[type == CovarianceType::Full ? static_cast<std::size_t>(k) : 0]
                              .triangularView<Eigen::Upper>();
        out.block(begin, k, count, 1) = (log_norm(k) - 0.5 * Y.rowwise().squaredNorm().array()).matrix();
      }
    }
  });
  return out;
}

Vector normalize_log_rows(Tensor& log_prob, Tensor* prob) {
  Tensor normalised;
  Vector lse;
  detail::softmax_rows(log_prob, prob ? *prob : normalised, &lse);
  log_prob.colwise() -= lse;
  return lse;
}

Tensor component_scatter(const Eigen::Ref<const Tensor>& X, const Eigen::Ref<const Vector>& r,
                         const Eigen::Ref<const Eigen::RowVectorXd>& mean) {
  // Σ_i r_i (x_i − μ)(x_i − μ)ᵀ = BᵀB with the rows of B = √r_i (x_i − μ): one n×d temporary
  // and a symmetric rank-n update (half the flops of a general product), mirrored.
  const Eigen::MatrixXd B = ((X.rowwise() - mean).array().colwise() * r.array().sqrt()).matrix();
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(X.cols(), X.cols());
  S.selfadjointView<Eigen::Lower>().rankUpdate(B.transpose());
  return Tensor(S.selfadjointView<Eigen::Lower>());
}

Tensor diagonal_scatters(const Eigen::Ref<const Tensor>& X, const Eigen::Ref<const Tensor>& R, const Tensor& means) {
  // Row by row, every component from one read of the row (X is read once, not K times), in
  // the fixed row chunks of Note [Fixed-block products], whose partials are added in order.
  const Index n = X.rows(), K = means.rows(), d = X.cols();
  const Index chunks = product_chunks(n);
  std::vector<Tensor> partials(static_cast<std::size_t>(chunks));
  tbb::parallel_for(Index{0}, chunks, [&](Index chunk) {
    Tensor& partial = partials[static_cast<std::size_t>(chunk)];
    partial.setZero(K, d);
    const IndexRange rows = even_split(n, chunks, chunk);
    for (Index i = rows.begin; i < rows.end; ++i)
      for (Index k = 0; k < K; ++k)
        add_weighted_squared_deviations(X.row(i).data(), means.row(k).data(), R(i, k), partial.row(k).data(), d);
  });
  Tensor sum = partials[0];
  for (std::size_t chunk = 1; chunk < partials.size(); ++chunk) sum += partials[chunk];
  return sum;
}

GaussianComponents components_from_scatter(const Vector& nk, Tensor means, const std::vector<Tensor>& scatter,
                                           CovarianceType type, Scalar reg_covar, const char* who) {
  const Index K = means.rows(), d = means.cols();
  GaussianComponents c;
  c.weights = nk / nk.sum();
  c.means = std::move(means);
  const auto [rows, cols] = covariance_shape(type, K, d);
  c.covariances = Tensor::Zero(rows, cols);
  for (Index k = 0; k < K; ++k) {
    const Tensor& S = scatter[static_cast<std::size_t>(k)];
    switch (type) {
      case CovarianceType::Full:
        c.covariances.middleRows(k * d, d) = S / nk(k);
        break;
      case CovarianceType::Tied:
        c.covariances += S;  // summed in component order
        break;
      case CovarianceType::Diagonal:
        c.covariances.row(k) = S / nk(k);
        break;
      case CovarianceType::Spherical:
        c.covariances(k, 0) = S.mean() / nk(k);
        break;
    }
  }
  if (type == CovarianceType::Tied) c.covariances /= nk.sum();
  if (has_square_scatter(type)) {
    for (Index b = 0; b < c.covariances.rows() / d; ++b)
      c.covariances.middleRows(b * d, d).diagonal().array() += reg_covar;
  } else {
    c.covariances.array() += reg_covar;
  }
  c.factors = factorize_covariances(c.covariances, type, K, d, reg_covar, who);
  return c;
}


Index moment_statistics_width(Index K, Index d) { return K + K * d; }

void accumulate_moments(const Eigen::Ref<const Tensor>& X, const Eigen::Ref<const Tensor>& R,
                        std::span<double> statistics) {
  const Index K = R.cols(), d = X.cols();
  // N_k = Σᵢ r_ik, row after row (R is row-major: one contiguous row of K at a time).
  Eigen::Map<Eigen::RowVectorXd> nk(statistics.data(), K);
  nk.setZero();
  for (Index i = 0; i < R.rows(); ++i) nk += R.row(i);
  transposed_product_with_narrow_left(R, X, Eigen::Map<Tensor>(statistics.data() + K, K, d));
}

std::pair<Vector, Tensor> moment_means(const Vector& moments, Index K, Index d) {
  Vector nk = moments.head(K).array() + 10 * std::numeric_limits<Scalar>::epsilon();
  Tensor means = Eigen::Map<const Tensor>(moments.data() + K, K, d);
  means.array().colwise() /= nk.array();
  return {std::move(nk), std::move(means)};
}

Index scatter_statistics_width(CovarianceType type, Index K, Index d) {
  return K * (has_square_scatter(type) ? d * d : d);
}

void accumulate_scatters(const Eigen::Ref<const Tensor>& X, const Eigen::Ref<const Tensor>& R, const Tensor& means,
                         CovarianceType type, std::span<double> statistics) {
  const Index K = means.rows(), d = X.cols();
  if (!has_square_scatter(type)) {
    Eigen::Map<Tensor>(statistics.data(), K, d) = diagonal_scatters(X, R, means);
    return;
  }
  tbb::parallel_for(Index{0}, K, [&](Index k) {  // each component's block on its own
    Eigen::Map<Tensor>(statistics.data() + k * d * d, d, d) = component_scatter(X, R.col(k), means.row(k));
  });
}

GaussianComponents components_from_statistics(const Vector& moments, const Vector& scatters, CovarianceType type,
                                              Index K, Index d, Scalar reg_covar, const char* who) {
  auto [nk, means] = moment_means(moments, K, d);
  const Index block = scatter_statistics_width(type, 1, d);
  std::vector<Tensor> scatter;
  for (Index k = 0; k < K; ++k)
    scatter.emplace_back(Eigen::Map<const Tensor>(scatters.data() + k * block, has_square_scatter(type) ? d : 1, d));
  return components_from_scatter(nk, std::move(means), scatter, type, reg_covar, who);
}

GaussianComponents fit_gaussian_components(const Tensor& X, const Tensor& R, CovarianceType type, Scalar reg_covar,
                                           const char* who) {
  // The two passes over all rows at once.
  const Index K = R.cols(), d = X.cols();
  Vector moments = Vector::Zero(moment_statistics_width(K, d));
  accumulate_moments(X, R, {moments.data(), static_cast<std::size_t>(moments.size())});
  Vector scatters = Vector::Zero(scatter_statistics_width(type, K, d));
  accumulate_scatters(X, R, moment_means(moments, K, d).second, type,
                      {scatters.data(), static_cast<std::size_t>(scatters.size())});
  return components_from_statistics(moments, scatters, type, K, d, reg_covar, who);
}

Vector flatten_components(const GaussianComponents& c) {
  Vector x(c.weights.size() + c.means.size() + c.covariances.size());
  x << c.weights, Eigen::Map<const Vector>(c.means.data(), c.means.size()),
      Eigen::Map<const Vector>(c.covariances.data(), c.covariances.size());
  return x;
}

Tensor component_covariance(const GaussianComponents& c, CovarianceType type, Index k) {
  const Index d = c.means.cols();
  switch (type) {
    case CovarianceType::Full:
      return c.covariances.middleRows(k * d, d);
    case CovarianceType::Tied:
      return c.covariances;
    case CovarianceType::Diagonal:
      return Tensor(c.covariances.row(k).transpose().asDiagonal());
    case CovarianceType::Spherical:
      return c.covariances(k, 0) * Tensor::Identity(d, d);
  }
  return {};
}

Vector draw_from_component(const GaussianComponents& c, CovarianceType type, Index k, std::mt19937_64& rng) {
  const Index d = c.means.cols();
  Vector z(d);
  for (Index j = 0; j < d; ++j) z(j) = standard_normal(rng);
  Vector x;
  switch (type) {
    case CovarianceType::Full:
      x = c.factors.middleRows(k * d, d).triangularView<Eigen::Lower>() * z;
      break;
    case CovarianceType::Tied:
      x = c.factors.triangularView<Eigen::Lower>() * z;
      break;
    case CovarianceType::Diagonal:
      x = c.factors.row(k).transpose().cwiseProduct(z);
      break;
    case CovarianceType::Spherical:
      x = c.factors(k, 0) * z;
      break;
  }
  return c.means.row(k).transpose() + x;
}

Index covariance_parameter_count(CovarianceType type, Index K, Index d) {
  switch (type) {
    case CovarianceType::Full:
      return K * d * (d + 1) / 2;
    case CovarianceType::Tied:
      return d * (d + 1) / 2;
    case CovarianceType::Diagonal:
      return K * d;
    case CovarianceType::Spherical:
      return K;
  }
  return 0;
}

}  // namespace dagml
