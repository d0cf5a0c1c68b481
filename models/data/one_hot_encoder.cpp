#include "models/data/one_hot_encoder.h"

#include "graph/error.h"
#include "models/data/labels.h"
#include "models/data/validate.h"

namespace dagml {

OneHotEncoder::OneHotEncoder(const OneHotEncoderOptions& options) : options_(options) {
  if (options.num_classes < 0) {
    throw ValueError(
        fmt::format("OneHotEncoder: expected num_classes ≥ 0, found {}", options.num_classes));
  }
}

OneHotEncoder& OneHotEncoder::fit(const Vector& y) {
  if (y.size() == 0)
    throw ValueError("OneHotEncoder::fit: expected at least one label, found none");
  num_classes_ = check_labels(y, "OneHotEncoder::fit", options_.num_classes);
  fitted_ = true;
  return *this;
}

Tensor OneHotEncoder::transform(const Vector& y) const {
  check_fitted(fitted_, "OneHotEncoder::transform");
  check_labels(y, "OneHotEncoder::transform", num_classes_);
  return to_one_hot(y, num_classes_);
}

Tensor OneHotEncoder::fit_transform(const Vector& y) { return fit(y).transform(y); }

Vector OneHotEncoder::inverse_transform(const Tensor& one_hot) const {
  check_fitted(fitted_, "OneHotEncoder::inverse_transform");
  check_columns(one_hot, num_classes_, "OneHotEncoder::inverse_transform");
  return from_one_hot(one_hot);
}

Index OneHotEncoder::num_classes() const {
  check_fitted(fitted_, "OneHotEncoder::num_classes");
  return num_classes_;
}

}  // namespace dagml
