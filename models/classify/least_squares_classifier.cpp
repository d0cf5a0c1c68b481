#include "models/classify/least_squares_classifier.h"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "graph/error.h"
#include "models/classify/score_labels.h"
#include "models/data/labels.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

LeastSquaresClassifier::LeastSquaresClassifier(const LeastSquaresClassifierOptions& options) : options_(options) {
  if (!(options.lambda >= 0) || !std::isfinite(options.lambda))
    throw ValueError(fmt::format("LeastSquaresClassifier: expected lambda ≥ 0, found {}", options.lambda));
}

Tensor LeastSquaresClassifier::features(const Tensor& X, const char* who) const {
  check_finite(X, who);
  if (!options_.feature_map) return X;
  Tensor F = options_.feature_map(X);
  if (F.rows() != X.rows())
    throw ShapeError(fmt::format("{}: the feature map must keep the {} rows, found {}", who, X.rows(), F.rows()));
  check_finite(F, who);
  return F;
}

LeastSquaresClassifier& LeastSquaresClassifier::fit(const Tensor& X, const Vector& y) {
  const char* who = "LeastSquaresClassifier::fit";
  const Index K = check_classification_data(X, y, who);
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
  num_inputs_ = X.cols();
  fitted_ = true;
  return *this;
}

Tensor LeastSquaresClassifier::decision_function(const Tensor& X) const {
  check_fitted(fitted_, "LeastSquaresClassifier::decision_function");
  check_columns(X, num_inputs_, "LeastSquaresClassifier::decision_function");
  const Tensor F = features(X, "LeastSquaresClassifier::decision_function");
  check_columns(F, coef_.rows(), "LeastSquaresClassifier::decision_function (feature map)");
  Tensor S = F * coef_;
  S.rowwise() += intercept_.transpose();
  return S;
}

Vector LeastSquaresClassifier::predict(const Tensor& X) const {
  const Tensor S = decision_function(X);
  return num_classes_ == 2 ? labels_from_scores(S.col(0), options_.zero) : argmax_rows(S);
}

Scalar LeastSquaresClassifier::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

const Tensor& LeastSquaresClassifier::coef() const {
  check_fitted(fitted_, "LeastSquaresClassifier::coef");
  return coef_;
}
const Vector& LeastSquaresClassifier::intercept() const {
  check_fitted(fitted_, "LeastSquaresClassifier::intercept");
  return intercept_;
}
Index LeastSquaresClassifier::num_classes() const {
  check_fitted(fitted_, "LeastSquaresClassifier::num_classes");
  return num_classes_;
}

void LeastSquaresClassifier::save(const std::string& path) const {
  check_fitted(fitted_, "LeastSquaresClassifier::save");
  if (options_.feature_map)
    throw ValueError("LeastSquaresClassifier::save: a model with a feature map cannot be saved (it is a function)");
  ModelWriter w("LeastSquaresClassifier");
  w.put_tensor("coef", coef_);
  w.put_vector("intercept", intercept_);
  w.put_scalar("num_classes", static_cast<Scalar>(num_classes_));
  put_zero_score(w, options_.zero);
  w.save(path);
}

LeastSquaresClassifier LeastSquaresClassifier::load(const std::string& path) {
  const ModelReader r(path, "LeastSquaresClassifier");
  LeastSquaresClassifier m({.zero = read_zero_score(r)});
  m.coef_ = r.tensor("coef");
  m.intercept_ = r.vector("intercept");
  m.num_classes_ = static_cast<Index>(r.scalar("num_classes"));
  m.num_inputs_ = m.coef_.rows();
  m.fitted_ = true;
  return m;
}

}  // namespace dagml
