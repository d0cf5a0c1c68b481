#include "models/kernel/kernel_ridge.h"

#include <Eigen/Cholesky>
#include <cmath>

#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/regression_metrics.h"

namespace dagml {

KernelRidge::KernelRidge(const KernelRidgeOptions& options) : options_(options) {
  if (!options.kernel) throw ValueError("KernelRidge: expected a kernel, found a null pointer");
  if (!(options.lambda >= 0) || !std::isfinite(options.lambda)) {
    throw ValueError(fmt::format("KernelRidge: expected lambda ≥ 0 and finite, found {}", options.lambda));
  }
}

KernelRidge& KernelRidge::fit(const Tensor& X, const Vector& y) {
  const char* who = "KernelRidge::fit";
  check_regression_data(X, y, who);
  Eigen::MatrixXd A = options_.kernel->gram(X);
  A.diagonal().array() += options_.lambda;
  const Eigen::LLT<Eigen::MatrixXd> llt(A);
  if (llt.info() != Eigen::Success) {
    throw NumericalError(
        fmt::format("{}: K + λI is not positive definite (kernel {}, lambda {}); use lambda > 0 "
                    "and a positive semi-definite kernel",
                    who, options_.kernel->name(), options_.lambda));
  }
  alpha_ = llt.solve(y);
  X_ = X;
  fitted_ = true;
  return *this;
}

Vector KernelRidge::predict(const Tensor& X) const {
  check_fitted(fitted_, "KernelRidge::predict");
  check_columns(X, X_.cols(), "KernelRidge::predict");
  check_finite(X, "KernelRidge::predict");
  return options_.kernel->gram(X, X_) * alpha_;
}

Scalar KernelRidge::score(const Tensor& X, const Vector& y) const {
  const Vector prediction = predict(X);
  check_same_rows(X, y, "KernelRidge::score");
  return r2_score(y, prediction);
}

const Vector& KernelRidge::dual_coef() const {
  check_fitted(fitted_, "KernelRidge::dual_coef");
  return alpha_;
}

const Tensor& KernelRidge::training_data() const {
  check_fitted(fitted_, "KernelRidge::training_data");
  return X_;
}

void KernelRidge::save(const std::string& path) const {
  check_fitted(fitted_, "KernelRidge::save");
  ModelWriter writer("KernelRidge");
  writer.put_scalar("lambda", options_.lambda);
  writer.put_vector("dual_coef", alpha_);
  writer.put_tensor("training_data", X_);
  const Kernel& k = *options_.kernel;
  if (const auto* p = dynamic_cast<const PolynomialKernel*>(&k)) {
    writer.put_text("kernel", "polynomial");
    writer.put_tensor("kernel_parameters", (Tensor(1, 3) << p->degree(), p->gamma(), p->coef0()).finished());
  } else if (const auto* r = dynamic_cast<const RbfKernel*>(&k)) {
    writer.put_text("kernel", "rbf");
    writer.put_tensor("kernel_parameters", scalar_tensor(r->gamma()));
  } else if (dynamic_cast<const LinearKernel*>(&k)) {
    writer.put_text("kernel", "linear");
  } else {
    writer.put_text("kernel", "custom " + k.name());
  }
  writer.save(path);
}

KernelRidge KernelRidge::load(const std::string& path, KernelPtr custom_kernel) {
  const ModelReader reader(path, "KernelRidge");
  const std::string& kind = reader.text("kernel");
  KernelPtr kernel;
  if (kind == "linear") {
    kernel = std::make_shared<LinearKernel>();
  } else if (kind == "polynomial") {
    const Tensor p = reader.tensor("kernel_parameters");
    kernel = std::make_shared<PolynomialKernel>(static_cast<int>(p(0, 0)), p(0, 1), p(0, 2));
  } else if (kind == "rbf") {
    kernel = std::make_shared<RbfKernel>(reader.scalar("kernel_parameters"));
  } else if (custom_kernel) {
    kernel = std::move(custom_kernel);
  } else {
    throw ValueError(
        fmt::format("KernelRidge::load: {} was saved with the user-supplied kernel '{}'; pass that kernel "
                    "as custom_kernel",
                    path, kind.substr(kind.find(' ') + 1)));
  }
  KernelRidge model({.kernel = kernel, .lambda = reader.scalar("lambda")});
  model.alpha_ = reader.vector("dual_coef");
  model.X_ = reader.tensor("training_data");
  model.fitted_ = true;
  return model;
}

}  // namespace dagml
