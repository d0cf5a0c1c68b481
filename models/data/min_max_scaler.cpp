#include "models/data/min_max_scaler.h"

#include <cmath>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<MinMaxScaler, MinMaxScalerOptions>;

MinMaxScaler::MinMaxScaler(const MinMaxScalerOptions& options) : Estimator(options) {
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
  set_fitted(X.cols());
  return *this;
}

Tensor MinMaxScaler::transform(const Tensor& X) const {
  check_input(X);
  return ((X.rowwise() - min_.transpose()).array().rowwise() * scale_.transpose().array() +
          options_.lo)
      .matrix();
}

Tensor MinMaxScaler::fit_transform(const Tensor& X) { return fit(X).transform(X); }

Tensor MinMaxScaler::inverse_transform(const Tensor& Z) const {
  check_input(Z);
  return (((Z.array() - options_.lo).rowwise() / scale_.transpose().array()).matrix().rowwise() +
          min_.transpose());
}

void MinMaxScaler::check_loaded(const ModelInputArchive& ar) const {
  const Index d = fitted() ? num_features() : 0;
  if (min_.size() != d || max_.size() != d || scale_.size() != d) {
    ar.fail(fmt::format("MinMaxScaler: expected data_min, data_max and scale of length {}, found {}, {}, {}", d,
                        min_.size(), max_.size(), scale_.size()));
  }
  for (Index j = 0; j < d; ++j) {
    if (!std::isfinite(min_(j)) || !std::isfinite(max_(j)) || !std::isfinite(scale_(j)) || !(scale_(j) > 0)) {
      ar.fail(fmt::format("MinMaxScaler: expected a finite minimum and maximum and a finite, positive scale, found "
                          "minimum {}, maximum {}, scale {} in column {}",
                          min_(j), max_(j), scale_(j), j));
    }
  }
}

}  // namespace dagml
