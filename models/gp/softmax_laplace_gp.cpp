#include "models/gp/softmax_laplace_gp.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <random>

#include "autodiff/blocked_cholesky.h"
#include "graph/error.h"
#include "graph/random.h"
#include "models/classify/score_labels.h"
#include "models/data/labels.h"

namespace dagml {

Tensor antithetic_normal_draws(Index num_samples, Index num_classes, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Tensor Z(num_samples, num_classes);
  for (Index s = 0; s < num_samples; s += 2)
    for (Index c = 0; c < num_classes; ++c) {
      Z(s, c) = standard_normal(rng);
      if (s + 1 < num_samples) Z(s + 1, c) = -Z(s, c);
    }
  return Z;
}

Vector softmax_gaussian_average(const Vector& mean, const Tensor& covariance, const Tensor& draws) {
  const Index C = mean.size();
  DAGML_CHECK(covariance.rows() == C && covariance.cols() == C && draws.cols() == C,
              "softmax_gaussian_average: C×C covariance and S×C draws");
  Tensor L = Tensor::Zero(C, C);
  Eigen::LLT<Eigen::MatrixXd> llt(covariance);
  if (llt.info() == Eigen::Success) {
    L = llt.matrixL();
  } else {  // semidefinite to rounding: L = V Λ½ (any factor with LLᵀ = Σ gives the same law)
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(covariance);
    L = eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0).cwiseSqrt().asDiagonal();
  }
  Vector p = Vector::Zero(C), f(C);
  for (Index s = 0; s < draws.rows(); ++s) {
    for (Index c = 0; c < C; ++c) {
      Scalar v = mean[c];
      for (Index k = 0; k < C; ++k) v += L(c, k) * draws(s, k);
      f[c] = v;
    }
    const Scalar top = f.maxCoeff();
    const Vector e = (f.array() - top).exp().matrix();
    p += e / e.sum();
  }
  return p / static_cast<Scalar>(draws.rows());
}

