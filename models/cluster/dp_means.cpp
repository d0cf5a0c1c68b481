#include "models/cluster/dp_means.h"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "graph/error.h"
#include "models/cluster/k_means.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "optim/iteration_loop.h"

namespace dagml {

template class Estimator<DPMeans, DPMeansOptions>;

namespace {

constexpr const char* kDPMeansName = "DPMeans";

Vector flatten_centers(const std::vector<Vector>& centers) {
  Vector x(static_cast<Index>(centers.size()) * (centers.empty() ? 0 : centers.front().size()));
  Index at = 0;
  for (const Vector& c : centers) {
    x.segment(at, c.size()) = c;
    at += c.size();
  }
  return x;
}

// The online state of one run: the centres, each cluster's member count and coordinate sums.
struct DPMeansState {
  std::vector<Vector> centers, sums;
  std::vector<Index> counts;

  Index size() const { return static_cast<Index>(centers.size()); }
  void add(Index k, const Vector& x) {
    sums[static_cast<std::size_t>(k)] += x;
    ++counts[static_cast<std::size_t>(k)];
    refresh(k);
  }
  void remove(Index k, const Vector& x) {
    sums[static_cast<std::size_t>(k)] -= x;
    --counts[static_cast<std::size_t>(k)];
    refresh(k);
  }
  // μ_k ← the mean of its members; an emptied cluster keeps its centre until the pass ends.
  void refresh(Index k) {
    const auto u = static_cast<std::size_t>(k);
    if (counts[u] > 0) centers[u] = sums[u] / static_cast<Scalar>(counts[u]);
  }
  // Drops the clusters left empty and renumbers the others (in order) in `labels`.
  void drop_empty(Vector& labels) {
    std::vector<Index> renumber(centers.size(), -1);
    Index kept = 0;
    for (std::size_t k = 0; k < centers.size(); ++k) {
      if (counts[k] == 0) continue;
      renumber[k] = kept;
      centers[static_cast<std::size_t>(kept)] = centers[k];
      sums[static_cast<std::size_t>(kept)] = sums[k];
      counts[static_cast<std::size_t>(kept)] = counts[k];
      ++kept;
    }
    centers.resize(static_cast<std::size_t>(kept));
    sums.resize(static_cast<std::size_t>(kept));
    counts.resize(static_cast<std::size_t>(kept));
    for (Index i = 0; i < labels.size(); ++i)
      labels(i) = static_cast<Scalar>(renumber[static_cast<std::size_t>(labels(i))]);
  }
};

// Σ_i ‖x_i − μ_{c_i}‖² + λK.
Scalar dp_means_objective(const Tensor& X, const Vector& labels, const DPMeansState& s, Scalar lambda) {
  Scalar total = lambda * static_cast<Scalar>(s.size());
  for (Index i = 0; i < X.rows(); ++i)
    total += (X.row(i).transpose() - s.centers[static_cast<std::size_t>(labels(i))]).squaredNorm();
  return total;
}

}  // namespace

DPMeans::DPMeans(DPMeansOptions options) : CenterClustering(std::move(options)) {
  if (!(options_.lambda > 0) || !std::isfinite(options_.lambda))
    throw ValueError(fmt::format("{}: expected a finite lambda > 0, found {}", kDPMeansName, options_.lambda));
  if (options_.max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", kDPMeansName, options_.max_iterations));
}

DPMeans& DPMeans::fit(const Tensor& X, const CallbackList& callbacks) {
  const char* who = "DPMeans::fit";
  check_fit_data(X, who);
  const Index n = X.rows();
  const Scalar lambda = options_.lambda;
  // K = 1, μ_1 the global mean, every point in cluster 1.
  DPMeansState s;
  s.sums.push_back(X.colwise().sum().transpose());
  s.counts.push_back(n);
  s.centers.push_back(s.sums.front() / static_cast<Scalar>(n));
  Vector labels = Vector::Zero(n);

  IterationLoop loop({.max_iterations = options_.max_iterations, .gradient_tolerance = 0}, callbacks);
  Scalar objective = dp_means_objective(X, labels, s, lambda);
  if (loop.start(loop.watched() ? flatten_centers(s.centers) : Vector(), objective)) {
    Vector x(X.cols());
    for (;;) {
      Index changed = 0;
      for (Index i = 0; i < n; ++i) {
        x = X.row(i).transpose();  // into x's storage: no allocation per point
        Index nearest = 0;
        Scalar nearest_distance = (x - s.centers[0]).squaredNorm();
        for (Index k = 1; k < s.size(); ++k) {
          const Scalar distance = (x - s.centers[static_cast<std::size_t>(k)]).squaredNorm();
          if (distance < nearest_distance) nearest = k, nearest_distance = distance;
        }
        const auto previous = static_cast<Index>(labels(i));
        Index joined = nearest;
        if (nearest_distance > lambda) {  // open cluster K + 1 at x_i
          s.centers.push_back(x);
          s.sums.push_back(Vector::Zero(x.size()));
          s.counts.push_back(0);
          joined = s.size() - 1;
        }
        if (joined == previous) continue;
        s.remove(previous, x);
        s.add(joined, x);
        labels(i) = static_cast<Scalar>(joined);
        ++changed;
      }
      s.drop_empty(labels);
      objective = dp_means_objective(X, labels, s, lambda);
      if (loop.step(objective, IterationLoop::kNotComputed, loop.watched() ? flatten_centers(s.centers) : Vector()))
        break;
      if (changed == 0) {
        loop.converge(Status::StepTolerance, fmt::format("converged: pass {} changed no assignment", loop.iteration()));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  Result result;
  result.x = flatten_centers(s.centers);
  result.value = objective;
  result.gradient_norm = IterationLoop::kNotComputed;
  Tensor centers(s.size(), X.cols());
  for (Index k = 0; k < s.size(); ++k) centers.row(k) = s.centers[static_cast<std::size_t>(k)].transpose();
  labels_ = std::move(labels);
  set_fit(std::move(centers), loop.finish(std::move(result)), X.cols());
  return *this;
}

Vector DPMeans::predict(const Tensor& X) const {
  check_input(X);
  Vector labels, distances;
  assign_to_centers(X, centers(), labels, distances);
  return labels;
}

Scalar DPMeans::score(const Tensor& X) const {
  check_input(X);
  Vector labels, distances;
  assign_to_centers(X, centers(), labels, distances);
  return -(distances.sum() + options_.lambda * static_cast<Scalar>(num_clusters()));
}

const Vector& DPMeans::labels() const {
  require_fitted();
  if (labels_.size() == 0) {
    throw NotFittedError(
        "DPMeans::labels: expected a model fitted in this process, found one read by load; the training labels "
        "belong to the training data and are not saved (predict on the training data gives them)");
  }
  return labels_;
}

}  // namespace dagml
