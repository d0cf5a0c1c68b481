#include "models/gp/binary_laplace_gp.h"

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "autodiff/blocked_cholesky.h"
#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/executor.h"

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

// The graph of kernel_graph_gradient with θ and K̄ as leaves, and its replay.
struct KernelGramGradient::Replay {
  Graph graph;
  std::vector<Var> blocks, derivatives;
  Var adjoint;
  std::optional<Executor> executor;
  Index size = 0;  // of θ
};

KernelGramGradient::KernelGramGradient(const Kernel& kernel, const Tensor& X) {
  auto r = std::make_unique<Replay>();
  r->blocks = kernel.log_hyperparameter_nodes(r->graph, true);
  if (r->blocks.empty()) return;
  const Var rows = r->graph.constant(X);
  r->adjoint = r->graph.input("K_adjoint", Tensor::Zero(X.rows(), X.rows()));
  const Var inner = sum(kernel.gram_graph({rows, rows, true}, r->blocks) * r->adjoint);
  r->derivatives = gradients(inner, r->blocks);
  r->executor.emplace(r->graph, r->derivatives);
  r->size = kernel.free_log_hyperparameters().size();
  replay_ = std::move(r);
}

KernelGramGradient::~KernelGramGradient() = default;

Vector KernelGramGradient::operator()(const Kernel& at, const Tensor& K_adjoint) {
  if (!replay_) return Vector();
  Replay& r = *replay_;
  // The leaves get exactly the values log_hyperparameter_nodes would give `at`'s graph.
  std::size_t next = 0;
  for (const KernelHyperparameter& h : at.hyperparameters()) {
    if (h.fixed) continue;
    if (next >= r.blocks.size())
      throw ShapeError(fmt::format("KernelGramGradient: expected {} free hyperparameter blocks (those of the "
                                   "kernel it was built for), found more in {}", r.blocks.size(), at.name()));
    r.executor->feed(r.blocks[next++], h.value.array().log().matrix().transpose());
  }
  if (next != r.blocks.size())
    throw ShapeError(fmt::format("KernelGramGradient: expected {} free hyperparameter blocks, found {} in {}",
                                 r.blocks.size(), next, at.name()));
  r.executor->feed(r.adjoint, K_adjoint);
  r.executor->run();
  Vector gradient(r.size);
  Index i = 0;
  for (const Var& d : r.derivatives)
    for (Index k = 0; k < d.value().size(); ++k) gradient[i++] = d.value().data()[k];
  return gradient;
}

namespace detail {

// The Newton iterate of Algorithm 3.1 and the factorisation at it.
struct BinaryLaplaceMode {
  Vector f, a, pi, sqrt_w;
  Eigen::MatrixXd L;  // B = I + W½ K W½ at f, factorised in place: its Cholesky factor is the lower triangle
  Scalar log_q = 0;

  auto lower() const { return L.triangularView<Eigen::Lower>(); }
  auto upper() const { return L.transpose().triangularView<Eigen::Upper>(); }  // Lᵀ
  Scalar log_det_L() const { return L.diagonal().array().log().sum(); }      // Σ log Lᵢᵢ
};

}  // namespace detail

namespace {

using LaplaceMode = detail::BinaryLaplaceMode;

// log p(t | f) = Σ −log(1 + e^{−yf}), y = 2t − 1, without overflow.
Scalar log_likelihood(const Vector& t, const Vector& f) {
  Scalar sum = 0;
  for (Index i = 0; i < f.size(); ++i) {
    const Scalar z = (2 * t[i] - 1) * f[i];
    sum -= z > 0 ? std::log1p(std::exp(-z)) : -z + std::log1p(std::exp(z));
  }
  return sum;
}

// π, W½ and the factor of B at f (in m.L's storage, reused from call to call). B's lower triangle
// only (all the factorisation reads), by column tiles in parallel (fixed tiles: the same bits for
// any thread count), then factorised in place (Note [Blocked Cholesky]).
void factor_at(const Tensor& K, const Vector& f, LaplaceMode& m) {
  m.pi = f.unaryExpr([](Scalar v) { return v >= 0 ? 1 / (1 + std::exp(-v)) : std::exp(v) / (1 + std::exp(v)); });
  m.sqrt_w = (m.pi.array() * (1 - m.pi.array())).sqrt();
  const Index n = K.rows();
  m.L.resize(n, n);
  tbb::parallel_for(Index{0}, (n + kCholeskyTile - 1) / kCholeskyTile, [&](Index J) {
    const Index c = J * kCholeskyTile, w = std::min(kCholeskyTile, n - c);
    m.L.block(c, c, n - c, w).noalias() =
        m.sqrt_w.segment(c, n - c).asDiagonal() * K.block(c, c, n - c, w) * m.sqrt_w.segment(c, w).asDiagonal();
  });
  m.L.diagonal().array() += 1;
  DAGML_CHECK(cholesky_in_place(m.L), "B = I + W½KW½ has eigenvalues ≥ 1 and must factorise");
}

// Algorithm 3.1 from f = 0, or from m.f when `from_previous` and m.f has n entries (Note [Warm
// mode search]); at the end W, B and L are those of the final f̂. `m` may hold the buffers of an
// earlier search (their values are not used, m.f's but when starting from it).
void find_mode(const Tensor& K, const Vector& t, const BinaryLaplaceOptions& options, LaplaceMode& m,
               bool from_previous = false) {
  if (!from_previous || m.f.size() != t.size()) m.f = Vector::Zero(t.size());
  Scalar previous = -std::numeric_limits<Scalar>::infinity();
  for (Index it = 0; it < options.newton_max_iterations; ++it) {
    factor_at(K, m.f, m);
    const Vector b = m.sqrt_w.cwiseProduct(m.sqrt_w).cwiseProduct(m.f) + (t - m.pi);
    const Vector c = m.lower().solve(m.sqrt_w.cwiseProduct(K * b));
    m.a = b - m.sqrt_w.cwiseProduct(m.upper().solve(c));
    m.f = K * m.a;
    const Scalar log_q = -0.5 * m.a.dot(m.f) + log_likelihood(t, m.f) - m.log_det_L();
    if (log_q - previous < options.newton_tolerance) break;
    previous = log_q;
  }
  factor_at(K, m.f, m);
  m.log_q = -0.5 * m.a.dot(m.f) + log_likelihood(t, m.f) - m.log_det_L();
}

}  // namespace

