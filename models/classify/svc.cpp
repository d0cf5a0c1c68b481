#include "models/classify/svc.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<SVC, SVCOptions>;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

bool builtin_kernel(const Kernel& k) {
  return dynamic_cast<const LinearKernel*>(&k) || dynamic_cast<const PolynomialKernel*>(&k) ||
         dynamic_cast<const RbfKernel*>(&k);
}

// scikit-learn's gamma="scale": 1 / (d · Var(X)), the variance over all entries.
KernelPtr default_kernel(const Tensor& X) {
  const Scalar mean = X.mean();
  const Scalar var = (X.array() - mean).square().mean();
  const Scalar gamma = var > 0 ? 1.0 / (static_cast<Scalar>(X.cols()) * var) : 1.0;
  return std::make_shared<RbfKernel>(gamma);
}

// The SMO matrix of the pair (a, b) from its kernel blocks, class a's rows first (sign −1):
// Q = [[K_aa, −K_ab], [−K_abᵀ, K_bb]].
Tensor pair_matrix(const Eigen::Ref<const Tensor>& Kaa, const Eigen::Ref<const Tensor>& Kab,
                   const Eigen::Ref<const Tensor>& Kbb) {
  const Index na = Kaa.rows(), nb = Kbb.rows();
  Tensor Q(na + nb, na + nb);
  Q.topLeftCorner(na, na) = Kaa;
  Q.topRightCorner(na, nb) = -Kab;
  Q.bottomLeftCorner(nb, na) = -Kab.transpose();
  Q.bottomRightCorner(nb, nb) = Kbb;
  return Q;
}

// The smallest eigenvalue of a symmetric Gram matrix must not be below −1e-10 · n · max|K|.
void check_psd(const Tensor& K, const std::string& kernel_name) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(Eigen::MatrixXd(K), Eigen::EigenvaluesOnly);
  const Scalar smallest = eig.eigenvalues().minCoeff();
  const Scalar bound = -1e-10 * static_cast<Scalar>(K.rows()) * std::max<Scalar>(1, K.cwiseAbs().maxCoeff());
  if (smallest < bound || !(K - K.transpose()).isZero(1e-10 * std::max<Scalar>(1, K.cwiseAbs().maxCoeff())))
    throw ValueError(
        fmt::format("SVC::fit: kernel {} must give a symmetric positive semi-definite Gram matrix; "
                    "found smallest eigenvalue {:.6g}",
                    kernel_name, smallest));
}

}  // namespace

SVC::SVC(const SVCOptions& options) : Estimator(options) {
  if (!(options.C > 0) || !std::isfinite(options.C))
    throw ValueError(fmt::format("SVC: expected C > 0, found {}", options.C));
  if (!(options.nu >= 0 && options.nu <= 1))
    throw ValueError(fmt::format("SVC: expected nu in [0, 1], found {}", options.nu));
  if (!(options.tolerance > 0))
    throw ValueError(fmt::format("SVC: expected tolerance > 0, found {}", options.tolerance));
  if (options.max_iterations < -1)
    throw ValueError(fmt::format("SVC: expected max_iterations ≥ −1, found {}", options.max_iterations));
  if (!(options.cache_mb > 0)) throw ValueError(fmt::format("SVC: expected cache_mb > 0, found {}", options.cache_mb));
}

