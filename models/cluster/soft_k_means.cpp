#include "models/cluster/soft_k_means.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/error.h"
#include "models/classify/score_labels.h"
#include "models/cluster/k_means.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/kernel/kernel.h"
#include "optim/iteration_loop.h"

namespace dagml {

template class Estimator<SoftKMeans, SoftKMeansOptions>;

namespace {

constexpr const char* kSoftKMeansName = "SoftKMeans";

// −β‖x_i − c_k‖², n×K.
Tensor soft_k_means_scores(const Tensor& X, const Tensor& centers, Scalar beta) {
  return -beta * kernel_distances_squared(LinearKernel(), X, centers).cwiseMax(0);
}

// E(c) = −(1/β) Σ_i log Σ_k exp(s_ik), from the scores s = −β D².
Scalar soft_k_means_energy(const Tensor& scores, Scalar beta) {
  Scalar total = 0;
  for (Index i = 0; i < scores.rows(); ++i) {
    const Scalar m = scores.row(i).maxCoeff();
    total += m + std::log((scores.row(i).array() - m).exp().sum());
  }
  return -total / beta;
}

Vector flatten_rows(const Tensor& M) { return Eigen::Map<const Vector>(M.data(), M.size()); }

}  // namespace

SoftKMeans::SoftKMeans(SoftKMeansOptions options) : CenterClustering(std::move(options)) {
  const auto& o = options_;
  if (o.num_clusters < 1)
    throw ValueError(fmt::format("{}: expected num_clusters ≥ 1, found {}", kSoftKMeansName, o.num_clusters));
  if (!(o.beta > 0) || !std::isfinite(o.beta))
    throw ValueError(fmt::format("{}: expected a finite beta > 0, found {}", kSoftKMeansName, o.beta));
  if (o.max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", kSoftKMeansName, o.max_iterations));
  if (!(o.tolerance >= 0))
    throw ValueError(fmt::format("{}: expected tolerance ≥ 0, found {}", kSoftKMeansName, o.tolerance));
  if (o.init == SoftKMeansInit::Given) {
    if (o.initial_centers.rows() != o.num_clusters || o.initial_centers.cols() == 0)
      throw ValueError(fmt::format("{}: expected {} initial_centers rows for init = given, found {}×{}",
                                   kSoftKMeansName, o.num_clusters, o.initial_centers.rows(),
                                   o.initial_centers.cols()));
    check_finite(o.initial_centers, kSoftKMeansName);
  }
}

SoftKMeans& SoftKMeans::fit(const Tensor& X, const CallbackList& callbacks) {
  const char* who = "SoftKMeans::fit";
  check_fit_data(X, who);
  const auto& o = options_;
  const Index K = o.num_clusters;
  if (X.rows() < K)
    throw ValueError(fmt::format("{}: expected at least num_clusters = {} samples, found {}", who, K, X.rows()));
  Tensor C;
  if (o.init == SoftKMeansInit::Given) {
    check_columns(o.initial_centers, X.cols(), who);
    C = o.initial_centers;
  } else {
    C = KMeans({.num_clusters = K, .seed = o.seed}).fit(X).centers();
  }

  Tensor S = soft_k_means_scores(X, C, o.beta);
  Scalar energy = soft_k_means_energy(S, o.beta);
  IterationLoop loop({.max_iterations = o.max_iterations, .gradient_tolerance = 0}, callbacks);
  if (loop.start(loop.watched() ? flatten_rows(C) : Vector(), energy)) {
    for (;;) {
      const Tensor R = softmax_rows(S);                   // r_i(k)
      const Vector mass = R.colwise().sum().transpose();  // Σ_i r_i(k)
      Tensor next = R.transpose() * X;
      for (Index k = 0; k < K; ++k) next.row(k) = mass(k) > 0 ? Tensor(next.row(k) / mass(k)) : Tensor(C.row(k));
      const Scalar moved = (next - C).cwiseAbs().maxCoeff();
      C = std::move(next);
      S = soft_k_means_scores(X, C, o.beta);
      energy = soft_k_means_energy(S, o.beta);
      if (!loop.guard("energy", energy)) break;
      if (loop.step(energy, IterationLoop::kNotComputed, loop.watched() ? flatten_rows(C) : Vector())) break;
      if (moved <= o.tolerance) {
        loop.converge(Status::StepTolerance,
                      fmt::format("converged: the centres moved by at most {:.3g} ≤ tolerance", moved));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  Result result;
  result.x = flatten_rows(C);
  result.value = energy;
  result.gradient_norm = IterationLoop::kNotComputed;
  result = loop.finish(std::move(result));
  if (result.status == Status::NumericalFailure) throw NumericalError(fmt::format("{}: {}", who, result.message));
  set_fit(std::move(C), std::move(result), X.cols());
  return *this;
}

Tensor SoftKMeans::predict_proba(const Tensor& X) const {
  check_input(X);
  return softmax_rows(soft_k_means_scores(X, centers(), options_.beta));
}

Vector SoftKMeans::predict(const Tensor& X) const {
  check_input(X);
  return argmax_rows(soft_k_means_scores(X, centers(), options_.beta));
}

Scalar SoftKMeans::score(const Tensor& X) const {
  check_input(X);
  return -soft_k_means_energy(soft_k_means_scores(X, centers(), options_.beta), options_.beta) /
         static_cast<Scalar>(X.rows());
}

}  // namespace dagml
