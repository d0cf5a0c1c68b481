#include "models/ensemble/bagging_regressor.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/regression_metrics.h"

namespace dagml {

template class Estimator<BaggingRegressor, BaggingOptions>;

BaggingRegressor::BaggingRegressor(BaggingOptions options) : Estimator(std::move(options)) {
  bagging::validate_options(options_, Task::Regression, kDefaultEstimator, "BaggingRegressor");
}

BaggingRegressor& BaggingRegressor::fit(const Tensor& X, const Vector& y) {
  const char* who = "BaggingRegressor::fit";
  check_regression_data(X, y, who, 1, bagging::members_allow_missing(options_, kDefaultEstimator));
  const Index n = X.rows(), d = X.cols(), B = options_.num_estimators;
  const std::string name = bagging::member_name(options_, kDefaultEstimator);
  const OptionSettings settings = bagging::parse_estimator_options(options_.estimator_options, who);
  std::vector<std::optional<AnyEstimator>> members(static_cast<std::size_t>(B));
  std::vector<std::vector<Index>> features(members.size()), rows(members.size());
  tbb::parallel_for(tbb::blocked_range<Index>(0, B, 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index b = r.begin(); b != r.end(); ++b) {
      const auto u = static_cast<std::size_t>(b);
      bagging::MemberSample sample = bagging::draw_member(n, d, options_, b);
      AnyEstimator member = make_estimator(name, settings);
      member.fit(bagging::take(X, sample.rows, sample.features), y(sample.rows));
      members[u] = std::move(member);
      features[u] = std::move(sample.features);
      rows[u] = std::move(sample.rows);
    }
  });
  members_ = std::move(members);
  features_ = std::move(features);
  set_fitted(d);
  oob_score_ = std::numeric_limits<Scalar>::quiet_NaN();
  if (options_.oob_score) {
    Vector sum = Vector::Zero(n), count = Vector::Zero(n);
    for (std::size_t b = 0; b < members_.size(); ++b) {
      const std::vector<Index> out = bagging::out_of_bag_rows(rows[b], n);
      if (out.empty()) continue;
      const Vector p = member_predict(b, X(out, Eigen::all));
      for (std::size_t r = 0; r < out.size(); ++r) {
        sum(out[r]) += p(static_cast<Index>(r));
        count(out[r]) += 1;
      }
    }
    std::vector<Index> covered;
    for (Index i = 0; i < n; ++i)
      if (count(i) > 0) covered.push_back(i);
    if (covered.size() > 1) {
      const Vector mean = sum(covered).array() / count(covered).array();
      oob_score_ = r2_score(y(covered), mean);
    }
  }
  return *this;
}

Vector BaggingRegressor::member_predict(std::size_t b, const Tensor& X) const {
  return members_[b]->predict(bagging::take_columns(X, features_[b])).col(0);
}

Vector BaggingRegressor::predict(const Tensor& X) const {
  check_input(X, bagging::members_allow_missing(options_, kDefaultEstimator));
  Vector sum = Vector::Zero(X.rows());
  for (std::size_t b = 0; b < members_.size(); ++b) sum += member_predict(b, X);
  return sum / static_cast<Scalar>(members_.size());
}

Scalar BaggingRegressor::score(const Tensor& X, const Vector& y) const { return r2_score(y, predict(X)); }

void BaggingRegressor::load_members(const ModelInputArchive& ar, const std::vector<std::string>& bytes) {
  auto fail = [&](const std::string& what) { ar.fail(fmt::format("{}: {}", kTypeName, what)); };
  const Index count = fitted() ? options_.num_estimators : 0;
  const std::string fault = bagging::check_loaded_features(features_, count, fitted() ? num_features() : 0);
  if (!fault.empty()) fail(fault);
  if (static_cast<Index>(bytes.size()) != count)
    fail(fmt::format("expected the files of {} members, found {}", count, bytes.size()));
  const std::string name = bagging::member_name(options_, kDefaultEstimator);
  members_.clear();
  for (std::size_t b = 0; b < bytes.size(); ++b) {
    if (bytes[b].empty()) fail(fmt::format("member {}: expected an estimator, found none", b));
    members_.push_back(bagging::member_from_bytes(bytes[b], name, b, fail));
  }
}

}  // namespace dagml
