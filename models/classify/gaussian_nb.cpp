#include "models/classify/gaussian_nb.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <numbers>

#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {
namespace {
constexpr const char* kName = "GaussianNB";
constexpr Index kRowsPerTask = 64;  // fixed split: results do not depend on the thread count
}  // namespace

GaussianNB::GaussianNB(GaussianNbOptions options) : options_(std::move(options)) {
  if (!(options_.var_smoothing >= 0) || !std::isfinite(options_.var_smoothing))
    throw ValueError(fmt::format("{}: expected var_smoothing ≥ 0, found {}", kName, options_.var_smoothing));
}

GaussianNB& GaussianNB::fit(const Tensor& X, const Vector& y) {
  const Index K = check_classification_data(X, y, "GaussianNB::fit");
  const Index n = X.rows(), d = X.cols();
  fitted_ = false;
  ClassStatistics stats = class_statistics(X, y, K);
  theta_ = stats.means;
  count_ = stats.counts;
  prior_ = resolve_priors(options_.priors, count_, "GaussianNB::fit");
  // Two-pass variances: σ²_kj = (1/n_k) Σ (x_ij − θ_kj)².
  var_ = Tensor::Zero(K, d);
  for (Index i = 0; i < n; ++i) {
    const auto k = static_cast<Index>(y(i));
    var_.row(k).array() += (X.row(i) - theta_.row(k)).array().square();
  }
  var_.array().colwise() /= count_.array();
  const Tensor centred = X.rowwise() - X.colwise().mean();
  epsilon_ = options_.var_smoothing * (centred.array().square().colwise().sum() / static_cast<Scalar>(n)).maxCoeff();
  var_.array() += epsilon_;
  if (!(var_.minCoeff() > 0)) {
    throw NumericalError(fmt::format(
        "{}::fit: a feature is constant within a class, giving a zero variance; set var_smoothing > 0", kName));
  }
  fitted_ = true;
  return *this;
}

Tensor GaussianNB::joint_log_likelihood(const Tensor& X) const {
  const char* who = "GaussianNB::joint_log_likelihood";
  check_fitted(fitted_, who);
  check_not_empty(X, who);
  check_columns(X, theta_.cols(), who);
  if (!options_.skip_missing) {
    check_finite(X, who);
  } else {
    for (Index i = 0; i < X.rows(); ++i) {
      for (Index j = 0; j < X.cols(); ++j) {
        if (std::isinf(X(i, j)))
          throw ValueError(
              fmt::format("{}: expected finite values or NaN, found {} at row {}, column {}", who, X(i, j), i, j));
      }
    }
  }
  const Index K = theta_.rows(), d = theta_.cols();
  const Tensor inv_var = var_.cwiseInverse();
  const Tensor log_norm = (2 * std::numbers::pi * var_).array().log().matrix();  // log(2π σ²_kj)
  const Vector base = prior_.array().log().matrix() - 0.5 * log_norm.rowwise().sum();
  Tensor J(X.rows(), K);
  const Index blocks = (X.rows() + kRowsPerTask - 1) / kRowsPerTask;
  tbb::parallel_for(tbb::blocked_range<Index>(0, blocks, 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index b = r.begin(); b != r.end(); ++b) {
      const Index end = std::min(X.rows(), (b + 1) * kRowsPerTask);
      for (Index i = b * kRowsPerTask; i < end; ++i) {
        const auto x = X.row(i);
        if (!x.hasNaN()) {  // the common case, vectorised: Σ_j (x_j − θ_kj)² / σ²_kj
          for (Index k = 0; k < K; ++k)
            J(i, k) = base(k) - 0.5 * ((x - theta_.row(k)).array().square() * inv_var.row(k).array()).sum();
          continue;
        }
        for (Index k = 0; k < K; ++k) {
          Scalar quad = 0, skipped_norm = 0;
          for (Index j = 0; j < d; ++j) {
            const Scalar diff = x(j) - theta_(k, j);
            if (std::isnan(diff)) {
              skipped_norm += log_norm(k, j);  // marginalised: its normaliser leaves the sum too
              continue;
            }
            quad += diff * diff * inv_var(k, j);
          }
          J(i, k) = base(k) + 0.5 * skipped_norm - 0.5 * quad;
        }
      }
    }
  });
  return J;
}

Vector GaussianNB::predict(const Tensor& X) const { return argmax_rows(joint_log_likelihood(X)); }
Tensor GaussianNB::predict_proba(const Tensor& X) const { return softmax_rows(joint_log_likelihood(X)); }
Tensor GaussianNB::predict_log_proba(const Tensor& X) const { return log_softmax_rows(joint_log_likelihood(X)); }
Scalar GaussianNB::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

const Tensor& GaussianNB::theta() const {
  check_fitted(fitted_, kName);
  return theta_;
}
const Tensor& GaussianNB::var() const {
  check_fitted(fitted_, kName);
  return var_;
}
const Vector& GaussianNB::class_prior() const {
  check_fitted(fitted_, kName);
  return prior_;
}
const Vector& GaussianNB::class_count() const {
  check_fitted(fitted_, kName);
  return count_;
}
Scalar GaussianNB::epsilon() const {
  check_fitted(fitted_, kName);
  return epsilon_;
}

void GaussianNB::save(const std::string& path) const {
  check_fitted(fitted_, "GaussianNB::save");
  ModelWriter w(kName);
  w.put_scalar("var_smoothing", options_.var_smoothing);
  w.put_scalar("skip_missing", options_.skip_missing ? 1 : 0);
  if (options_.priors.size() > 0) w.put_vector("priors_option", options_.priors);
  w.put_tensor("theta", theta_);
  w.put_tensor("var", var_);
  w.put_vector("class_prior", prior_);
  w.put_vector("class_count", count_);
  w.put_scalar("epsilon", epsilon_);
  w.save(path);
}

GaussianNB GaussianNB::load(const std::string& path) {
  ModelReader r(path, kName);
  GaussianNbOptions o;
  o.var_smoothing = r.scalar("var_smoothing");
  o.skip_missing = r.scalar("skip_missing") != 0;
  if (r.has("priors_option")) o.priors = r.vector("priors_option");
  GaussianNB m(o);
  m.theta_ = r.tensor("theta");
  m.var_ = r.tensor("var");
  m.prior_ = r.vector("class_prior");
  m.count_ = r.vector("class_count");
  m.epsilon_ = r.scalar("epsilon");
  m.fitted_ = true;
  return m;
}

}  // namespace dagml
