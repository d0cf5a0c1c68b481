#include "models/classify/categorical_nb.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {
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

CategoricalNB::CategoricalNB(CategoricalNbOptions options) : options_(std::move(options)) {
  if (!(options_.alpha >= 0) || !std::isfinite(options_.alpha))
    throw ValueError(fmt::format("{}: expected alpha ≥ 0, found {}", kName, options_.alpha));
  if (options_.num_categories < 0)
    throw ValueError(fmt::format("{}: expected num_categories ≥ 0, found {}", kName, options_.num_categories));
}

CategoricalNB& CategoricalNB::fit(const Tensor& X, const Vector& y) {
  const char* who = "CategoricalNB::fit";
  const Index K = check_classification_data(X, y, who);
  check_categories(X, who, nullptr);
  fitted_ = false;
  const Index d = X.cols();
  Vector counts = Vector::Zero(K);
  for (Index i = 0; i < y.size(); ++i) counts(static_cast<Index>(y(i))) += 1;
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
  const Vector prior = options_.fit_prior ? resolve_priors(options_.priors, counts, who)
                                          : resolve_priors(options_.priors, Vector::Ones(K), who);
  class_log_prior_ = prior.array().log().matrix();
  fitted_ = true;
  return *this;
}

Tensor CategoricalNB::joint_log_likelihood(const Tensor& X) const {
  const char* who = "CategoricalNB::joint_log_likelihood";
  check_fitted(fitted_, who);
  check_not_empty(X, who);
  check_columns(X, categories_.size(), who);
  check_finite(X, who);
  check_categories(X, who, &categories_);
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

const Vector& CategoricalNB::num_categories() const {
  check_fitted(fitted_, kName);
  return categories_;
}
const std::vector<Tensor>& CategoricalNB::feature_log_prob() const {
  check_fitted(fitted_, kName);
  return log_prob_;
}
const Vector& CategoricalNB::class_log_prior() const {
  check_fitted(fitted_, kName);
  return class_log_prior_;
}

void CategoricalNB::save(const std::string& path) const {
  check_fitted(fitted_, "CategoricalNB::save");
  ModelWriter w(kName);
  w.put_scalar("alpha", options_.alpha);
  w.put_scalar("num_categories_option", static_cast<Scalar>(options_.num_categories));
  w.put_scalar("fit_prior", options_.fit_prior ? 1 : 0);
  if (options_.priors.size() > 0) w.put_vector("priors_option", options_.priors);
  w.put_vector("num_categories", categories_);
  w.put_vector("class_log_prior", class_log_prior_);
  for (size_t j = 0; j < log_prob_.size(); ++j) w.put_tensor(fmt::format("log_prob_{}", j), log_prob_[j]);
  w.save(path);
}

CategoricalNB CategoricalNB::load(const std::string& path) {
  ModelReader r(path, kName);
  CategoricalNbOptions o;
  o.alpha = r.scalar("alpha");
  o.num_categories = static_cast<Index>(r.scalar("num_categories_option"));
  o.fit_prior = r.scalar("fit_prior") != 0;
  if (r.has("priors_option")) o.priors = r.vector("priors_option");
  CategoricalNB m(o);
  m.categories_ = r.vector("num_categories");
  m.class_log_prior_ = r.vector("class_log_prior");
  for (Index j = 0; j < m.categories_.size(); ++j) m.log_prob_.push_back(r.tensor(fmt::format("log_prob_{}", j)));
  m.fitted_ = true;
  return m;
}

}  // namespace dagml
