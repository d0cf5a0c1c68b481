#include "models/cluster/online_k_means.h"

#include <fmt/format.h>

#include <cmath>
#include <random>
#include <vector>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "optim/iteration_loop.h"

namespace dagml {

template class Estimator<OnlineKMeans, OnlineKMeansOptions>;

namespace {

constexpr const char* kOnlineKMeansName = "OnlineKMeans";

Vector flatten_online_centers(const Tensor& C) { return Eigen::Map<const Vector>(C.data(), C.size()); }

}  // namespace

OnlineKMeans::OnlineKMeans(OnlineKMeansOptions options) : CenterClustering(std::move(options)) {
  const auto& o = options_;
  const char* who = kOnlineKMeansName;
  if (o.num_clusters < 1) throw ValueError(fmt::format("{}: expected num_clusters ≥ 1, found {}", who, o.num_clusters));
  if (o.max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1 epochs, found {}", who, o.max_iterations));
  if (!(o.tolerance >= 0)) throw ValueError(fmt::format("{}: expected tolerance ≥ 0, found {}", who, o.tolerance));
  if (o.step == OnlineKMeansStep::Schedule) {
    if (!(o.step_scale > 0) || !std::isfinite(o.step_scale))
      throw ValueError(fmt::format("{}: expected a finite step_scale > 0, found {}", who, o.step_scale));
    if (!(o.step_offset >= 0) || !std::isfinite(o.step_offset))
      throw ValueError(fmt::format("{}: expected a finite step_offset ≥ 0, found {}", who, o.step_offset));
    if (!(o.step_power > 0.5 && o.step_power <= 1)) {
      throw ValueError(fmt::format(
          "{}: expected step_power in (1/2, 1] (Robbins–Monro: Σα_t = ∞, Σα_t² < ∞), found {}", who, o.step_power));
    }
    const Scalar first_step = o.step_scale / std::pow(o.step_offset + 1, o.step_power);
    if (!(first_step <= 1)) {
      throw ValueError(fmt::format("{}: expected a first step α_1 = step_scale/(step_offset + 1)^step_power ≤ 1, found {}",
                                   who, first_step));
    }
  }
  if (o.init == KMeansInit::Given) {
    if (o.initial_centers.rows() != o.num_clusters) {
      throw ValueError(fmt::format("{}: init = given needs initial_centers with num_clusters = {} rows, found {}", who,
                                   o.num_clusters, o.initial_centers.rows()));
    }
    check_finite(o.initial_centers, who);
  }
}

OnlineKMeans& OnlineKMeans::fit(const Tensor& X, const CallbackList& callbacks) {
  const char* who = "OnlineKMeans::fit";
  check_fit_data(X, who);
  const auto& o = options_;
  const Index n = X.rows(), K = o.num_clusters;
  if (n < K) throw ValueError(fmt::format("{}: expected at least num_clusters = {} samples, found {}", who, K, n));
  if (o.init == KMeansInit::Given) check_columns(o.initial_centers, X.cols(), who);
  const Scalar tol_abs = k_means_absolute_tolerance(X, o.tolerance);
  std::mt19937_64 rng(derive_seed(o.seed, 0));  // KMeans' first run draws its start from this stream
  Tensor C = k_means_initial_centers(X, K, o.init, o.initial_centers, rng);
  const std::uint64_t order_seed = derive_seed(o.seed, 1);

  // n_k: the points centre k has taken, plus one for its start (the counts rule).
  Vector counts = Vector::Ones(K);
  Vector labels, dist;
  assign_to_centers(X, C, labels, dist);
  Vector visited_labels = labels;  // z_i at the point's last visit (first: the initial assignment)
  IterationLoop loop({.max_iterations = o.max_iterations, .gradient_tolerance = 0}, callbacks);
  Index t = 0;  // steps taken, for the schedule
  if (loop.start(flatten_online_centers(C), dist.sum())) {
    Tensor epoch_start;
    for (;;) {
      epoch_start = C;
      Index changed = 0;
      for (Index i : epoch_order(n, order_seed, loop.iteration(), o.shuffle)) {
        // z_i = argmin_k ‖x_i − μ_k‖², ties to the smaller k.
        Index z = 0;
        Scalar nearest = (X.row(i) - C.row(0)).squaredNorm();
        for (Index k = 1; k < K; ++k) {
          const Scalar sq = (X.row(i) - C.row(k)).squaredNorm();
          if (sq < nearest) nearest = sq, z = k;
        }
        // μ_z ← μ_z + α_t (x_i − μ_z).
        ++t;
        counts(z) += 1;
        const Scalar alpha = o.step == OnlineKMeansStep::Counts
                                 ? 1 / counts(z)
                                 : o.step_scale / std::pow(o.step_offset + static_cast<Scalar>(t), o.step_power);
        C.row(z) += alpha * (X.row(i) - C.row(z));
        if (visited_labels(i) != static_cast<Scalar>(z)) {
          visited_labels(i) = static_cast<Scalar>(z);
          ++changed;
        }
      }
      const Scalar shift = (C - epoch_start).squaredNorm();
      assign_to_centers(X, C, labels, dist);
      if (loop.step(dist.sum(), IterationLoop::kNotComputed, loop.watched() ? flatten_online_centers(C) : Vector()))
        break;
      if (changed == 0 && shift <= tol_abs) {
        loop.converge(Status::StepTolerance,
                      fmt::format("converged: epoch {} reassigned no point and moved the centres by {:.3g} <= {:.3g}",
                                  loop.iteration(), shift, tol_abs));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  Result result;
  result.x = flatten_online_centers(C);
  result.value = dist.sum();
  result.gradient_norm = IterationLoop::kNotComputed;
  result = loop.finish(std::move(result));
  if (result.x != flatten_online_centers(C)) {  // a callback's on_end put other centres in the result
    C = Eigen::Map<const Tensor>(result.x.data(), K, X.cols());
    assign_to_centers(X, C, labels, dist);
    result.value = dist.sum();
  }
  labels_ = std::move(labels);
  set_fit(std::move(C), std::move(result), X.cols());
  return *this;
}

Vector OnlineKMeans::predict(const Tensor& X) const {
  check_input(X);
  Vector labels, dist;
  assign_to_centers(X, centers(), labels, dist);
  return labels;
}

Scalar OnlineKMeans::score(const Tensor& X) const {
  check_input(X);
  Vector labels, dist;
  assign_to_centers(X, centers(), labels, dist);
  return -dist.sum();
}

const Vector& OnlineKMeans::labels() const {
  require_fitted();
  if (labels_.size() == 0) {
    throw NotFittedError(
        "OnlineKMeans::labels: expected a model fitted in this process, found one read by load; the training labels "
        "belong to the training data and are not saved (predict on the training data gives them)");
  }
  return labels_;
}

}  // namespace dagml
