#include "models/data/standard_scaler.h"

#include <cmath>

#include "graph/error.h"
#include "models/data/validate.h"

namespace dagml {

StandardScaler& StandardScaler::fit(const Tensor& X) {
  check_fit_data(X, "StandardScaler::fit");
  const Index n = X.rows(), d = X.cols();
  mean_.setZero(d);
  variance_.setZero(d);
  scale_.setOnes(d);
  for (Index j = 0; j < d; ++j) {
    const auto col = X.col(j);
    const bool constant = col.minCoeff() == col.maxCoeff();
    const double nd = static_cast<double>(n);
    double mu = col(0);
    double sd = 0;
    if (!constant) {
      mu = col.sum() / nd;
      if (!std::isfinite(mu)) mu = (col.array() / nd).sum();  // the sum overflowed
      // σ = a·√((1/n) Σ ((x − μ)/a)²) with a = max |x − μ|: no overflow for huge values.
      const double a = (col.array() - mu).abs().maxCoeff();
      sd = a * std::sqrt(((col.array() - mu) / a).square().sum() / nd);
    }
    variance_(j) = sd * sd;
    if (options_.with_mean) mean_(j) = mu;
    if (options_.with_std && !constant) scale_(j) = sd;
  }
  fitted_ = true;
  return *this;
}

Tensor StandardScaler::transform(const Tensor& X) const {
  check_fitted(fitted_, "StandardScaler::transform");
  check_columns(X, mean_.size(), "StandardScaler::transform");
  check_finite(X, "StandardScaler::transform");
  return ((X.rowwise() - mean_.transpose()).array().rowwise() / scale_.transpose().array())
      .matrix();
}

Tensor StandardScaler::fit_transform(const Tensor& X) { return fit(X).transform(X); }

Tensor StandardScaler::inverse_transform(const Tensor& Z) const {
  check_fitted(fitted_, "StandardScaler::inverse_transform");
  check_columns(Z, mean_.size(), "StandardScaler::inverse_transform");
  check_finite(Z, "StandardScaler::inverse_transform");
  return ((Z.array().rowwise() * scale_.transpose().array()).matrix().rowwise() +
          mean_.transpose());
}

Index StandardScaler::num_features() const {
  check_fitted(fitted_, "StandardScaler::num_features");
  return mean_.size();
}

const Vector& StandardScaler::mean() const {
  check_fitted(fitted_, "StandardScaler::mean");
  return mean_;
}

const Vector& StandardScaler::variance() const {
  check_fitted(fitted_, "StandardScaler::variance");
  return variance_;
}

const Vector& StandardScaler::scale() const {
  check_fitted(fitted_, "StandardScaler::scale");
  return scale_;
}

void StandardScaler::save_to(ModelWriter& writer, const std::string& prefix) const {
  check_fitted(fitted_, "StandardScaler::save_to");
  writer.put_scalar(prefix + "with_mean", options_.with_mean ? 1 : 0);
  writer.put_scalar(prefix + "with_std", options_.with_std ? 1 : 0);
  writer.put_vector(prefix + "mean", mean_);
  writer.put_vector(prefix + "variance", variance_);
  writer.put_vector(prefix + "scale", scale_);
}

StandardScaler StandardScaler::load_from(const ModelReader& reader, const std::string& prefix) {
  StandardScaler s(
      {.with_mean = reader.scalar(prefix + "with_mean") != 0, .with_std = reader.scalar(prefix + "with_std") != 0});
  s.mean_ = reader.vector(prefix + "mean");
  s.variance_ = reader.vector(prefix + "variance");
  s.scale_ = reader.vector(prefix + "scale");
  const Index d = s.mean_.size();
  if (s.variance_.size() != d || s.scale_.size() != d) {
    throw ValueError(
        fmt::format("StandardScaler::load_from: expected '{0}mean', '{0}variance' and '{0}scale' of one length, found "
                    "{1}, {2}, {3}",
                    prefix, d, s.variance_.size(), s.scale_.size()));
  }
  for (Index j = 0; j < d; ++j) {
    if (!std::isfinite(s.mean_(j)) || !std::isfinite(s.variance_(j)) || !std::isfinite(s.scale_(j)) ||
        !(s.scale_(j) > 0)) {
      throw ValueError(
          fmt::format("StandardScaler::load_from: expected a finite mean and variance and a finite, positive "
                      "scale, found mean {}, variance {}, scale {} in column {} of '{}'",
                      s.mean_(j), s.variance_(j), s.scale_(j), j, prefix));
    }
  }
  s.fitted_ = true;
  return s;
}

}  // namespace dagml
