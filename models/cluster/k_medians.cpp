#include "models/cluster/k_medians.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "optim/iteration_loop.h"

namespace dagml {

template class Estimator<KMedians, KMediansOptions>;

namespace {

constexpr const char* kKMediansName = "KMedians";

// n×K L¹ distances ‖x_i − c_k‖₁.
Tensor l1_distances(const Tensor& X, const Tensor& centers) {
  Tensor D(X.rows(), centers.rows());
  for (Index i = 0; i < X.rows(); ++i)
    for (Index k = 0; k < centers.rows(); ++k) D(i, k) = (X.row(i) - centers.row(k)).cwiseAbs().sum();
  return D;
}

// The nearest centre of each row (ties: the smaller k) and the summed distance.
Scalar assign_l1(const Tensor& X, const Tensor& centers, Vector& labels) {
  const Tensor D = l1_distances(X, centers);
  labels.resize(X.rows());
  Scalar total = 0;
  for (Index i = 0; i < X.rows(); ++i) {
    Index best = 0;
    total += D.row(i).minCoeff(&best);
    labels(i) = static_cast<Scalar>(best);
  }
  return total;
}

// The median of v (numpy.median: the midpoint of the two middle values for an even count).
Scalar median_of(std::vector<Scalar>& v) {
  const std::size_t m = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m), v.end());
  const Scalar upper = v[m];
  if (v.size() % 2 == 1) return upper;
  const Scalar lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m));
  return lower / 2 + upper / 2;
}

// K distinct rows of X in the order of a seeded permutation; ValueError if X has fewer.
Tensor distinct_random_rows(const Tensor& X, Index K, std::uint64_t seed, const char* who) {
  Tensor C(K, X.cols());
  Index found = 0;
  for (Index i : random_permutation(X.rows(), seed)) {
    bool repeated = false;
    for (Index k = 0; k < found && !repeated; ++k) repeated = C.row(k) == X.row(i);
    if (repeated) continue;
    C.row(found++) = X.row(i);
    if (found == K) return C;
  }
  throw ValueError(fmt::format("{}: expected at least num_clusters = {} distinct rows, found {}", who, K, found));
}

Vector flatten_centers_l1(const Tensor& C) { return Eigen::Map<const Vector>(C.data(), C.size()); }

}  // namespace

KMedians::KMedians(KMediansOptions options) : CenterClustering(std::move(options)) {
  const auto& o = options_;
  if (o.num_clusters < 1)
    throw ValueError(fmt::format("{}: expected num_clusters ≥ 1, found {}", kKMediansName, o.num_clusters));
  if (o.max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", kKMediansName, o.max_iterations));
  if (o.init == KMediansInit::Given) {
    if (o.initial_centers.rows() != o.num_clusters || o.initial_centers.cols() == 0)
      throw ValueError(fmt::format("{}: expected {} initial_centers rows for init = given, found {}×{}", kKMediansName,
                                   o.num_clusters, o.initial_centers.rows(), o.initial_centers.cols()));
    check_finite(o.initial_centers, kKMediansName);
  }
}

KMedians& KMedians::fit(const Tensor& X, const CallbackList& callbacks) {
  const char* who = "KMedians::fit";
  check_fit_data(X, who);
  const auto& o = options_;
  const Index K = o.num_clusters, n = X.rows(), d = X.cols();
  Tensor C;
  if (o.init == KMediansInit::Given) {
    check_columns(o.initial_centers, d, who);
    C = o.initial_centers;
  } else {
    C = distinct_random_rows(X, K, o.seed, who);
  }
  Vector labels;
  Scalar objective = assign_l1(X, C, labels);
  IterationLoop loop({.max_iterations = o.max_iterations, .gradient_tolerance = 0}, callbacks);
  if (loop.start(loop.watched() ? flatten_centers_l1(C) : Vector(), objective)) {
    std::vector<Scalar> values;
    for (;;) {
      for (Index k = 0; k < K; ++k) {
        for (Index j = 0; j < d; ++j) {
          values.clear();
          for (Index i = 0; i < n; ++i)
            if (static_cast<Index>(labels(i)) == k) values.push_back(X(i, j));
          if (!values.empty()) C(k, j) = median_of(values);  // an empty cluster keeps its centre
        }
      }
      const Vector previous = labels;
      objective = assign_l1(X, C, labels);
      if (loop.step(objective, IterationLoop::kNotComputed, loop.watched() ? flatten_centers_l1(C) : Vector())) break;
      if (labels == previous) {
        loop.converge(Status::StepTolerance,
                      fmt::format("converged: iteration {} changed no assignment", loop.iteration()));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  Result result;
  result.x = flatten_centers_l1(C);
  result.value = objective;
  result.gradient_norm = IterationLoop::kNotComputed;
  set_fit(std::move(C), loop.finish(std::move(result)), d);
  return *this;
}

Vector KMedians::predict(const Tensor& X) const {
  check_input(X);
  Vector labels;
  assign_l1(X, centers(), labels);
  return labels;
}

Tensor KMedians::transform(const Tensor& X) const {
  check_input(X);
  return l1_distances(X, centers());
}

Scalar KMedians::score(const Tensor& X) const {
  check_input(X);
  Vector labels;
  return -assign_l1(X, centers(), labels);
}

}  // namespace dagml
