#include "models/data/label_encoder.h"

#include <algorithm>
#include <vector>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {

LabelEncoder& LabelEncoder::fit(const Vector& y) {
  if (y.size() == 0) throw ValueError("LabelEncoder::fit: expected at least one label, found none");
  check_finite(y, "LabelEncoder::fit");
  std::vector<double> values(y.data(), y.data() + y.size());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  classes_ = Eigen::Map<const Vector>(values.data(), static_cast<Index>(values.size()));
  fitted_ = true;
  return *this;
}

Vector LabelEncoder::transform(const Vector& y) const {
  check_fitted(fitted_, "LabelEncoder::transform");
  check_finite(y, "LabelEncoder::transform");
  const double* begin = classes_.data();
  const double* end = begin + classes_.size();
  Vector out(y.size());
  for (Index i = 0; i < y.size(); ++i) {
    const double* it = std::lower_bound(begin, end, y(i));
    if (it == end || *it != y(i)) {
      throw ValueError(
          fmt::format("LabelEncoder::transform: expected one of the {} classes seen at fit, "
                      "found {} at row {}",
                      classes_.size(), y(i), i));
    }
    out(i) = static_cast<double>(it - begin);
  }
  return out;
}

Vector LabelEncoder::fit_transform(const Vector& y) { return fit(y).transform(y); }

Vector LabelEncoder::inverse_transform(const Vector& labels) const {
  check_fitted(fitted_, "LabelEncoder::inverse_transform");
  check_labels(labels, "LabelEncoder::inverse_transform", classes_.size());
  Vector out(labels.size());
  for (Index i = 0; i < labels.size(); ++i) out(i) = classes_(static_cast<Index>(labels(i)));
  return out;
}

const Vector& LabelEncoder::classes() const {
  check_fitted(fitted_, "LabelEncoder::classes");
  return classes_;
}

Index LabelEncoder::num_classes() const { return classes().size(); }

}  // namespace dagml