// The buffers of one Evaluator: the mode search's, Algorithm 5.1's and the kernel's gradient graph.
struct BinaryLaplaceGp::Evaluator::Workspace {
  Workspace(const Kernel& kernel, const Tensor& X) : kernel_gradient(kernel, X) {}
  KernelGramGradient kernel_gradient;
  LaplaceMode mode;
  Eigen::MatrixXd L_inverse, B_inverse, R;
  Tensor K, K_adjoint;
};

BinaryLaplaceGp::Evaluator::Evaluator(const Kernel& kernel, Tensor X, Vector t, BinaryLaplaceOptions options)
    : X_(std::move(X)), t_(std::move(t)), options_(options),
      work_(std::make_unique<Workspace>(kernel, X_)) {}

BinaryLaplaceGp::Evaluator::~Evaluator() = default;

// Algorithm 5.1 as an adjoint of K: with R = W½ B⁻¹ W½ and g = t − π̂,
//   K̄ = ½ a aᵀ − ½ R + u gᵀ,  u = s₂ − R K s₂,
//   s₂ = −½ diag((K⁻¹ + W)⁻¹) ⊙ ∂W/∂f̂,  ∂W/∂f = π(1 − π)(1 − 2π) = −∇³log p
// (the derivative of −½ log|B| in f̂, written with W's derivative so that its sign is unambiguous;
// finite differences and scikit-learn agree with it, see the tests). R&W compute diag((K⁻¹ + W)⁻¹)
// as diag K − diag CᵀC with C = L⁻¹ W½ K, a third n³ step. Since W½ K W½ = B − I,
//   W½ (K⁻¹ + W)⁻¹ W½ = W½ (K − K R K) W½ = (B − I) − (B − I) B⁻¹ (B − I) = I − B⁻¹,
// so diag((K⁻¹ + W)⁻¹) ⊙ W = 1 − diag B⁻¹ and s₂ = −½ (1 − diag B⁻¹) ⊙ (1 − 2π): B⁻¹, which R
// needs anyway, gives s₂ too, without a division by W (which may underflow to 0; then both
// sides are 0). B⁻¹ comes from L⁻¹ (inverse_from_cholesky), about ⅔ n³ flops against the 3 n³ of
// R = W½ L⁻ᵀ L⁻¹ W½ by two triangular solves plus C.
Scalar BinaryLaplaceGp::Evaluator::evaluate(const Kernel& at, Vector* gradient) {
  Workspace& w = *work_;
  at.gram_into(X_, w.K);
  const Tensor& K = w.K;
  LaplaceMode& m = w.mode;
  find_mode(K, t_, options_, m, options_.warm_start);
  if (gradient) {
    const Vector g = t_ - m.pi;
    inverse_from_cholesky(m.L, w.L_inverse, w.B_inverse);
    w.R.resize(K.rows(), K.cols());
    w.R.noalias() = m.sqrt_w.asDiagonal() * w.B_inverse * m.sqrt_w.asDiagonal();
    const Vector s2 =
        (-0.5 * (1 - w.B_inverse.diagonal().array()) * (1 - 2 * m.pi.array())).matrix();
    const Vector u = s2 - w.R * (K * s2);
    w.K_adjoint.resize(K.rows(), K.cols());
    // Entry by entry (lazyProduct), without n×n temporaries for the outer products.
    w.K_adjoint.noalias() = 0.5 * (m.a.lazyProduct(m.a.transpose()) - w.R) + u.lazyProduct(g.transpose());
    *gradient = w.kernel_gradient(at, w.K_adjoint);
  }
  return m.log_q;
}

Scalar BinaryLaplaceGp::log_marginal_likelihood(const Kernel& kernel, const Tensor& X, const Vector& t,
                                                const BinaryLaplaceOptions& options, Vector* gradient) {
  if (!gradient) {
    LaplaceMode m;
    find_mode(kernel.gram(X), t, options, m);
    return m.log_q;
  }
  return Evaluator(kernel, X, t, options).evaluate(kernel, gradient);
}

void BinaryLaplaceGp::fit(KernelPtr kernel, const Tensor& X, const Vector& t, const BinaryLaplaceOptions& options) {
  LaplaceMode m;
  find_mode(kernel->gram(X), t, options, m);
  kernel_ = std::move(kernel);
  X_ = X;
  gradient_ = t - m.pi;
  sqrt_w_ = m.sqrt_w;
  L_ = m.lower();
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