namespace {

// The n×C matrices hold one class per column: F(i, c) = f_i^c.
struct SoftmaxMode {
  Tensor F, A, Pi;                // f, a (f = K a, column by column), π at f
  std::vector<Eigen::MatrixXd> E;  // E_c at f (column-major, as the Cholesky functions take)
  BlockedCholesky M;               // of Σ_c E_c at f
  Scalar z = 0;                   // ½ log |I + KW| at f
  Scalar log_q = 0;
  Index iterations = 0;
  bool converged = false;
};

// Σ_i log Σ_c exp f_i^c, without overflow: f_i^0 − log softmax(f_i)_0 summed over the rows.
Scalar log_partition(const Tensor& F) { return (F.col(0) - log_softmax_rows(F).col(0)).sum(); }

// Ψ(f) = −½ aᵀf + yᵀf − Σ_i log Σ_c exp f_i^c, with f = Ka (so aᵀf = fᵀK⁻¹f).
Scalar psi(const Tensor& A, const Tensor& F, const Tensor& Y) {
  return -0.5 * (A.array() * F.array()).sum() + (Y.array() * F.array()).sum() - log_partition(F);
}

// π, E_c = D_c½ L_c⁻ᵀ L_c⁻¹ D_c½ with L_c = chol(I + D_c½ K D_c½), M = chol(Σ_c E_c) and
// z = Σ_c Σ_i log (L_c)_ii + Σ_i log M_ii at f (Algorithm 3.3, lines 4–10). The factorisations
// and B_c⁻¹ (E_c = D_c½ B_c⁻¹ D_c½, B_c = L_c L_cᵀ) run on TBB's threads (Note [Blocked Cholesky]).
void factor_at(const Tensor& K, SoftmaxMode& m) {
  const Index n = K.rows(), C = m.F.cols();
  m.Pi = softmax_rows(m.F);
  m.E.resize(static_cast<std::size_t>(C));
  Tensor sum_E = Tensor::Zero(n, n);
  Eigen::MatrixXd B, L_inverse;
  m.z = 0;
  for (Index c = 0; c < C; ++c) {
    const Vector d = m.Pi.col(c).cwiseSqrt();
    B = d.asDiagonal() * K * d.asDiagonal();
    B.diagonal().array() += 1;
    DAGML_CHECK(cholesky_in_place(B), "I + D½KD½ has eigenvalues ≥ 1 and must factorise");
    m.z += B.diagonal().array().log().sum();
    Eigen::MatrixXd& E = m.E[static_cast<std::size_t>(c)];
    inverse_from_cholesky(B, L_inverse, E);
    E = d.asDiagonal() * E * d.asDiagonal();
    sum_E += E;
  }
  if (!m.M.compute(sum_E))
    throw NumericalError(
        fmt::format("SoftmaxLaplaceGp: Σ_c E_c ({}×{}) is not positive definite to working "
                    "precision at this f (extreme latent values?)",
                    n, n));
  m.z += 0.5 * m.M.log_determinant();
}

// One Newton step from m.F (factorised): returns a (n×C) with the new f = K a (Algorithm 3.3, lines 11–14).
Tensor newton_step(const Tensor& K, const Tensor& Y, const SoftmaxMode& m) {
  const Index C = m.F.cols();
  // b = W f + y − π, W f at point i = π_i ⊙ f_i − π_i (π_iᵀ f_i).
  const Tensor PiF = m.Pi.cwiseProduct(m.F);
  const Vector pif = PiF.rowwise().sum();
  const Tensor b = PiF - m.Pi.cwiseProduct(pif.replicate(1, C)) + (Y - m.Pi);
  const Tensor Kb = K * b;
  Tensor c(b.rows(), C);
  for (Index k = 0; k < C; ++k) c.col(k) = m.E[static_cast<std::size_t>(k)] * Kb.col(k);
  const Vector v = m.M.solve(Vector(c.rowwise().sum()));  // M⁻ᵀ M⁻¹ Rᵀ c
  Tensor a = b - c;
  for (Index k = 0; k < C; ++k) a.col(k) += m.E[static_cast<std::size_t>(k)] * v;
  return a;
}

SoftmaxMode find_mode(const Tensor& K, const Tensor& Y, const SoftmaxLaplaceOptions& options) {
  const Index n = Y.rows(), C = Y.cols();
  SoftmaxMode m;
  m.F = Tensor::Zero(n, C);
  m.A = Tensor::Zero(n, C);
  Scalar previous = psi(m.A, m.F, Y);
  for (Index it = 0; it < options.newton_max_iterations; ++it) {
    factor_at(K, m);
    m.A = newton_step(K, Y, m);
    m.F = K * m.A;
    const Scalar value = psi(m.A, m.F, Y);
    m.iterations = it + 1;
    if (std::abs(value - previous) < options.newton_tolerance) {
      m.converged = true;
      break;
    }
    previous = value;
  }
  factor_at(K, m);
  m.log_q = psi(m.A, m.F, Y) - m.z;
  return m;
}

void check_labels(const Vector& y, Index C) {
  DAGML_CHECK(C >= 2, "SoftmaxLaplaceGp: C ≥ 2 classes");
  for (Index i = 0; i < y.size(); ++i)
    DAGML_CHECK(y[i] >= 0 && y[i] < static_cast<Scalar>(C) && y[i] == std::floor(y[i]),
                "SoftmaxLaplaceGp: labels in 0..C−1 (checked by the caller)");
}

}  // namespace

