#include "models/classify/least_squares_classifier.h"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "graph/error.h"
#include "models/classify/class_scores.h"
#include "models/data/labels.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"

namespace dagml {

template class Estimator<LeastSquaresClassifier, LeastSquaresClassifierOptions>;

LeastSquaresClassifier::LeastSquaresClassifier(const LeastSquaresClassifierOptions& options, FeatureMap feature_map)
    : LinearClassifier(options), feature_map_(std::move(feature_map)) {
  if (!(options.lambda >= 0) || !std::isfinite(options.lambda))
    throw ValueError(fmt::format("LeastSquaresClassifier: expected lambda ≥ 0, found {}", options.lambda));
}

Tensor LeastSquaresClassifier::features(const Tensor& X, const char* who) const {
  check_finite(X, who);
  if (!feature_map_) return X;
  Tensor F = feature_map_(X);
  if (F.rows() != X.rows())
    throw ShapeError(fmt::format("{}: the feature map must keep the {} rows, found {}", who, X.rows(), F.rows()));
  check_finite(F, who);
  return F;
}

LeastSquaresClassifier& LeastSquaresClassifier::fit(const Tensor& X, const Vector& y) {
  const char* who = "LeastSquaresClassifier::fit";
  check_not_empty(X, who);
  check_same_rows(X, y, who);
  const Index K = check_classes(y, who);
  const Tensor F = features(X, who);
  const Index n = F.rows(), D = F.cols();
  // Targets: ±1 for two classes, one-hot for more.
  const Tensor Y = K == 2 ? Tensor(2 * y.array() - 1) : to_one_hot(y, K);
  const bool center = options_.fit_intercept && !options_.penalize_intercept;
  Tensor A = F;
  if (options_.fit_intercept && options_.penalize_intercept) {
    A.conservativeResize(n, D + 1);
    A.col(D).setOnes();
  }
  Vector x_mean = Vector::Zero(A.cols()), y_mean = Vector::Zero(Y.cols());
  Tensor Yc = Y;
  if (center) {
    x_mean = A.colwise().mean();
    y_mean = Y.colwise().mean();
    A.rowwise() -= x_mean.transpose();
    Yc.rowwise() -= y_mean.transpose();
  }
  Eigen::MatrixXd W;
  if (options_.lambda > 0) {
    Eigen::MatrixXd G = A.transpose() * A;
    G.diagonal().array() += options_.lambda;
    W = G.ldlt().solve(Eigen::MatrixXd(A.transpose() * Yc));
  } else {
    W = Eigen::MatrixXd(A).completeOrthogonalDecomposition().solve(Eigen::MatrixXd(Yc));
  }
  coef_ = W.topRows(D);
  if (center)
    intercept_ = y_mean - coef_.transpose() * x_mean;
  else if (options_.fit_intercept)
    intercept_ = W.row(D).transpose();
  else
    intercept_ = Vector::Zero(Y.cols());
  num_classes_ = K;
  set_fitted(X.cols());
  return *this;
}

Tensor LeastSquaresClassifier::decision_function(const Tensor& X) const {
  check_input(X);
  const Tensor F = features(X, "LeastSquaresClassifier::decision_function");
  check_columns(F, coef_.rows(), "LeastSquaresClassifier::decision_function (feature map)");
  return scores(F);
}

void LeastSquaresClassifier::check_savable() const {
  if (feature_map_)
    throw ValueError("LeastSquaresClassifier: a model with a feature map cannot be saved (the map is code)");
}

}  // namespace dagml