SVC& SVC::fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
  const char* who = "SVC::fit";
  const Index K = check_classification_data(X, y, who);
  const Index n = X.rows();
  kernel_ = options_.kernel ? options_.kernel : default_kernel(X);
  const double budget = options_.cache_mb * kMiB;
  const bool custom = !builtin_kernel(*kernel_);

  // Rows grouped by class (stable), as LIBSVM does: each pair's rows are then two contiguous
  // runs, class a's then class b's.
  std::vector<Index> order, start(static_cast<size_t>(K) + 1, 0);
  for (Index k = 0; k < K; ++k) {
    start[static_cast<size_t>(k)] = static_cast<Index>(order.size());
    for (Index i = 0; i < n; ++i)
      if (y(i) == k) order.push_back(i);
  }
  start[static_cast<size_t>(K)] = n;
  Tensor Xs(n, X.cols());
  for (Index i = 0; i < n; ++i) Xs.row(i) = X.row(order[static_cast<size_t>(i)]);

  // Note [SVM kernel cache]: one Gram matrix shared by all pairs when it fits (or when the
  // kernel is custom and must be checked for positive semi-definiteness anyway); else, with
  // K > 2, each class's own block when those fit in half the budget.
  auto bytes = [](Index rows, Index cols) { return 8.0 * static_cast<double>(rows) * static_cast<double>(cols); };
  Tensor gram;
  std::vector<Tensor> class_gram;
  if (custom || (K > 2 && bytes(n, n) <= budget)) {
    gram = kernel_->gram(Xs);
  } else if (K > 2) {
    auto count = [&](Index k) { return start[static_cast<size_t>(k) + 1] - start[static_cast<size_t>(k)]; };
    double total = 0;
    for (Index k = 0; k < K; ++k) total += bytes(count(k), count(k));
    if (total <= budget / 2)
      for (Index k = 0; k < K; ++k)
        class_gram.push_back(kernel_->gram(Xs.middleRows(start[static_cast<size_t>(k)], count(k))));
  }
  if (custom) check_psd(gram, kernel_->name());

  const Index P = K * (K - 1) / 2;
  std::vector<std::pair<Index, Index>> pairs;
  for (Index a = 0; a < K; ++a)
    for (Index b = a + 1; b < K; ++b) pairs.emplace_back(a, b);
  std::vector<std::vector<Index>> rows(static_cast<size_t>(P));
  std::vector<Vector> alpha_y(static_cast<size_t>(P));  // αᵢyᵢ on the pair's rows
  Vector rho(P);
  slacks_.assign(static_cast<size_t>(P), Vector());
  report_.assign(static_cast<size_t>(P), SvmPairReport{});
  const Scalar C = options_.half_norm ? options_.C : options_.C / 2;
  const SmoOptions smo{.tolerance = options_.tolerance, .max_iterations = options_.max_iterations};
  auto rows_of = [&](Index k) { return start[static_cast<size_t>(k) + 1] - start[static_cast<size_t>(k)]; };
  Index max_steps = 0;  // the fit's SMO iterations at most, for the callbacks' progress display
  for (const auto& [a, b] : pairs) max_steps += smo_iteration_limit(smo, rows_of(a) + rows_of(b));
  CallbackRunner session(callbacks, max_steps);

  // Pairs are independent: solved in parallel, each deterministically; one after the other, in
  // pair order, while callbacks watch (they see one run, Note [Iteration loop]).
  auto solve_pairs = [&](const tbb::blocked_range<Index>& range) {
    for (Index p = range.begin(); p != range.end(); ++p) {
      const auto [a, b] = pairs[static_cast<size_t>(p)];
      const Index sa = start[static_cast<size_t>(a)], na = start[static_cast<size_t>(a) + 1] - sa;
      const Index sb = start[static_cast<size_t>(b)], nb = start[static_cast<size_t>(b) + 1] - sb;
      const Index m = na + nb;
      auto& r = rows[static_cast<size_t>(p)];
      r.assign(order.begin() + sa, order.begin() + sa + na);
      r.insert(r.end(), order.begin() + sb, order.begin() + sb + nb);
      Vector s(m);
      s.head(na).setConstant(-1);
      s.tail(nb).setConstant(1);
      Tensor Xp;
      std::unique_ptr<SvmKernelCache> Q;
      if (gram.size() > 0) {
        Q = std::make_unique<SvmKernelCache>(
            pair_matrix(gram.block(sa, sa, na, na), gram.block(sa, sb, na, nb), gram.block(sb, sb, nb, nb)));
      } else if (!class_gram.empty()) {
        const Tensor cross = kernel_->gram(Xs.middleRows(sa, na), Xs.middleRows(sb, nb));
        Q = std::make_unique<SvmKernelCache>(
            pair_matrix(class_gram[static_cast<size_t>(a)], cross, class_gram[static_cast<size_t>(b)]));
      } else {
        Xp.resize(m, X.cols());
        Xp.topRows(na) = Xs.middleRows(sa, na);
        Xp.bottomRows(nb) = Xs.middleRows(sb, nb);
        Q = std::make_unique<SvmKernelCache>(*kernel_, Xp, s, budget);
      }
      CallbackRunner* watch = session.watched() ? &session : nullptr;
      const SmoResult res = options_.nu > 0 ? smo_solve_nu(*Q, s, options_.nu, smo, watch)
                                            : smo_solve_c(*Q, s, Vector::Constant(m, C), smo, watch);
      alpha_y[static_cast<size_t>(p)] = res.alpha.cwiseProduct(s);
      rho(p) = res.rho;
      // yᵢ f(xᵢ) = (Qα)ᵢ − yᵢρ, with (Qα)ᵢ accumulated from the support vectors' rows.
      Vector margin = -res.rho * s;
      for (Index i = 0; i < m; ++i)
        if (res.alpha(i) > 0) margin += res.alpha(i) * Eigen::Map<const Vector>(Q->row(i), m);
      slacks_[static_cast<size_t>(p)] = (1 - margin.array()).max(0).matrix();
      report_[static_cast<size_t>(p)] = {a,
                                         b,
                                         res.iterations,
                                         res.converged(),
                                         res.violation,
                                         res.objective,
                                         (res.alpha.array() > 0).count(),
                                         res.status,
                                         res.message};
    }
  };
  if (session.watched()) {
    solve_pairs(tbb::blocked_range<Index>(0, P, 1));
  } else {
    tbb::parallel_for(tbb::blocked_range<Index>(0, P, 1), solve_pairs);
  }
  // The fit's result: CallbackStop if a callback stopped it, else MaxIterations if a pair ran out
  // of iterations, else GradientTolerance (every pair passed its KKT test).
  result_ = Result();
  result_.status = Status::GradientTolerance;
  result_.gradient_norm = 0;
  for (const SvmPairReport& r : report_) {
    result_.iterations += r.iterations;
    result_.value += r.objective;
    result_.gradient_norm = std::max(result_.gradient_norm, r.violation);
    if (r.status == Status::CallbackStop || (r.status == Status::MaxIterations && result_.converged()))
      result_.status = r.status;
  }
  result_.message = result_.status == Status::CallbackStop ? session.stop_reason()
                    : result_.converged()
                        ? fmt::format("converged: every pair's KKT violation < tol ({} SMO iterations)",
                                      result_.iterations)
                        : fmt::format("not converged: a pair reached max_iterations ({} SMO iterations)", result_.iterations);
  session.end(result_);

  // The union of support vectors, grouped by class then by row.
  std::vector<Index> position(static_cast<size_t>(n), -1);
  std::vector<bool> is_support(static_cast<size_t>(n), false);
  for (Index p = 0; p < P; ++p)
    for (size_t i = 0; i < rows[static_cast<size_t>(p)].size(); ++i)
      if (alpha_y[static_cast<size_t>(p)](static_cast<Index>(i)) != 0)
        is_support[static_cast<size_t>(rows[static_cast<size_t>(p)][i])] = true;
  support_.clear();
  num_support_.assign(static_cast<size_t>(K), 0);
  for (Index k = 0; k < K; ++k)
    for (Index i = 0; i < n; ++i)
      if (is_support[static_cast<size_t>(i)] && y(i) == k) {
        position[static_cast<size_t>(i)] = static_cast<Index>(support_.size());
        support_.push_back(i);
        ++num_support_[static_cast<size_t>(k)];
      }
  const Index nsv = static_cast<Index>(support_.size());
  support_vectors_.resize(nsv, X.cols());
  for (Index s = 0; s < nsv; ++s) support_vectors_.row(s) = X.row(support_[static_cast<size_t>(s)]);
  dual_coef_ = Tensor::Zero(nsv, P);
  for (Index p = 0; p < P; ++p)
    for (size_t i = 0; i < rows[static_cast<size_t>(p)].size(); ++i) {
      const Scalar c = alpha_y[static_cast<size_t>(p)](static_cast<Index>(i));
      if (c != 0) dual_coef_(position[static_cast<size_t>(rows[static_cast<size_t>(p)][i])], p) = c;
    }
  intercept_ = -rho;
  num_classes_ = K;
  set_fitted(X.cols());
  return *this;
}

