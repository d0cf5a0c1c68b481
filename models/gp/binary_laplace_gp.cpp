#include "models/gp/binary_laplace_gp.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"
#include "graph/error.h"

namespace dagml {

Scalar logistic_gaussian_integral(Scalar mean, Scalar variance) {
  static constexpr std::array<Scalar, 5> lambda = {0.41, 0.4, 0.37, 0.44, 0.39};
  static constexpr std::array<Scalar, 5> c = {-1854.8214151, 3516.89893646, 221.29346712, 128.12323805,
                                              -2010.49422654};
  Scalar p = 0;
  for (std::size_t i = 0; i < lambda.size(); ++i)
    p += 0.5 * c[i] * (1 + std::erf(lambda[i] * mean / std::sqrt(1 + 2 * variance * lambda[i] * lambda[i])));
  return p;
}

Vector kernel_graph_gradient(const Kernel& kernel, const Tensor& X, const Tensor& K_adjoint) {
  Graph g;
  const std::vector<Var> blocks = kernel.log_hyperparameter_nodes(g, true);
  if (blocks.empty()) return Vector();
  const Var rows = g.constant(X);
  const Var inner = sum(kernel.gram_graph({rows, rows, true}, blocks) * g.constant(K_adjoint));
  Vector gradient(kernel.free_log_hyperparameters().size());
  Index at = 0;
  for (const Var& d : gradients(inner, blocks))
    for (Index k = 0; k < d.value().size(); ++k) gradient[at++] = d.value().data()[k];
  return gradient;
}

namespace {

struct LaplaceMode {
  Vector f, a, pi, sqrt_w;
  Eigen::LLT<Eigen::MatrixXd> llt;  // of B = I + W½ K W½ at f
  Scalar log_q = 0;
};

// log p(t | f) = Σ −log(1 + e^{−yf}), y = 2t − 1, without overflow.
Scalar log_likelihood(const Vector& t, const Vector& f) {
  Scalar sum = 0;
  for (Index i = 0; i < f.size(); ++i) {
    const Scalar z = (2 * t[i] - 1) * f[i];
    sum -= z > 0 ? std::log1p(std::exp(-z)) : -z + std::log1p(std::exp(z));
  }
  return sum;
}

void factor_at(const Tensor& K, const Vector& f, LaplaceMode& m) {
  m.pi = f.unaryExpr([](Scalar v) { return v >= 0 ? 1 / (1 + std::exp(-v)) : std::exp(v) / (1 + std::exp(v)); });
  m.sqrt_w = (m.pi.array() * (1 - m.pi.array())).sqrt();
  Eigen::MatrixXd B = m.sqrt_w.asDiagonal() * K * m.sqrt_w.asDiagonal();
  B.diagonal().array() += 1;
  m.llt.compute(B);
  DAGML_CHECK(m.llt.info() == Eigen::Success, "B = I + W½KW½ has eigenvalues ≥ 1 and must factorise");
}

// Algorithm 3.1 from f = 0; at the end W, B and L are those of the final f̂.
LaplaceMode find_mode(const Tensor& K, const Vector& t, const BinaryLaplaceOptions& options) {
  LaplaceMode m;
  m.f = Vector::Zero(t.size());
  Scalar previous = -std::numeric_limits<Scalar>::infinity();
  for (Index it = 0; it < options.newton_max_iterations; ++it) {
    factor_at(K, m.f, m);
    const Vector b = m.sqrt_w.cwiseProduct(m.sqrt_w).cwiseProduct(m.f) + (t - m.pi);
    const Vector c = m.llt.matrixL().solve(m.sqrt_w.cwiseProduct(K * b));
    m.a = b - m.sqrt_w.cwiseProduct(m.llt.matrixU().solve(c));
    m.f = K * m.a;
    const Scalar log_q = -0.5 * m.a.dot(m.f) + log_likelihood(t, m.f) -
                         m.llt.matrixLLT().diagonal().array().log().sum();
    if (log_q - previous < options.newton_tolerance) break;
    previous = log_q;
  }
  factor_at(K, m.f, m);
  m.log_q = -0.5 * m.a.dot(m.f) + log_likelihood(t, m.f) -
            m.llt.matrixLLT().diagonal().array().log().sum();
  return m;
}

}  // namespace

Scalar BinaryLaplaceGp::log_marginal_likelihood(const Kernel& kernel, const Tensor& X, const Vector& t,
                                                const BinaryLaplaceOptions& options, Vector* gradient) {
  const Tensor K = kernel.gram(X);
  const LaplaceMode m = find_mode(K, t, options);
  if (gradient) {
    // Algorithm 5.1 as an adjoint of K: R = W½ L⁻ᵀ L⁻¹ W½, C = L⁻¹ W½ K,
    // s₂ = −½ (diag K − diag CᵀC) ⊙ ∂W/∂f̂ with ∂W/∂f = π(1 − π)(1 − 2π) = −∇³log p: the
    // derivative of −½ log|B| in f̂, written with W's derivative so that its sign is unambiguous
    // (finite differences and scikit-learn agree with it, see the tests).
    const Vector g = t - m.pi;
    const Tensor R = m.sqrt_w.asDiagonal() * m.llt.solve(Eigen::MatrixXd(m.sqrt_w.asDiagonal()));
    const Tensor C = m.llt.matrixL().solve(Eigen::MatrixXd(m.sqrt_w.asDiagonal() * K));
    const Vector dW = (m.pi.array() * (1 - m.pi.array()) * (1 - 2 * m.pi.array())).matrix();
    const Vector s2 = -0.5 * (K.diagonal() - C.colwise().squaredNorm().transpose()).cwiseProduct(dW);
    const Vector u = s2 - R * (K * s2);
    const Tensor K_adjoint = 0.5 * (m.a * m.a.transpose() - R) + u * g.transpose();
    *gradient = kernel_graph_gradient(kernel, X, K_adjoint);
  }
  return m.log_q;
}

void BinaryLaplaceGp::fit(KernelPtr kernel, const Tensor& X, const Vector& t, const BinaryLaplaceOptions& options) {
  const Tensor K = kernel->gram(X);
  const LaplaceMode m = find_mode(K, t, options);
  kernel_ = std::move(kernel);
  X_ = X;
  gradient_ = t - m.pi;
  sqrt_w_ = m.sqrt_w;
  L_ = m.llt.matrixL();
  mode_ = m.f;
  log_marginal_likelihood_ = m.log_q;
}

void BinaryLaplaceGp::latent(const Tensor& X, Vector& mean, Vector& variance) const {
  const Tensor K_star = kernel_->gram(X, X_);  // m×n
  mean = K_star * gradient_;
  const Tensor v = L_.triangularView<Eigen::Lower>().solve(sqrt_w_.asDiagonal() * K_star.transpose());
  variance.resize(X.rows());
  for (Index i = 0; i < X.rows(); ++i) {
    const Vector x = X.row(i).transpose();
    variance[i] = std::max((*kernel_)(x, x) - v.col(i).squaredNorm(), Scalar(0));
  }
}

Vector BinaryLaplaceGp::probability(const Tensor& X) const {
  Vector mean, variance;
  latent(X, mean, variance);
  Vector p(X.rows());
  for (Index i = 0; i < X.rows(); ++i) p[i] = std::clamp(logistic_gaussian_integral(mean[i], variance[i]), 0.0, 1.0);
  return p;
}

bool BinaryLaplaceGp::consistent(Index d) const {
  const Index n = X_.rows();
  return kernel_ && n >= 1 && X_.cols() == d && gradient_.size() == n && sqrt_w_.size() == n && mode_.size() == n &&
         L_.rows() == n && L_.cols() == n && X_.allFinite() && gradient_.allFinite() && sqrt_w_.allFinite() &&
         L_.allFinite() && (L_.diagonal().array() > 0).all() && std::isfinite(log_marginal_likelihood_);
}

}  // namespace dagml
