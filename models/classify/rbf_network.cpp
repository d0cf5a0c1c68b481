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
#include "models/classify/score_labels.h"
#include "models/cluster/k_means.h"
#include "models/data/labels.h"
#include "models/data/split.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/kernel/kernel.h"
#include "models/metrics/classification_metrics.h"
#include "optim/graph_objective.h"
#include "optim/lbfgs.h"

namespace dagml {
namespace {
constexpr const char* kName = "RbfNetwork";

// The output layer by L-BFGS on f(W, b) = (1/n)(‖ΦW + 1bᵀ − Y‖²_F + λ‖W‖²_F), from W = 0, b = ȳ.
RbfFitReport fit_by_gradient(const Tensor& Phi, const Tensor& Y, const RbfNetworkOptions& o, Tensor& W, Vector& b) {
  const auto n = static_cast<Scalar>(Phi.rows());
  Graph g;
  const Var P = g.constant(Phi, "Phi"), T = g.constant(Y, "Y");
  const Var w = g.parameter("W", Tensor::Zero(Phi.cols(), Y.cols()));
  const Var bias = g.parameter("b", Tensor(Y.colwise().mean()));
  const Var loss = scale(sum(square(matmul(P, w) + bias - T)), 1 / n) + scale(squared_l2_norm(w), o.l2 / n);
  GraphObjective objective(loss, {w, bias});
  const Result r =
      minimize(objective, objective.parameters_vector(),
               LbfgsOptions{.stop = {.max_iterations = o.max_iter, .gradient_tolerance = o.gradient_tolerance}});
  objective.set_parameters(r.x);
  W = g.parameter_value(w);
  b = g.parameter_value(bias).transpose();
  return {r.iterations, r.converged(), r.value, r.message};
}

}  // namespace

RbfNetwork::RbfNetwork(RbfNetworkOptions options) : options_(std::move(options)) {
  const auto& o = options_;
  if (o.num_centers < 1) throw ValueError(fmt::format("{}: expected num_centers ≥ 1, found {}", kName, o.num_centers));
  if (!(o.gamma > 0) || !std::isfinite(o.gamma))
    throw ValueError(fmt::format("{}: expected gamma > 0, found {}", kName, o.gamma));
  if (!(o.l2 >= 0) || !std::isfinite(o.l2)) throw ValueError(fmt::format("{}: expected l2 ≥ 0, found {}", kName, o.l2));
  if (o.max_iter < 1) throw ValueError(fmt::format("{}: expected max_iter ≥ 1, found {}", kName, o.max_iter));
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
  const Index K = check_classification_data(X, y, who, 0);
  const Index n = X.rows();
  if (options_.centers != RbfCenters::TrainingPoints && options_.num_centers > n)
    throw ValueError(
        fmt::format("{}: expected num_centers ≤ {} (the training set size), found {}", who, n, options_.num_centers));
  fitted_ = false;
  std::vector<Index> rows;
  switch (options_.centers) {
    case RbfCenters::KMeans:
      centers_ = KMeans({.num_clusters = options_.num_centers, .seed = options_.seed}).fit(X).centers();
      break;
    case RbfCenters::TrainingPoints:
      rows = iota_indices(n);
      centers_ = X;
      break;
    case RbfCenters::RandomSubset:
      rows = random_permutation(n, options_.seed);
      rows.resize(static_cast<size_t>(options_.num_centers));
      centers_ = take_rows(X, rows);
      break;
  }
  const Tensor Y = to_one_hot(y, K);
  if (options_.output == RbfOutput::LabelWeights) {
    weights_ = take_rows(Y, rows);
    bias_ = Vector::Zero(K);
    fitted_ = true;
    return *this;
  }
  const Tensor Phi = RbfKernel(options_.gamma).gram(X, centers_);
  report_ = {};
  if (options_.output == RbfOutput::Gradient) {
    report_ = fit_by_gradient(Phi, Y, options_, weights_, bias_);
    fitted_ = true;
    return *this;
  }
  const Eigen::RowVectorXd phi_mean = Phi.colwise().mean(), y_mean = Y.colwise().mean();
  const Tensor Pc = Phi.rowwise() - phi_mean;
  Eigen::MatrixXd A = Pc.transpose() * Pc;
  A.diagonal().array() += options_.l2;
  Eigen::LDLT<Eigen::MatrixXd> ldlt(A);
  const Eigen::MatrixXd rhs = Pc.transpose() * (Y.rowwise() - y_mean);
  weights_ = ldlt.solve(rhs);
  if (ldlt.info() != Eigen::Success || !weights_.allFinite() || !(ldlt.vectorD().minCoeff() > 0)) {
    throw NumericalError(fmt::format(
        "{}: the least-squares system of the output layer is singular (duplicate or distant centres); set l2 > 0",
        who));
  }
  bias_ = (y_mean - phi_mean * weights_).transpose();
  fitted_ = true;
  return *this;
}

Tensor RbfNetwork::features(const Tensor& X) const {
  const char* who = "RbfNetwork::features";
  check_fitted(fitted_, who);
  check_not_empty(X, who);
  check_columns(X, centers_.cols(), who);
  return RbfKernel(options_.gamma).gram(X, centers_);
}

Tensor RbfNetwork::decision_function(const Tensor& X) const {
  Tensor F = features(X) * weights_;
  F.rowwise() += bias_.transpose();
  return F;
}

Vector RbfNetwork::predict(const Tensor& X) const { return argmax_rows(decision_function(X)); }
Scalar RbfNetwork::score(const Tensor& X, const Vector& y) const { return accuracy_score(y, predict(X)); }

const Tensor& RbfNetwork::centers() const {
  check_fitted(fitted_, kName);
  return centers_;
}
const Tensor& RbfNetwork::weights() const {
  check_fitted(fitted_, kName);
  return weights_;
}
const Vector& RbfNetwork::bias() const {
  check_fitted(fitted_, kName);
  return bias_;
}
const RbfFitReport& RbfNetwork::fit_report() const {
  check_fitted(fitted_, kName);
  return report_;
}

void RbfNetwork::save(const std::string& path) const {
  check_fitted(fitted_, "RbfNetwork::save");
  ModelWriter w(kName);
  w.put_scalar("centers_rule", static_cast<Scalar>(static_cast<int>(options_.centers)));
  w.put_scalar("num_centers", static_cast<Scalar>(options_.num_centers));
  w.put_scalar("gamma", options_.gamma);
  w.put_scalar("output", static_cast<Scalar>(static_cast<int>(options_.output)));
  w.put_scalar("l2", options_.l2);
  w.put_text("seed", std::to_string(options_.seed));
  w.put_scalar("max_iter", static_cast<Scalar>(options_.max_iter));
  w.put_scalar("gradient_tolerance", options_.gradient_tolerance);
  w.put_tensor("centers", centers_);
  w.put_tensor("weights", weights_);
  w.put_vector("bias", bias_);
  w.save(path);
}

RbfNetwork RbfNetwork::load(const std::string& path) {
  ModelReader r(path, kName);
  RbfNetworkOptions o;
  o.centers = static_cast<RbfCenters>(static_cast<int>(r.scalar("centers_rule")));
  o.num_centers = static_cast<Index>(r.scalar("num_centers"));
  o.gamma = r.scalar("gamma");
  o.output = static_cast<RbfOutput>(static_cast<int>(r.scalar("output")));
  o.l2 = r.scalar("l2");
  o.seed = std::stoull(r.text("seed"));
  o.max_iter = static_cast<Index>(r.scalar("max_iter"));
  o.gradient_tolerance = r.scalar("gradient_tolerance");
  RbfNetwork m(o);
  m.centers_ = r.tensor("centers");
  m.weights_ = r.tensor("weights");
  m.bias_ = r.vector("bias");
  m.fitted_ = true;
  return m;
}

}  // namespace dagml
