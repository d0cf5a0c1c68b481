#include "models/ensemble/bagging_classifier.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>

#include "graph/error.h"
#include "models/classify/score_labels.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<BaggingClassifier, BaggingOptions>;

BaggingClassifier::BaggingClassifier(BaggingOptions options) : Estimator(std::move(options)) {
  bagging::validate_options(options_, Task::Classification, kDefaultEstimator, "BaggingClassifier");
}

BaggingClassifier& BaggingClassifier::fit(const Tensor& X, const Vector& y) {
  const char* who = "BaggingClassifier::fit";
  const Index K = check_classification_data(X, y, who, 1, bagging::members_allow_missing(options_, kDefaultEstimator));
  const Index n = X.rows(), d = X.cols(), B = options_.num_estimators;
  const std::string name = bagging::member_name(options_, kDefaultEstimator);
  const OptionSettings settings = bagging::parse_estimator_options(options_.estimator_options, who);
  std::vector<std::optional<AnyEstimator>> members(static_cast<std::size_t>(B));
  std::vector<std::vector<Index>> features(members.size()), classes(members.size());
  std::vector<std::vector<Index>> rows(members.size());
  tbb::parallel_for(tbb::blocked_range<Index>(0, B, 1), [&](const tbb::blocked_range<Index>& r) {
    for (Index b = r.begin(); b != r.end(); ++b) {
      const auto u = static_cast<std::size_t>(b);
      bagging::MemberSample sample = bagging::draw_member(n, d, options_, b);
      // The classes present, in increasing order, and each row's label among them.
      std::vector<Index> code(static_cast<std::size_t>(K), -1);
      for (Index i : sample.rows) code[static_cast<std::size_t>(y(i))] = 0;
      for (Index k = 0; k < K; ++k) {
        if (code[static_cast<std::size_t>(k)] < 0) continue;
        code[static_cast<std::size_t>(k)] = static_cast<Index>(classes[u].size());
        classes[u].push_back(k);
      }
      if (classes[u].size() > 1) {
        Vector y_b(static_cast<Index>(sample.rows.size()));
        for (Index i = 0; i < y_b.size(); ++i)
          y_b(i) = static_cast<Scalar>(code[static_cast<std::size_t>(y(sample.rows[static_cast<std::size_t>(i)]))]);
        AnyEstimator member = make_estimator(name, settings);
        member.fit(bagging::take(X, sample.rows, sample.features), y_b);
        members[u] = std::move(member);
      }
      features[u] = std::move(sample.features);
      rows[u] = std::move(sample.rows);
    }
  });
  members_ = std::move(members);
  features_ = std::move(features);
  classes_ = std::move(classes);
  num_classes_ = K;
  set_fitted(d);
  oob_score_ = std::numeric_limits<Scalar>::quiet_NaN();
  if (options_.oob_score) {
    Tensor sum = Tensor::Zero(n, K);
    Vector count = Vector::Zero(n);
    for (std::size_t b = 0; b < members_.size(); ++b) {
      const std::vector<Index> out = bagging::out_of_bag_rows(rows[b], n);
      if (out.empty()) continue;
      const Tensor P = member_proba(b, X(out, Eigen::all));
      for (std::size_t r = 0; r < out.size(); ++r) {
        sum.row(out[r]) += P.row(static_cast<Index>(r));
        count(out[r]) += 1;
      }
    }
    const Vector labels = argmax_rows(sum);
    Index covered = 0, correct = 0;
    for (Index i = 0; i < n; ++i) {
      if (count(i) == 0) continue;
      ++covered;
      correct += labels(i) == y(i);
    }
    if (covered > 0) oob_score_ = static_cast<Scalar>(correct) / static_cast<Scalar>(covered);
  }
  return *this;
}

Tensor BaggingClassifier::member_proba(std::size_t b, const Tensor& X) const {
  Tensor P = Tensor::Zero(X.rows(), num_classes_);
  const std::vector<Index>& classes = classes_[b];
  if (!members_[b]) {  // a one-class sample
    P.col(classes.front()).setOnes();
    return P;
  }
  const AnyEstimator& member = *members_[b];
  const Tensor Xb = bagging::take_columns(X, features_[b]);
  if (member.info().capabilities.predict_proba) {
    const Tensor Pb = member.predict_proba(Xb);
    DAGML_CHECK(Pb.cols() == static_cast<Index>(classes.size()), "bagging member {}: {} probability columns for {} classes", b,
                Pb.cols(), classes.size());
    for (std::size_t c = 0; c < classes.size(); ++c) P.col(classes[c]) = Pb.col(static_cast<Index>(c));
  } else {
    const Tensor labels = member.predict(Xb);
    for (Index i = 0; i < X.rows(); ++i) P(i, classes[static_cast<std::size_t>(labels(i, 0))]) = 1;
  }
  return P;
}

Tensor BaggingClassifier::predict_proba(const Tensor& X) const {
  check_input(X, bagging::members_allow_missing(options_, kDefaultEstimator));
  Tensor sum = Tensor::Zero(X.rows(), num_classes_);
  for (std::size_t b = 0; b < members_.size(); ++b) sum += member_proba(b, X);
  return sum / static_cast<Scalar>(members_.size());
}

Vector BaggingClassifier::predict(const Tensor& X) const { return argmax_rows(predict_proba(X)); }

Scalar BaggingClassifier::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

void BaggingClassifier::load_members(const ModelInputArchive& ar, const std::vector<std::string>& bytes) {
  auto fail = [&](const std::string& what) { ar.fail(fmt::format("{}: {}", kTypeName, what)); };
  const Index count = fitted() ? options_.num_estimators : 0;
  if (fitted()) expect_class_count(ar, kTypeName, num_classes_);
  const std::string fault = bagging::check_loaded_features(features_, count, fitted() ? num_features() : 0);
  if (!fault.empty()) fail(fault);
  if (static_cast<Index>(classes_.size()) != count || static_cast<Index>(bytes.size()) != count)
    fail(fmt::format("expected the classes and files of {} members, found {} and {}", count, classes_.size(), bytes.size()));
  const std::string name = bagging::member_name(options_, kDefaultEstimator);
  members_.clear();
  for (std::size_t b = 0; b < bytes.size(); ++b) {
    const std::vector<Index>& c = classes_[b];
    for (std::size_t k = 0; k < c.size(); ++k) {
      if (c[k] < 0 || c[k] >= num_classes_ || (k > 0 && c[k] <= c[k - 1]))
        fail(fmt::format("member {}: expected increasing classes in 0..{}, found {}", b, num_classes_ - 1, c[k]));
    }
    if (c.empty() || (c.size() == 1) != bytes[b].empty())
      fail(fmt::format("member {}: expected an estimator exactly when it has two classes or more, found {} classes and "
                       "{} bytes",
                       b, c.size(), bytes[b].size()));
    members_.push_back(bagging::member_from_bytes(bytes[b], name, b, fail));
  }
}

}  // namespace dagml