Tensor SVC::decision_function(const Tensor& X) const {
  check_input(X);
  Tensor D = kernel_->gram(X, support_vectors_) * dual_coef_;
  D.rowwise() += intercept_.transpose();
  return D;
}

Vector SVC::predict(const Tensor& X) const {
  const Tensor D = decision_function(X);
  if (num_classes_ == 2) return labels_from_scores(D.col(0), options_.zero);
  return labels_from_pair_votes(D, num_classes_);
}

Scalar SVC::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

Tensor SVC::coef() const {
  require_fitted();
  if (!dynamic_cast<const LinearKernel*>(kernel_.get()))
    throw ValueError(fmt::format("SVC::coef: w is only available for the linear kernel, found {}", kernel_->name()));
  return dual_coef_.transpose() * support_vectors_;
}
const Vector& SVC::slacks(Index pair) const {
  require_fitted();
  if (pair < 0 || pair >= static_cast<Index>(slacks_.size()))
    throw ValueError(fmt::format("SVC::slacks: expected a pair index in 0..{}, found {}", slacks_.size() - 1, pair));
  return slacks_[static_cast<size_t>(pair)];
}
bool SVC::converged() const {
  return std::all_of(fit_report().begin(), fit_report().end(), [](const SvmPairReport& r) { return r.converged; });
}
void SVC::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Index K = num_classes_, nsv = support_vectors_.rows();
  expect_class_count(ar, kTypeName, K);
  const Index P = K * (K - 1) / 2;
  if (!kernel_) ar.fail(fmt::format("{}: expected the kernel of a fitted model, found none", kTypeName));
  expect_shape(ar, kTypeName, "support_vectors", support_vectors_, nsv, num_features());
  expect_shape(ar, kTypeName, "dual_coef", dual_coef_, nsv, P);
  expect_size(ar, kTypeName, "intercept", intercept_, P);
  Index total = 0;  // stays ≤ 2·nsv: each count is checked before it is added
  for (Index c : num_support_) {
    if (c < 0 || c > nsv) ar.fail(fmt::format("{}: expected per-class support counts in 0..{}, found {}", kTypeName, nsv, c));
    total += c;
  }
  if (static_cast<Index>(support_.size()) != nsv || static_cast<Index>(num_support_.size()) != K || total != nsv)
    ar.fail(
        fmt::format("{}: expected {} support indices and {} per-class counts summing to them, found {} and {} "
                    "summing to {}",
                    kTypeName, nsv, K, support_.size(), num_support_.size(), total));
  if (static_cast<Index>(slacks_.size()) != P)
    ar.fail(fmt::format("{}: expected the slacks of {} pairs, found {}", kTypeName, P, slacks_.size()));
}

}  // namespace dagml
