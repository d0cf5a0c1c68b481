#include "models/bayes/kl_divergence.h"

#include <cmath>
#include <initializer_list>
#include <limits>
#include <utility>

#include <fmt/format.h>
#include <unsupported/Eigen/SpecialFunctions>

#include "graph/error.h"
#include "models/linear/spd_factor.h"

namespace dagml {

namespace {

// Each (name, value) must be > 0 and finite.
void check_positive_scalars(std::initializer_list<std::pair<const char*, Scalar>> parameters, const char* who) {
  for (const auto& [name, value] : parameters) {
    if (!(value > 0) || !std::isfinite(value)) {
      throw ValueError(fmt::format("{}: expected {} > 0 and finite, found {}", who, name, value));
    }
  }
}

void check_positive_parameters(const Vector& v, const char* name, const char* who) {
  for (Index i = 0; i < v.size(); ++i) {
    if (!(v[i] > 0) || !std::isfinite(v[i])) {
      throw ValueError(fmt::format("{}: expected every {} > 0 and finite, found {} at entry {}", who, name, v[i], i));
    }
  }
}

void check_probability_vector(const Vector& p, const char* name, const char* who) {
  for (Index i = 0; i < p.size(); ++i) {
    if (!(p[i] >= 0 && p[i] <= 1)) {
      throw ValueError(fmt::format("{}: expected {} in [0, 1], found {} at entry {}", who, name, p[i], i));
    }
  }
  if (std::abs(p.sum() - 1) > 1e-9) {
    throw ValueError(fmt::format("{}: expected {} to sum to 1, found a sum of {:.17g}", who, name, p.sum()));
  }
}

void check_equal_lengths(const Vector& a, const Vector& b, Index least, const char* who) {
  if (a.size() < least || b.size() != a.size()) {
    throw ValueError(fmt::format("{}: expected two parameter vectors of one equal length ≥ {}, found {} and {}", who,
                                 least, a.size(), b.size()));
  }
}

}  // namespace

Scalar kl_gaussian(const Vector& mean_p, const Tensor& covariance_p, const Vector& mean_q, const Tensor& covariance_q) {
  const char* who = "kl_gaussian";
  const Index k = mean_p.size();
  if (k == 0 || mean_q.size() != k || covariance_p.rows() != k || covariance_p.cols() != k ||
      covariance_q.rows() != k || covariance_q.cols() != k) {
    throw ShapeError(fmt::format(
        "{}: expected means of one length k ≥ 1 and k×k covariances, found {}, {}×{}, {}, "
        "{}×{}",
        who, k, covariance_p.rows(), covariance_p.cols(), mean_q.size(), covariance_q.rows(), covariance_q.cols()));
  }
  if (!mean_p.allFinite() || !mean_q.allFinite()) throw ValueError(fmt::format("{}: expected finite means", who));
  const auto llt_p = spd_factor(covariance_p, who, "covariance_p");
  const auto llt_q = spd_factor(covariance_q, who, "covariance_q");
  const auto Lq = llt_q.matrixL();
  const Eigen::MatrixXd whitened_factor = Lq.solve(Eigen::MatrixXd(llt_p.matrixL()));  // L_q⁻¹ L_p
  const Vector whitened_difference = Lq.solve(mean_q - mean_p);                        // L_q⁻¹(μ_q − μ_p)
  return 0.5 * (whitened_factor.squaredNorm() + whitened_difference.squaredNorm() - static_cast<Scalar>(k) +
                log_determinant(llt_q) - log_determinant(llt_p));
}

Scalar kl_diagonal_gaussian(const Vector& mean_p, const Vector& variance_p, const Vector& mean_q,
                            const Vector& variance_q) {
  const char* who = "kl_diagonal_gaussian";
  const Index k = mean_p.size();
  if (k == 0 || variance_p.size() != k || mean_q.size() != k || variance_q.size() != k) {
    throw ValueError(fmt::format("{}: expected means and variances of one length ≥ 1, found {}, {}, {}, {}", who, k,
                                 variance_p.size(), mean_q.size(), variance_q.size()));
  }
  if (!mean_p.allFinite() || !mean_q.allFinite()) throw ValueError(fmt::format("{}: expected finite means", who));
  check_positive_parameters(variance_p, "variance_p", who);
  check_positive_parameters(variance_q, "variance_q", who);
  const auto ratio = variance_p.array() / variance_q.array();
  const auto mahalanobis = (mean_p - mean_q).array().square() / variance_q.array();
  return 0.5 * (ratio + mahalanobis - ratio.log() - 1).sum();
}

Scalar kl_standard_normal(const Vector& mean, const Vector& variance) {
  return kl_diagonal_gaussian(mean, variance, Vector::Zero(mean.size()), Vector::Ones(mean.size()));
}

Scalar kl_categorical(const Vector& p, const Vector& q) {
  const char* who = "kl_categorical";
  check_equal_lengths(p, q, 1, who);
  check_probability_vector(p, "p", who);
  check_probability_vector(q, "q", who);
  Scalar kl = 0;
  for (Index i = 0; i < p.size(); ++i) {
    if (p[i] == 0) continue;  // 0 log 0 = 0
    if (q[i] == 0) return std::numeric_limits<Scalar>::infinity();
    kl += p[i] * std::log(p[i] / q[i]);
  }
  return kl;
}

Scalar kl_bernoulli(Scalar p, Scalar q) {
  for (const auto& [name, value] : {std::pair{"p", p}, std::pair{"q", q}}) {
    if (!(value >= 0 && value <= 1)) {
      throw ValueError(fmt::format("kl_bernoulli: expected a probability {} in [0, 1], found {}", name, value));
    }
  }
  return kl_categorical(Vector{{p, 1 - p}}, Vector{{q, 1 - q}});
}

Scalar kl_poisson(Scalar rate_p, Scalar rate_q) {
  const char* who = "kl_poisson";
  check_positive_scalars({{"rate_p", rate_p}, {"rate_q", rate_q}}, who);
  return rate_p * std::log(rate_p / rate_q) - rate_p + rate_q;
}

Scalar kl_gamma(Scalar shape_p, Scalar rate_p, Scalar shape_q, Scalar rate_q) {
  const char* who = "kl_gamma";
  check_positive_scalars({{"shape_p", shape_p}, {"rate_p", rate_p}, {"shape_q", shape_q}, {"rate_q", rate_q}}, who);
  return (shape_p - shape_q) * Eigen::numext::digamma(shape_p) - std::lgamma(shape_p) + std::lgamma(shape_q) +
         shape_q * (std::log(rate_p) - std::log(rate_q)) + shape_p * (rate_q - rate_p) / rate_p;
}

Scalar kl_beta(Scalar a_p, Scalar b_p, Scalar a_q, Scalar b_q) {
  check_positive_scalars({{"a_p", a_p}, {"b_p", b_p}, {"a_q", a_q}, {"b_q", b_q}}, "kl_beta");
  return kl_dirichlet(Vector{{a_p, b_p}}, Vector{{a_q, b_q}});
}

Scalar kl_dirichlet(const Vector& alpha_p, const Vector& alpha_q) {
  const char* who = "kl_dirichlet";
  check_equal_lengths(alpha_p, alpha_q, 2, who);
  check_positive_parameters(alpha_p, "concentration of p", who);
  check_positive_parameters(alpha_q, "concentration of q", who);
  const Scalar total_p = alpha_p.sum(), total_q = alpha_q.sum();
  const Scalar digamma_total_p = Eigen::numext::digamma(total_p);
  Scalar kl = std::lgamma(total_p) - std::lgamma(total_q);
  for (Index i = 0; i < alpha_p.size(); ++i) {
    kl += std::lgamma(alpha_q[i]) - std::lgamma(alpha_p[i]) +
          (alpha_p[i] - alpha_q[i]) * (Eigen::numext::digamma(alpha_p[i]) - digamma_total_p);
  }
  return kl;
}

}  // namespace dagml
