#include "models/classify/gaussian_nb.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <numbers>

#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/classify/score_labels.h"
#include "models/data/standard_scaler.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<GaussianNB, GaussianNBOptions>;

namespace {
constexpr const char* kGaussianNBName = "GaussianNB";
constexpr Index kScoreRowsPerTask = 64;  // fixed split: results do not depend on the thread count
}  // namespace

GaussianNB::GaussianNB(GaussianNBOptions options) : Estimator(std::move(options)) {
  if (!(options_.var_smoothing >= 0) || !std::isfinite(options_.var_smoothing))
    throw ValueError(fmt::format("{}: expected var_smoothing ≥ 0, found {}", kGaussianNBName, options_.var_smoothing));
}

GaussianNB& GaussianNB::fit(const Tensor& X, const Vector& y) {
  const Index K = check_classification_data(X, y, "GaussianNB::fit");
  const Index n = X.rows(), d = X.cols();
  ClassStatistics stats = class_statistics(X, y, K);
  Vector prior = resolve_priors(options_.priors, stats.counts, "GaussianNB::fit");
  // Two-pass variances: σ²_kj = (1/n_k) Σ (x_ij − θ_kj)².
  Tensor var = Tensor::Zero(K, d);
  for (Index i = 0; i < n; ++i) {
    const auto k = static_cast<Index>(y(i));
    var.row(k).array() += (X.row(i) - stats.means.row(k)).array().square();
  }
  var.array().colwise() /= stats.counts.array();
  const Scalar epsilon = options_.var_smoothing * column_variances(X).maxCoeff();
  var.array() += epsilon;
  if (!(var.minCoeff() > 0)) {
    throw NumericalError(
        fmt::format("{}::fit: a feature is constant within a class, giving a zero variance; set var_smoothing > 0",
                    kGaussianNBName));
  }
  theta_ = std::move(stats.means);
  count_ = std::move(stats.counts);
  prior_ = std::move(prior);
  var_ = std::move(var);
  epsilon_ = epsilon;
  set_fitted(d);
  return *this;
}

Tensor GaussianNB::joint_log_likelihood(const Tensor& X) const {
  const char* who = "GaussianNB::joint_log_likelihood";
  check_input(X, /*allow_nan=*/options_.skip_missing);
  if (options_.skip_missing) {
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
  const Index blocks = (X.rows() + kScoreRowsPerTask - 1) / kScoreRowsPerTask;
  tbb::parallel_for(tbb::blocked_range<Index>(0, blocks, 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index b = r.begin(); b != r.end(); ++b) {
      const Index end = std::min(X.rows(), (b + 1) * kScoreRowsPerTask);
      for (Index i = b * kScoreRowsPerTask; i < end; ++i) {
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

void GaussianNB::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Index K = prior_.size(), d = num_features();
  if (K < 2) ar.fail(fmt::format("{}: expected at least two classes, found {}", kTypeName, K));
  expect_shape(ar, kTypeName, "theta", theta_, K, d);
  expect_shape(ar, kTypeName, "var", var_, K, d);
  expect_size(ar, kTypeName, "class_count", count_, K);
  if (!(var_.array() > 0).all() || !var_.allFinite())
    ar.fail(fmt::format("{}: expected positive finite variances, found the smallest {}", kTypeName, var_.minCoeff()));
}

}  // namespace dagml
