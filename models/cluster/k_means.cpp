#include "models/cluster/k_means.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "graph/chunked_sum.h"
#include "graph/error.h"
#include "graph/random.h"
#include "models/cluster/hamerly_assignment.h"
#include "models/data/standard_scaler.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "optim/iteration_loop.h"

namespace dagml {

template class Estimator<KMeans, KMeansOptions>;

namespace {

constexpr const char* kKMeansName = "KMeans";

// ‖x_i − c‖² for every row, computed directly (exact for the k-means++ potentials), row by row in
// parallel: each row's sum is the same for any thread count.
Vector sq_dist_to(const Tensor& X, const Eigen::Ref<const Vector>& c) {
  Vector out(X.rows());
  tbb::parallel_for(tbb::blocked_range<Index>(0, X.rows(), 256), [&](const tbb::blocked_range<Index>& rows) {
    for (Index i = rows.begin(); i != rows.end(); ++i) out(i) = (X.row(i) - c.transpose()).squaredNorm();
  });
  return out;
}

// The centres as one vector, row after row: the iterate the callbacks see and Result::x.
Vector flatten(const Tensor& C) { return Eigen::Map<const Vector>(C.data(), C.size()); }

// Lloyd's iterations from the given centres, as one run of the fit's callback session, with the
// assignment step of `algorithm` (Lloyd or Hamerly: the same assignments, see the header). Iteration
// t: the empty-cluster rule on the assignment z_{t−1}, the update μ_t = cluster means, then the
// assignment z_t to μ_t, which gives the iteration's value J(μ_t) = Σ_i min_k ‖x_i − μ_k‖² (the
// inertia of μ_t) and, after the last iteration, labels() and inertia(). Converged (StepTolerance)
// when z_t = z_{t−1} or the centres moved by Σ_k ‖Δμ_k‖² ≤ tol_abs.
struct Run {
  Tensor centers;
  Vector labels;
  Result result;  // x = the centres flattened, value = the inertia
};

Run lloyd(const Tensor& X, Tensor C, Index max_iterations, Scalar tol_abs, KMeansAlgorithm algorithm,
         CallbackRunner& session) {
  const Index n = X.rows(), K = C.rows();
  IterationLoop loop({.max_iterations = max_iterations, .gradient_tolerance = 0}, session);
  Vector labels, dist, previous;
  const Vector row_norms = X.rowwise().squaredNorm();
  CenterSums fused;  // the sums of the rows of each cluster, from the last assignment
  HamerlyAssignment hamerly;
  const bool use_hamerly = algorithm == KMeansAlgorithm::Hamerly;
  // z = argmin_k ‖x_i − μ_k‖² for the current C. Hamerly's bounds carry over from the previous call
  // (they follow the centres' moves); labels changed in between (the empty-cluster rule) are
  // recomputed in full.
  const auto assign = [&] {
    if (use_hamerly)
      hamerly.assign(X, C, labels, dist, &fused);
    else
      assign_to_centers(X, row_norms, C, labels, dist, &fused);
  };
  assign();
  if (loop.start(flatten(C), dist.sum())) {
    for (;;) {
      // Empty clusters take the points farthest from their centres, largest first (ties: lower index).
      Vector counts = Vector::Zero(K);
      for (Index i = 0; i < n; ++i) counts(static_cast<Index>(labels(i))) += 1;
      bool relabelled = false;
      if ((counts.array() == 0).any()) {
        relabelled = true;
        std::vector<Index> far = iota_indices(n);
        std::stable_sort(far.begin(), far.end(), [&](Index a, Index b) { return dist(a) > dist(b); });
        size_t next = 0;
        for (Index k = 0; k < K; ++k) {
          if (counts(k) > 0) continue;
          const Index i = far[next++];
          counts(static_cast<Index>(labels(i))) -= 1;
          labels(i) = static_cast<Scalar>(k);
          counts(k) = 1;
          dist(i) = 0;
        }
      }
      // Moving points to empty clusters changes the sums of the assignment.
      if (relabelled) cluster_row_sums(X, labels, K, fused);
      const Tensor updated = fused.sums.array().colwise() / counts.array();
      const Scalar shift = (updated - C).squaredNorm();
      C = updated;
      const bool same_labels = previous.size() == n && previous == labels;
      previous = labels;
      assign();
      if (loop.step(dist.sum(), IterationLoop::kNotComputed, loop.watched() ? flatten(C) : Vector())) break;
      if (same_labels || shift <= tol_abs) {
        loop.converge(Status::StepTolerance,
                      fmt::format("converged: {} after {} iterations",
                                  same_labels ? "the assignments did not change"
                                              : fmt::format("the centres moved by {:.3g} <= tolerance", shift),
                                  loop.iteration()));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  Run run;
  run.result.x = flatten(C);
  run.result.value = dist.sum();
  run.result.gradient_norm = IterationLoop::kNotComputed;
  run.result = loop.finish(std::move(run.result));
  run.centers = std::move(C);
  run.labels = std::move(labels);
  return run;
}

// Greedy k-means++ (see the header).
Tensor k_means_plus_plus(const Tensor& X, Index K, std::mt19937_64& rng) {
  const Index n = X.rows();
  Tensor C(K, X.cols());
  Index first = static_cast<Index>(uniform_below(rng, static_cast<std::uint64_t>(n)));
  C.row(0) = X.row(first);
  Vector closest = sq_dist_to(X, C.row(0).transpose());
  const Index trials = 2 + static_cast<Index>(std::log(static_cast<Scalar>(K)));
  for (Index c = 1; c < K; ++c) {
    std::vector<Scalar> cumulative(static_cast<size_t>(n));
    Scalar running = 0;
    for (Index i = 0; i < n; ++i) cumulative[static_cast<size_t>(i)] = running += closest(i);
    Index best = -1;
    Scalar best_potential = 0;
    Vector best_closest;
    for (Index t = 0; t < trials; ++t) {
      const Scalar r = uniform01(rng) * running;
      Index candidate = std::upper_bound(cumulative.begin(), cumulative.end(), r) - cumulative.begin();
      candidate = std::min(candidate, n - 1);
      Vector updated = closest.cwiseMin(sq_dist_to(X, X.row(candidate).transpose()));
      const Scalar potential = updated.sum();
      if (best < 0 || potential < best_potential) {
        best = candidate;
        best_potential = potential;
        best_closest = std::move(updated);
      }
    }
    C.row(c) = X.row(best);
    closest = std::move(best_closest);
  }
  return C;
}

Tensor k_means_random_rows(const Tensor& X, Index K, std::mt19937_64& rng) {
  std::vector<Index> order = iota_indices(X.rows());
  shuffle_indices(order, rng);
  Tensor C(K, X.cols());
  for (Index k = 0; k < K; ++k) C.row(k) = X.row(order[static_cast<size_t>(k)]);
  return C;
}

}  // namespace

KMeansAlgorithm chosen_k_means_algorithm(KMeansAlgorithm requested, Index num_features, Index num_clusters) {
  if (requested != KMeansAlgorithm::Auto) return requested;
  return num_clusters >= kHamerlyMinClusters &&
                 (num_features <= kHamerlyMaxFeatures || num_clusters <= kHamerlyMaxClustersAnyFeatures)
             ? KMeansAlgorithm::Hamerly
             : KMeansAlgorithm::Lloyd;
}

Tensor k_means_initial_centers(const Tensor& X, Index num_clusters, KMeansInit init, const Tensor& given,
                               std::mt19937_64& rng) {
  switch (init) {
    case KMeansInit::Given: return given;
    case KMeansInit::Random: return k_means_random_rows(X, num_clusters, rng);
    case KMeansInit::PlusPlus: break;
  }
  return k_means_plus_plus(X, num_clusters, rng);
}

Scalar k_means_absolute_tolerance(const Tensor& X, Scalar tolerance) {
  return tolerance == 0 ? 0 : tolerance * column_variances(X).mean();
}

void assign_to_centers(const Tensor& X, const Tensor& centers, Vector& labels, Vector& min_sq_dist) {
  assign_to_centers(X, X.rowwise().squaredNorm(), centers, labels, min_sq_dist);
}

void assign_to_centers(const Tensor& X, const Vector& row_norms, const Tensor& centers, Vector& labels,
                       Vector& min_sq_dist, CenterSums* sums) {
  const Index n = X.rows(), K = centers.rows(), d = X.cols();
  labels.resize(n);
  min_sq_dist.resize(n);
  const Vector center_norms = centers.rowwise().squaredNorm();
  const AssignSplit split(n, K, d);
  const bool group_sums = sums && split.group_sums;
  if (group_sums) sums->group_sums.setZero(split.groups * K, d);
  tbb::parallel_for(tbb::blocked_range<Index>(0, split.groups, 1), [&](const tbb::blocked_range<Index>& r) {
    Tensor D;
    for (Index g = r.begin(); g != r.end(); ++g) {
      const IndexRange rows = split.rows(n, g);
      for (Index begin = rows.begin; begin < rows.end; begin += kAssignRowsPerTask) {
        const Index count = std::min(kAssignRowsPerTask, rows.end - begin);
        // ‖x − μ‖² = ‖x‖² − 2xᵀμ + ‖μ‖², clamped at 0 against rounding.
        D.noalias() = -2 * X.middleRows(begin, count) * centers.transpose();
        D.rowwise() += center_norms.transpose();
        D.colwise() += row_norms.segment(begin, count);
        for (Index i = 0; i < count; ++i) {
          Index best = 0;
          for (Index k = 1; k < K; ++k)
            if (D(i, k) < D(i, best)) best = k;
          labels(begin + i) = static_cast<Scalar>(best);
          min_sq_dist(begin + i) = std::max(D(i, best), Scalar(0));
          if (group_sums) sums->group_sums.row(g * K + best) += X.row(begin + i);
        }
      }
    }
  });
  if (group_sums)
    add_group_sums(*sums, split.groups, K);
  else if (sums)
    cluster_row_sums(X, labels, K, *sums);
}

KMeans::KMeans(KMeansOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  if (o.num_clusters < 1)
    throw ValueError(fmt::format("{}: expected num_clusters ≥ 1, found {}", kKMeansName, o.num_clusters));
  if (o.num_init < 1) throw ValueError(fmt::format("{}: expected num_init ≥ 1, found {}", kKMeansName, o.num_init));
  if (o.max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", kKMeansName, o.max_iterations));
  if (!(o.tolerance >= 0))
    throw ValueError(fmt::format("{}: expected tolerance ≥ 0, found {}", kKMeansName, o.tolerance));
  if (o.init == KMeansInit::Given) {
    if (o.initial_centers.rows() != o.num_clusters)
      throw ValueError(fmt::format("{}: KMeansInit::Given needs initial_centers with num_clusters = {} rows, found {}",
                                   kKMeansName, o.num_clusters, o.initial_centers.rows()));
    if (o.num_init != 1)
      throw ValueError(fmt::format("{}: KMeansInit::Given runs once; set num_init = 1", kKMeansName));
    check_finite(o.initial_centers, kKMeansName);
  }
}

KMeans& KMeans::fit(const Tensor& X, const CallbackList& callbacks) {
  const char* who = "KMeans::fit";
  check_not_empty(X, who);
  check_finite(X, who);
  const Index K = options_.num_clusters;
  if (X.rows() < K)
    throw ValueError(fmt::format("{}: expected at least num_clusters = {} samples, found {}", who, K, X.rows()));
  if (options_.init == KMeansInit::Given) check_columns(options_.initial_centers, X.cols(), who);
  const Scalar tol_abs = k_means_absolute_tolerance(X, options_.tolerance);
  const KMeansAlgorithm algorithm = chosen_k_means_algorithm(options_.algorithm, X.cols(), K);
  // One callback session over every restart (Note [Iteration loop]).
  CallbackRunner session(callbacks, options_.num_init * options_.max_iterations);
  Run best;
  for (Index r = 0; r < options_.num_init && !session.stopped(); ++r) {
    std::mt19937_64 rng(derive_seed(options_.seed, static_cast<std::uint64_t>(r)));
    Tensor init = k_means_initial_centers(X, K, options_.init, options_.initial_centers, rng);
    Run run = lloyd(X, std::move(init), options_.max_iterations, tol_abs, algorithm, session);
    if (r == 0 || run.result.value < best.result.value) best = std::move(run);
  }
  // A Stop ends the fit, whichever restart it came in: the fit reports it.
  if (session.stopped() && best.result.status != Status::CallbackStop) {
    best.result.status = Status::CallbackStop;
    best.result.message = session.stop_reason();
  }
  session.end(best.result);
  if (best.result.x != flatten(best.centers)) {  // a callback's on_end put other centres in the result
    best.centers = Eigen::Map<const Tensor>(best.result.x.data(), K, X.cols());
    Vector dist;
    assign_to_centers(X, best.centers, best.labels, dist);
    best.result.value = dist.sum();
  }
  centers_ = std::move(best.centers);
  labels_ = std::move(best.labels);
  inertia_ = best.result.value;
  num_iter_ = best.result.iterations;
  converged_ = best.result.converged();
  result_ = std::move(best.result);
  set_fitted(X.cols());
  return *this;
}

Vector KMeans::fit_predict(const Tensor& X, const CallbackList& callbacks) { return fit(X, callbacks).labels_; }

Vector KMeans::predict(const Tensor& X) const {
  check_input(X);
  Vector labels, dist;
  assign_to_centers(X, centers_, labels, dist);
  return labels;
}

Tensor KMeans::transform(const Tensor& X) const {
  check_input(X);
  Tensor D(X.rows(), centers_.rows());
  for (Index k = 0; k < centers_.rows(); ++k) D.col(k) = sq_dist_to(X, centers_.row(k).transpose()).cwiseSqrt();
  return D;
}

Scalar KMeans::score(const Tensor& X) const {
  const Tensor D = transform(X);
  return -D.rowwise().minCoeff().squaredNorm();
}

const Vector& KMeans::labels() const {
  require_fitted();
  // A fit always leaves n ≥ K ≥ 1 labels; only a loaded model has none.
  if (labels_.size() == 0) {
    throw NotFittedError(
        "KMeans::labels: expected a model fitted in this process, found one read by load; the training labels "
        "belong to the training data and are not saved (predict on the training data gives them)");
  }
  return labels_;
}

void KMeans::check_loaded(const ModelInputArchive& ar) const {
  // An unfitted model has no centres.
  const Index K = fitted() ? options_.num_clusters : 0, d = fitted() ? num_features() : 0;
  if (centers_.rows() != K || centers_.cols() != d || (fitted() && d < 1)) {
    ar.fail(fmt::format("{}: expected num_clusters × d = {}×{} centres (d ≥ 1), found {}×{}", kKMeansName, K, d,
                        centers_.rows(), centers_.cols()));
  }
  if (!fitted()) return;
  if (!centers_.allFinite())
    ar.fail(fmt::format("{}: expected finite centres, found a NaN or infinite entry", kKMeansName));
  if (!(inertia_ >= 0) || !std::isfinite(inertia_) || num_iter_ < 0) {
    ar.fail(fmt::format("{}: expected a finite inertia ≥ 0 and an iteration count ≥ 0, found inertia {} after {}",
                        kKMeansName, inertia_, num_iter_));
  }
}

}  // namespace dagml
