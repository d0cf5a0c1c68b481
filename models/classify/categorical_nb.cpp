#include "models/classify/categorical_nb.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<CategoricalNB, CategoricalNBOptions>;

namespace {

constexpr const char* kName = "CategoricalNB";

// Throws ValueError naming `who` unless every entry is an integer ≥ 0 (and < C_j when given).
void check_categories(const Tensor& X, const char* who, const Vector* limits) {
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      const Scalar v = X(i, j);
      if (!(v >= 0) || v != std::floor(v))
        throw ValueError(
            fmt::format("{}: expected a category (an integer ≥ 0), found {} at row {}, column {}", who, v, i, j));
      if (limits && v >= (*limits)(j))
        throw ValueError(fmt::format("{}: feature {} has categories 0..{} at fit, found {} at row {}", who, j,
                                     (*limits)(j)-1, v, i));
    }
  }
}

}  // namespace

CategoricalNB::CategoricalNB(CategoricalNBOptions options) : Estimator(std::move(options)) {
  if (!(options_.alpha >= 0) || !std::isfinite(options_.alpha))
    throw ValueError(fmt::format("{}: expected alpha ≥ 0, found {}", kName, options_.alpha));
  if (options_.num_categories < 0)
    throw ValueError(fmt::format("{}: expected num_categories ≥ 0, found {}", kName, options_.num_categories));
}

CategoricalNB& CategoricalNB::fit(const Tensor& X, const Vector& y) {
  const char* who = "CategoricalNB::fit";
  const Index K = check_classification_data(X, y, who);
  check_categories(X, who, nullptr);
  const Index d = X.cols();
  Vector counts = Vector::Zero(K);
  for (Index i = 0; i < y.size(); ++i) counts(static_cast<Index>(y(i))) += 1;
  const Vector prior = options_.fit_prior ? resolve_priors(options_.priors, counts, who)
                                          : resolve_priors(options_.priors, Vector::Ones(K), who);
  categories_.resize(d);
  log_prob_.clear();
  for (Index j = 0; j < d; ++j) {
    const auto C = std::max(options_.num_categories, static_cast<Index>(X.col(j).maxCoeff()) + 1);
    categories_(j) = static_cast<Scalar>(C);
    Tensor N = Tensor::Zero(K, C);  // N_kjc
    for (Index i = 0; i < X.rows(); ++i) N(static_cast<Index>(y(i)), static_cast<Index>(X(i, j))) += 1;
    // log θ_kjc = log(N_kjc + α) − log(n_k + α C_j)
    Tensor lp = (N.array() + options_.alpha).log().matrix();
    lp.colwise() -= (counts.array() + options_.alpha * static_cast<Scalar>(C)).log().matrix();
    log_prob_.push_back(std::move(lp));
  }
  class_log_prior_ = prior.array().log().matrix();
  set_fitted(d);
  return *this;
}

Tensor CategoricalNB::joint_log_likelihood(const Tensor& X) const {
  check_input(X);
  check_categories(X, "CategoricalNB::joint_log_likelihood", &categories_);
  Tensor J(X.rows(), class_log_prior_.size());
  J.rowwise() = class_log_prior_.transpose();
  for (Index j = 0; j < X.cols(); ++j)
    for (Index i = 0; i < X.rows(); ++i)
      J.row(i) += log_prob_[static_cast<size_t>(j)].col(static_cast<Index>(X(i, j))).transpose();
  return J;
}

Vector CategoricalNB::predict(const Tensor& X) const { return argmax_rows(joint_log_likelihood(X)); }
Tensor CategoricalNB::predict_proba(const Tensor& X) const { return softmax_rows(joint_log_likelihood(X)); }
Tensor CategoricalNB::predict_log_proba(const Tensor& X) const { return log_softmax_rows(joint_log_likelihood(X)); }
Scalar CategoricalNB::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

void CategoricalNB::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Index K = class_log_prior_.size(), d = num_features();
  if (K < 2) ar.fail(fmt::format("{}: expected at least two classes, found {}", kTypeName, K));
  expect_size(ar, kTypeName, "num_categories", categories_, d);
  if (static_cast<Index>(log_prob_.size()) != d)
    ar.fail(fmt::format("{}: expected {} tables of log-probabilities, found {}", kTypeName, d, log_prob_.size()));
  for (Index j = 0; j < d; ++j) {
    const Tensor& table = log_prob_[static_cast<size_t>(j)];
    const Scalar C = categories_(j);
    if (!(C >= 1) || C != static_cast<Scalar>(table.cols()) || table.rows() != K)
      ar.fail(fmt::format("{}: expected feature {} to have C ≥ 1 categories and a {}×C table, found C = {} and {}×{}",
                          kTypeName, j, K, C, table.rows(), table.cols()));
  }
}

}  // namespace dagml
