#include "models/data/standard_scaler.h"

#include <cmath>

#include "graph/error.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<StandardScaler, StandardScalerOptions>;

Eigen::RowVectorXd column_variances(const Tensor& X) {
  const Eigen::RowVectorXd mean = X.colwise().mean();
  Eigen::RowVectorXd squares = Eigen::RowVectorXd::Zero(X.cols());
  for (Index i = 0; i < X.rows(); ++i) squares.array() += (X.row(i) - mean).array().square();
  return squares / static_cast<Scalar>(X.rows());
}

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
  set_fitted(X.cols());
  return *this;
}

Tensor StandardScaler::transform(const Tensor& X) const {
  check_input(X);
  return ((X.rowwise() - mean_.transpose()).array().rowwise() / scale_.transpose().array())
      .matrix();
}

Tensor StandardScaler::fit_transform(const Tensor& X) { return fit(X).transform(X); }

Tensor StandardScaler::inverse_transform(const Tensor& Z) const {
  check_input(Z);
  return ((Z.array().rowwise() * scale_.transpose().array()).matrix().rowwise() +
          mean_.transpose());
}

void StandardScaler::check_loaded(const ModelInputArchive& ar) const {
  const Index d = fitted() ? num_features() : 0;
  if (mean_.size() != d || variance_.size() != d || scale_.size() != d) {
    ar.fail(fmt::format("StandardScaler: expected mean, variance and scale of length {}, found {}, {}, {}", d,
                        mean_.size(), variance_.size(), scale_.size()));
  }
  for (Index j = 0; j < d; ++j) {
    if (!std::isfinite(mean_(j)) || !std::isfinite(variance_(j)) || !std::isfinite(scale_(j)) || !(scale_(j) > 0)) {
      ar.fail(fmt::format("StandardScaler: expected a finite mean and variance and a finite, positive scale, found "
                          "mean {}, variance {}, scale {} in column {}",
                          mean_(j), variance_(j), scale_(j), j));
    }
  }
}

}  // namespace dagml
