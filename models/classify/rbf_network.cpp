#include "models/classify/rbf_network.h"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <vector>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/norms.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "graph/random.h"
#include "models/classify/class_scores.h"
#include "models/cluster/k_means.h"
#include "models/data/labels.h"
#include "models/data/split.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/kernel/kernel.h"
#include "models/metrics/classification_metrics.h"
#include "optim/graph_objective.h"
#include "optim/lbfgs.h"

namespace dagml {

template class Estimator<RbfNetwork, RbfNetworkOptions>;

namespace {
constexpr const char* kName = "RbfNetwork";

// The output layer by L-BFGS on f(W, b) = (1/n)(‖ΦW + 1bᵀ − Y‖²_F + λ‖W‖²_F), from W = 0, b = ȳ.
RbfFitReport fit_by_gradient(const Tensor& Phi, const Tensor& Y, const RbfNetworkOptions& o, Tensor& W, Vector& b) {
  const auto n = static_cast<Scalar>(Phi.rows());
  Graph g;
  const Var P = g.constant(Phi, "Phi"), T = g.constant(Y, "Y");
  const Var w = g.parameter("W", Tensor::Zero(Phi.cols(), Y.cols()));
  const Var bias = g.parameter("b", Tensor(Y.colwise().mean()));
  const Var loss = scale(sum(square(matmul(P, w) + bias - T)), 1 / n) + scale(squared_l2_norm(w), o.lambda / n);
  GraphObjective objective(loss, {w, bias});
  const Result r =
      minimize(objective, objective.parameters_vector(),
               LbfgsOptions{.stop = {.max_iterations = o.max_iterations, .gradient_tolerance = o.gradient_tolerance}});
  objective.set_parameters(r.x);
  W = g.parameter_value(w);
  b = g.parameter_value(bias).transpose();
  return {r.iterations, r.converged(), r.value, r.message};
}

}  // namespace

RbfNetwork::RbfNetwork(RbfNetworkOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  if (o.num_centers < 1) throw ValueError(fmt::format("{}: expected num_centers ≥ 1, found {}", kName, o.num_centers));
  if (!(o.gamma > 0) || !std::isfinite(o.gamma))
    throw ValueError(fmt::format("{}: expected gamma > 0, found {}", kName, o.gamma));
  if (!(o.lambda >= 0) || !std::isfinite(o.lambda))
    throw ValueError(fmt::format("{}: expected lambda ≥ 0, found {}", kName, o.lambda));
  if (o.max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", kName, o.max_iterations));
  if (!(o.gradient_tolerance > 0))
    throw ValueError(fmt::format("{}: expected gradient_tolerance > 0, found {}", kName, o.gradient_tolerance));
  if (o.output == RbfOutput::LabelWeights && o.centers == RbfCenters::KMeans)
    throw ValueError(
        fmt::format("{}: label weights need centres that are training rows (k-means centroids have no "
                    "label); use TrainingPoints or RandomSubset",
                    kName));
}

RbfNetwork& RbfNetwork::fit(const Tensor& X, const Vector& y) {
  const char* who = "RbfNetwork::fit";
  const Index K = check_classification_data(X, y, who, false);
  const Index n = X.rows();
  if (options_.centers != RbfCenters::TrainingPoints && options_.num_centers > n)
    throw ValueError(
        fmt::format("{}: expected num_centers ≤ {} (the training set size), found {}", who, n, options_.num_centers));
  // The fit goes into locals, so that one that throws leaves the model as it was.
  Tensor centers, weights;
  Vector bias;
  RbfFitReport report;
  std::vector<Index> rows;
  switch (options_.centers) {
    case RbfCenters::KMeans:
      centers = KMeans({.num_clusters = options_.num_centers, .seed = options_.seed}).fit(X).centers();
      break;
    case RbfCenters::TrainingPoints:
      rows = iota_indices(n);
      centers = X;
      break;
    case RbfCenters::RandomSubset:
      rows = random_permutation(n, options_.seed);
      rows.resize(static_cast<size_t>(options_.num_centers));
      centers = take_rows(X, rows);
      break;
  }
  const Tensor Y = to_one_hot(y, K);
  if (options_.output == RbfOutput::LabelWeights) {
    weights = take_rows(Y, rows);
    bias = Vector::Zero(K);
  } else if (options_.output == RbfOutput::Gradient) {
    report = fit_by_gradient(RbfKernel(options_.gamma).gram(X, centers), Y, options_, weights, bias);
  } else {
    const Tensor Phi = RbfKernel(options_.gamma).gram(X, centers);
    const Eigen::RowVectorXd phi_mean = Phi.colwise().mean(), y_mean = Y.colwise().mean();
    const Tensor Pc = Phi.rowwise() - phi_mean;
    Eigen::MatrixXd A = Pc.transpose() * Pc;
    A.diagonal().array() += options_.lambda;
    Eigen::LDLT<Eigen::MatrixXd> ldlt(A);
    const Eigen::MatrixXd rhs = Pc.transpose() * (Y.rowwise() - y_mean);
    weights = ldlt.solve(rhs);
    if (ldlt.info() != Eigen::Success || !weights.allFinite() || !(ldlt.vectorD().minCoeff() > 0)) {
      throw NumericalError(fmt::format(
          "{}: the least-squares system of the output layer is singular (duplicate or distant centres); set "
          "lambda > 0",
          who));
    }
    bias = (y_mean - phi_mean * weights).transpose();
  }
  centers_ = std::move(centers);
  weights_ = std::move(weights);
  bias_ = std::move(bias);
  report_ = std::move(report);
  set_fitted(X.cols());
  return *this;
}

Tensor RbfNetwork::features(const Tensor& X) const {
  check_input(X);
  return RbfKernel(options_.gamma).gram(X, centers_);
}

Tensor RbfNetwork::decision_function(const Tensor& X) const {
  Tensor F = features(X) * weights_;
  F.rowwise() += bias_.transpose();
  return F;
}

Vector RbfNetwork::predict(const Tensor& X) const { return argmax_rows(decision_function(X)); }
Scalar RbfNetwork::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

void RbfNetwork::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Index K = bias_.size(), M = centers_.rows();
  if (K < 2) ar.fail(fmt::format("{}: expected at least two classes, found {}", kTypeName, K));
  expect_shape(ar, kTypeName, "centers", centers_, M, num_features());
  expect_shape(ar, kTypeName, "weights", weights_, M, K);
}

}  // namespace dagml