// Note [Softmax Laplace gradient]
// log q(θ) = Ψ(f̂(θ), θ) − ½ log |I + K W(f̂)|, and ∂Ψ/∂f̂ = 0 at the mode, so (R&W §5.5.1–5.5.2)
//
//   d log q/dθ = ½ aᵀ ∂K a − ½ tr(R ∂K)                  (explicit, f̂ held fixed)
//              + s₂ᵀ ∂f̂/∂θ                                (implicit, through f̂)
//
// with a = K⁻¹f̂, R = W(I + KW)⁻¹ = (K + W⁻¹)⁻¹ (the derivative of log |I + KW| is tr((I + KW)⁻¹∂K W)).
// The implicit term: s₂ = ∂(−½ log |I + KW|)/∂f̂, component j = −½ tr(Σ ∂W/∂f_j) with
// Σ = (K⁻¹ + W)⁻¹ = K − K R K the Laplace posterior covariance; and differentiating the mode
// condition f̂ = K g(f̂), g = ∇log p(y|f) = y − π, ∂g/∂f = −W, gives (I + KW) ∂f̂ = ∂K g, so
// s₂ᵀ∂f̂ = uᵀ ∂K g with u = (I + WK)⁻¹ s₂ = s₂ − R K s₂. Altogether d log q/dθ = ⟨Ā, ∂K⟩ with
// the nC×nC adjoint Ā = ½ a aᵀ − ½ R + u gᵀ. K = diag(K_x, …, K_x) with the one n×n Gram matrix
// K_x, so ∂K = diag(∂K_x, …) and ⟨Ā, ∂K⟩ = ⟨Σ_c Ā_cc, ∂K_x⟩: the adjoint of K_x is
//
//   K̄ = Σ_c (½ a_c a_cᵀ + u_c g_cᵀ − ½ R_cc) = ½ A Aᵀ + U Gᵀ − ½ Σ_c (E_c − E_c P E_c)
//
// (A, U, G the n×C matrices; R_cc' = δ_cc' E_c − E_c P E_c' with P = (Σ_c E_c)⁻¹ = M⁻ᵀM⁻¹), and
// kernel_graph_gradient turns it into ∂ log q/∂θ.
//
// W is block-diagonal over the points: at point i, W_i = diag(π_i) − π_i π_iᵀ (C×C), and with
// v = ∂π_i/∂f_i^e = π_i ⊙ (e_e − π_i^e 1), ∂W_i/∂f_i^e = diag(v) − v π_iᵀ − π_i vᵀ. So with S_i
// the C×C block of Σ at point i and h_i = diag(S_i) − 2 S_i π_i,
//
//   s₂(i, e) = −½ tr(S_i ∂W_i/∂f_i^e) = −½ vᵀh_i = −½ π_i^e (h_i^e − π_iᵀ h_i),
//
// and S_i[c, c'] = δ_cc' (K_ii − (K E_c K)_ii) + (G_c)_{:,i}ᵀ (G_c')_{:,i} with G_c = M⁻¹ E_c K.
Scalar SoftmaxLaplaceGp::log_marginal_likelihood(const Kernel& kernel, const Tensor& X, const Vector& y,
                                                 Index num_classes, const SoftmaxLaplaceOptions& options,
                                                 Vector* gradient, KernelGramGradient* kernel_gradient) {
  check_labels(y, num_classes);
  const Index n = X.rows(), C = num_classes;
  const Tensor K = kernel.gram(X);
  const Tensor Y = to_one_hot(y, C);
  const SoftmaxMode m = find_mode(K, Y, options);
  if (!gradient) return m.log_q;

  const Tensor G_lik = Y - m.Pi;                       // g
  Tensor R_diagonal_sum = Tensor::Zero(n, n);          // Σ_c R_cc = Σ_c (E_c − F_cᵀF_c), F_c = M⁻¹E_c
  std::vector<Eigen::MatrixXd> G(static_cast<std::size_t>(C));  // M⁻¹ E_c K
  Tensor S_diagonal(n, C);                             // K_ii − (K E_c K)_ii, the first part of S_i[c, c]
  for (Index c = 0; c < C; ++c) {
    const Eigen::MatrixXd& E = m.E[static_cast<std::size_t>(c)];
    Eigen::MatrixXd F = E;  // M⁻¹ E_c
    m.M.solve_lower_in_place(F);
    R_diagonal_sum += E;
    R_diagonal_sum.noalias() -= F.transpose() * F;
    const Tensor EK = E * K;
    S_diagonal.col(c) = K.diagonal() - (K.array() * EK.array()).colwise().sum().transpose().matrix();
    G[static_cast<std::size_t>(c)] = EK;
    m.M.solve_lower_in_place(G[static_cast<std::size_t>(c)]);
  }
  // s₂, point by point.
  Tensor s2(n, C);
  Tensor S(C, C);
  for (Index i = 0; i < n; ++i) {
    for (Index c = 0; c < C; ++c)
      for (Index e = c; e < C; ++e) {
        S(c, e) = G[static_cast<std::size_t>(c)].col(i).dot(G[static_cast<std::size_t>(e)].col(i));
        S(e, c) = S(c, e);
      }
    S.diagonal() += S_diagonal.row(i).transpose();
    const Vector pi = m.Pi.row(i).transpose();
    const Vector h = S.diagonal() - 2 * S * pi;
    const Scalar pih = pi.dot(h);
    for (Index e = 0; e < C; ++e) s2(i, e) = -0.5 * pi[e] * (h[e] - pih);
  }
  // u = s₂ − R K s₂, (R w)_c = E_c w_c − E_c P Σ_c' E_c' w_c'.
  const Tensor w = K * s2;
  Tensor Ew(n, C);
  for (Index c = 0; c < C; ++c) Ew.col(c) = m.E[static_cast<std::size_t>(c)] * w.col(c);
  const Vector v = m.M.solve(Vector(Ew.rowwise().sum()));
  Tensor U = s2 - Ew;
  for (Index c = 0; c < C; ++c) U.col(c) += m.E[static_cast<std::size_t>(c)] * v;
  const Tensor K_adjoint = 0.5 * (m.A * m.A.transpose() - R_diagonal_sum) + U * G_lik.transpose();
  *gradient = kernel_gradient ? (*kernel_gradient)(kernel, K_adjoint) : kernel_graph_gradient(kernel, X, K_adjoint);
  return m.log_q;
}

