#include "models/data/min_max_scaler.h"

#include <cmath>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {

MinMaxScaler::MinMaxScaler(const MinMaxScalerOptions& options) : options_(options) {
  if (!(std::isfinite(options.lo) && std::isfinite(options.hi) && options.lo < options.hi)) {
    throw ValueError(fmt::format("MinMaxScaler: expected a finite range lo < hi, found [{}, {}]",
                                 options.lo, options.hi));
  }
}

MinMaxScaler& MinMaxScaler::fit(const Tensor& X) {
  check_fit_data(X, "MinMaxScaler::fit");
  min_ = X.colwise().minCoeff().transpose();
  max_ = X.colwise().maxCoeff().transpose();
  scale_.resize(X.cols());
  const double width = options_.hi - options_.lo;
  for (Index j = 0; j < X.cols(); ++j) {
    const double range = max_(j) - min_(j);
    // A range that overflows to infinity (columns spanning ±1e308) would give s = 0.
    if (!std::isfinite(range)) {
      throw ValueError(
          fmt::format("MinMaxScaler::fit: expected column ranges that fit in a double, "
                      "found [{}, {}] in column {}",
                      min_(j), max_(j), j));
    }
    scale_(j) = width / (range > 0 ? range : 1.0);
  }
  fitted_ = true;
  return *this;
}

Tensor MinMaxScaler::transform(const Tensor& X) const {
  check_fitted(fitted_, "MinMaxScaler::transform");
  check_columns(X, min_.size(), "MinMaxScaler::transform");
  check_finite(X, "MinMaxScaler::transform");
  return ((X.rowwise() - min_.transpose()).array().rowwise() * scale_.transpose().array() +
          options_.lo)
      .matrix();
}

Tensor MinMaxScaler::fit_transform(const Tensor& X) { return fit(X).transform(X); }

Tensor MinMaxScaler::inverse_transform(const Tensor& Z) const {
  check_fitted(fitted_, "MinMaxScaler::inverse_transform");
  check_columns(Z, min_.size(), "MinMaxScaler::inverse_transform");
  check_finite(Z, "MinMaxScaler::inverse_transform");
  return (((Z.array() - options_.lo).rowwise() / scale_.transpose().array()).matrix().rowwise() +
          min_.transpose());
}

Index MinMaxScaler::num_features() const {
  check_fitted(fitted_, "MinMaxScaler::num_features");
  return min_.size();
}

const Vector& MinMaxScaler::data_min() const {
  check_fitted(fitted_, "MinMaxScaler::data_min");
  return min_;
}

const Vector& MinMaxScaler::data_max() const {
  check_fitted(fitted_, "MinMaxScaler::data_max");
  return max_;
}

const Vector& MinMaxScaler::scale() const {
  check_fitted(fitted_, "MinMaxScaler::scale");
  return scale_;
}

void MinMaxScaler::save_to(ModelWriter& writer, const std::string& prefix) const {
  check_fitted(fitted_, "MinMaxScaler::save_to");
  writer.put_scalar(prefix + "lo", options_.lo);
  writer.put_scalar(prefix + "hi", options_.hi);
  writer.put_vector(prefix + "data_min", min_);
  writer.put_vector(prefix + "data_max", max_);
  writer.put_vector(prefix + "scale", scale_);
}

MinMaxScaler MinMaxScaler::load_from(const ModelReader& reader, const std::string& prefix) {
  MinMaxScaler s({.lo = reader.scalar(prefix + "lo"), .hi = reader.scalar(prefix + "hi")});
  s.min_ = reader.vector(prefix + "data_min");
  s.max_ = reader.vector(prefix + "data_max");
  s.scale_ = reader.vector(prefix + "scale");
  const Index d = s.min_.size();
  if (s.max_.size() != d || s.scale_.size() != d) {
    throw ValueError(fmt::format(
        "MinMaxScaler::load_from: expected '{0}data_min', '{0}data_max' and '{0}scale' of one length, found {1}, "
        "{2}, {3}",
        prefix, d, s.max_.size(), s.scale_.size()));
  }
  for (Index j = 0; j < d; ++j) {
    if (!std::isfinite(s.min_(j)) || !std::isfinite(s.max_(j)) || !std::isfinite(s.scale_(j)) || !(s.scale_(j) > 0)) {
      throw ValueError(
          fmt::format("MinMaxScaler::load_from: expected a finite minimum and maximum and a finite, positive "
                      "scale, found minimum {}, maximum {}, scale {} in column {} of '{}'",
                      s.min_(j), s.max_(j), s.scale_(j), j, prefix));
    }
  }
  s.fitted_ = true;
  return s;
}

}  // namespace dagml