void SoftmaxLaplaceGp::fit(KernelPtr kernel, const Tensor& X, const Vector& y, Index num_classes,
                           const SoftmaxLaplaceOptions& options) {
  check_labels(y, num_classes);
  const Index n = X.rows(), C = num_classes;
  const Tensor K = kernel->gram(X);
  const Tensor Y = to_one_hot(y, C);
  const SoftmaxMode m = find_mode(K, Y, options);
  kernel_ = std::move(kernel);
  X_ = X;
  gradient_ = Y - m.Pi;
  E_.resize(n, n * C);
  for (Index c = 0; c < C; ++c) E_.middleCols(c * n, n) = m.E[static_cast<std::size_t>(c)];
  M_ = m.M.matrixL();
  mode_ = m.F;
  log_marginal_likelihood_ = m.log_q;
  converged_ = m.converged;
  newton_iterations_ = m.iterations;
}

void SoftmaxLaplaceGp::latent_row(const Vector& k_star, Scalar k_self, Vector& mean, Tensor& covariance) const {
  const Index n = X_.rows(), C = mode_.cols();
  mean = gradient_.transpose() * k_star;
  Tensor H(n, C);  // column c: M⁻¹ E_c k*
  covariance.setZero(C, C);
  for (Index c = 0; c < C; ++c) {
    const Vector b = E_.middleCols(c * n, n) * k_star;
    covariance(c, c) = k_self - b.dot(k_star);
    H.col(c) = M_.triangularView<Eigen::Lower>().solve(b);
  }
  for (Index c = 0; c < C; ++c)
    for (Index e = c; e < C; ++e) {
      const Scalar v = H.col(c).dot(H.col(e));
      covariance(c, e) += v;
      if (e != c) covariance(e, c) = covariance(c, e);
    }
}

void SoftmaxLaplaceGp::latent(const Tensor& X, Tensor& mean, std::vector<Tensor>& covariance) const {
  const Tensor K_star = kernel_->gram(X, X_);  // m×n
  const Index C = mode_.cols();
  mean.resize(X.rows(), C);
  covariance.assign(static_cast<std::size_t>(X.rows()), Tensor());
  tbb::parallel_for(tbb::blocked_range<Index>(0, X.rows(), 16), [&](const tbb::blocked_range<Index>& r) {
    Vector mu;
    for (Index i = r.begin(); i != r.end(); ++i) {
      const Vector x = X.row(i).transpose();
      latent_row(K_star.row(i).transpose(), (*kernel_)(x, x), mu, covariance[static_cast<std::size_t>(i)]);
      mean.row(i) = mu.transpose();
    }
  });
}

Tensor SoftmaxLaplaceGp::probability(const Tensor& X, Index num_samples, std::uint64_t seed) const {
  const Tensor K_star = kernel_->gram(X, X_);
  const Index C = mode_.cols();
  const Tensor draws = antithetic_normal_draws(num_samples, C, seed);
  Tensor P(X.rows(), C);
  // Each row alone (matrix-vector products of fixed sizes), so any split of the rows gives the
  // same bits.
  tbb::parallel_for(tbb::blocked_range<Index>(0, X.rows(), 16), [&](const tbb::blocked_range<Index>& r) {
    Vector mu;
    Tensor sigma;
    for (Index i = r.begin(); i != r.end(); ++i) {
      const Vector x = X.row(i).transpose();
      latent_row(K_star.row(i).transpose(), (*kernel_)(x, x), mu, sigma);
      P.row(i) = softmax_gaussian_average(mu, sigma, draws).transpose();
    }
  });
  return P;
}

bool SoftmaxLaplaceGp::consistent(Index d, Index num_classes) const {
  const Index n = X_.rows(), C = num_classes;
  return kernel_ && n >= 1 && C >= 2 && X_.cols() == d && gradient_.rows() == n && gradient_.cols() == C &&
         E_.rows() == n && E_.cols() == n * C && M_.rows() == n && M_.cols() == n && mode_.rows() == n &&
         mode_.cols() == C && newton_iterations_ >= 0 && X_.allFinite() && gradient_.allFinite() && E_.allFinite() &&
         M_.allFinite() && mode_.allFinite() && (M_.diagonal().array() > 0).all() &&
         std::isfinite(log_marginal_likelihood_);
}

}  // namespace dagml
