#include "models/decompose/metric_mds.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "graph/error.h"
#include "graph/graph.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/decompose/classical_mds.h"
#include "models/decompose/mds_stress.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "optim/graph_objective.h"
#include "optim/iteration_loop.h"
#include "optim/lbfgs.h"

namespace dagml {

template class Estimator<MetricMDS, MetricMDSOptions>;

namespace {

constexpr const char* kMetricMDSName = "MetricMDS";
// Note [Placing new objects]: the step test and the step cap.
constexpr Scalar kMetricMDSPlacementTolerance = 1e-12;
constexpr Index kMetricMDSPlacementSteps = 1000;

// One run of a solver: its embedding (n×k) and its Result (value σ, iterations, status, history).
struct MetricMDSRun {
  Tensor embedding;
  Result result;
};

Vector flatten_embedding(const Tensor& Z) { return Eigen::Map<const Vector>(Z.data(), Z.size()); }

Tensor embedding_from_flat(const Vector& x, Index k) {
  return Eigen::Map<const Tensor>(x.data(), x.size() / k, k);
}

// SMACOF from Z0 (mds_stress.h): the Guttman transform until scikit-learn's rule holds (see the
// header: ρ_t = σ(Z_{t−1}) / Σ_i ‖z_i^{(t)}‖, converged at t ≥ 2 when ρ_{t−1} − ρ_t < tolerance).
MetricMDSRun smacof_run(const Tensor& delta, Tensor Z, const MetricMDSOptions& o, CallbackRunner& session) {
  IterationLoop loop({.max_iterations = o.max_iterations, .gradient_tolerance = 0}, session);
  // Each pass gives σ of its configuration and the next one: σ(Z_t) comes with Z_{t+1}.
  GuttmanPass pass = guttman_pass(Z, delta);
  Scalar f = pass.stress;
  if (loop.guard("stress", f, Z) && loop.start(flatten_embedding(Z), f)) {
    Scalar previous_ratio = 0;
    for (;;) {
      const Scalar ratio = f / pass.transform.rowwise().norm().sum();
      GuttmanPass next = guttman_pass(pass.transform, delta);
      if (!loop.guard("stress or embedding", next.stress, pass.transform)) break;  // Z stays the last finite iterate
      Z = std::move(pass.transform);
      f = next.stress;
      pass = std::move(next);
      if (loop.step(f, IterationLoop::kNotComputed, loop.watched() ? flatten_embedding(Z) : Vector())) break;
      if (o.tolerance > 0 && loop.iteration() >= 2 && previous_ratio - ratio < o.tolerance) {
        loop.converge(Status::ValueTolerance,
                      fmt::format("σ / Σ‖z_i‖ fell by {:.3g} < tolerance {:.3g} (scikit-learn's rule)",
                                  previous_ratio - ratio, o.tolerance));
        break;
      }
      if (loop.exhausted()) break;
      previous_ratio = ratio;
    }
  }
  Result result;
  result.x = flatten_embedding(Z);
  result.value = f;
  result.gradient_norm = IterationLoop::kNotComputed;
  result.evaluations = loop.iteration() + 1;
  return {std::move(Z), loop.finish(std::move(result))};
}

// L-BFGS on the stress graph from Z0 centred (σ does not see translations), converged when
// ‖∇σ‖ ≤ gradient_tolerance · ‖δ‖. Its iterations are reported to the fit's session.
MetricMDSRun gradient_run(const Tensor& delta, Tensor Z, const MetricMDSOptions& o, Scalar delta_norm,
                          CallbackRunner& session) {
  Z.rowwise() -= Z.colwise().mean();
  Graph g;
  const Var embedding = g.parameter("embedding", Z);
  GraphObjective objective(mds_raw_stress(embedding, delta), {embedding});
  const Vector x0 = flatten_embedding(Z);
  session.begin(x0, objective.value(x0));
  FunctionCallback forward(
      [&](const IterationInfo& info) { return !session.iteration(info.value, info.gradient_norm, *info.x); });
  const LbfgsOptions lbfgs{
      .stop = {.max_iterations = o.max_iterations, .gradient_tolerance = o.gradient_tolerance * delta_norm}};
  Result result = minimize(objective, x0, lbfgs, CallbackList{&forward});
  return {embedding_from_flat(result.x, Z.cols()), std::move(result)};
}

// The start of restart r (see the header).
Tensor initial_embedding_of(const Tensor& delta, const MetricMDSOptions& o, Index restart, const char* who) {
  const Index n = delta.rows(), k = o.num_components;
  switch (o.init) {
    case MetricMDSInit::Classical:
      try {
        return classical_mds_eigenmap(delta, k, who).training_scores();
      } catch (const ValueError& e) {
        throw ValueError(fmt::format("{} (the classical start; init = random or given avoids it)", e.what()));
      }
    case MetricMDSInit::Given:
      if (o.initial_embedding.rows() != n || o.initial_embedding.cols() != k)
        throw ShapeError(fmt::format("{}: expected an initial_embedding of {}×{} (n × num_components), found {}×{}",
                                     who, n, k, o.initial_embedding.rows(), o.initial_embedding.cols()));
      return o.initial_embedding;
    case MetricMDSInit::Random:
      break;
  }
  std::mt19937_64 rng(derive_seed(o.seed, static_cast<std::uint64_t>(restart)));
  Tensor Z(n, k);
  for (Index i = 0; i < Z.size(); ++i) Z.data()[i] = uniform01(rng);
  return Z;
}

// Note [Placing new objects]: the placement of one object with dissimilarities d (1×n).
template <class Row>
Eigen::RowVectorXd place_object(const Tensor& Y, const Eigen::RowVectorXd& centroid, const Row& d) {
  const Index n = Y.rows();
  Index nearest = 0;
  d.minCoeff(&nearest);
  Eigen::RowVectorXd z = Y.row(nearest);
  const Scalar scale = std::max(d.maxCoeff(), (Y.rowwise() - centroid).rowwise().norm().maxCoeff());
  for (Index s = 0; s < kMetricMDSPlacementSteps; ++s) {
    Eigen::RowVectorXd next = centroid;
    for (Index j = 0; j < n; ++j) {
      const Eigen::RowVectorXd difference = z - Y.row(j);
      const Scalar distance = difference.norm();
      if (distance > 0) next += (d(j) / (static_cast<Scalar>(n) * distance)) * difference;
    }
    const Scalar moved = (next - z).norm();
    z = next;
    if (moved <= kMetricMDSPlacementTolerance * scale) break;
  }
  return z;
}

}  // namespace

MetricMDS::MetricMDS(MetricMDSOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  const char* who = kMetricMDSName;
  if (o.num_components < 1)
    throw ValueError(fmt::format("{}: expected num_components ≥ 1, found {}", who, o.num_components));
  if (o.num_init < 1) throw ValueError(fmt::format("{}: expected num_init ≥ 1, found {}", who, o.num_init));
  if (o.num_init > 1 && o.init != MetricMDSInit::Random)
    throw ValueError(fmt::format("{}: expected num_init = 1 for the deterministic init = {}, found {}", who,
                                 enum_name(o.init), o.num_init));
  if (o.max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1, found {}", who, o.max_iterations));
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance))
    throw ValueError(fmt::format("{}: expected a finite tolerance ≥ 0, found {}", who, o.tolerance));
  if (!(o.gradient_tolerance >= 0) || !std::isfinite(o.gradient_tolerance))
    throw ValueError(fmt::format("{}: expected a finite gradient_tolerance ≥ 0, found {}", who, o.gradient_tolerance));
  const Tensor& Z0 = o.initial_embedding;
  if (o.init != MetricMDSInit::Given) {
    if (Z0.size() > 0)
      throw ValueError(fmt::format("{}: expected no initial_embedding with init = {} (it is read for init = given), "
                                   "found a {}×{} one",
                                   who, enum_name(o.init), Z0.rows(), Z0.cols()));
    return;
  }
  if (Z0.rows() < 2 || Z0.cols() != o.num_components)
    throw ValueError(fmt::format("{}: expected an initial_embedding of n ≥ 2 rows and num_components = {} columns "
                                 "for init = given, found {}×{}",
                                 who, o.num_components, Z0.rows(), Z0.cols()));
  if (!Z0.allFinite())
    throw ValueError(fmt::format("{}: expected a finite initial_embedding, found a NaN or infinity", who));
  if ((Z0.rowwise() - Z0.row(0)).cwiseAbs().maxCoeff() == 0)
    throw ValueError(fmt::format("{}: expected an initial_embedding whose rows are not all equal (SMACOF cannot "
                                 "leave such a start), found every row equal to row 0",
                                 who));
}

MetricMDS& MetricMDS::fit(const Tensor& X, const CallbackList& callbacks) {
  const char* who = "MetricMDS::fit";
  const auto& o = options_;
  check_fit_data(X, who);
  const Tensor delta = training_dissimilarities(X, o.dissimilarity, who);
  const Index n = delta.rows(), k = o.num_components;
  if (n < 2) throw ValueError(fmt::format("{}: expected at least 2 objects, found {}", who, n));
  if (k >= n)
    throw ValueError(fmt::format("{}: expected num_components < n = {} (n objects fit in n − 1 dimensions), found {}",
                                 who, n, k));
  const Scalar sum_of_squares = dissimilarity_sum_of_squares(delta);
  if (!(sum_of_squares > 0))
    throw ValueError(fmt::format("{}: expected some objects at dissimilarity > 0, found all δ_ij = 0", who));

  auto run = [&](Index r, CallbackRunner& session) {
    Tensor start = initial_embedding_of(delta, o, r, who);
    if (o.solver == MetricMDSSolver::Smacof) return smacof_run(delta, std::move(start), o, session);
    return gradient_run(delta, std::move(start), o, std::sqrt(sum_of_squares), session);
  };
  // One callback session over every restart (Note [Iteration loop]). Unwatched restarts run in
  // parallel, each with a session of its own; watched ones one after another in the shared one.
  CallbackRunner session(callbacks, o.num_init * o.max_iterations);
  std::vector<MetricMDSRun> runs(static_cast<std::size_t>(o.num_init));
  Index done = 0;
  if (o.num_init > 1 && !session.watched()) {
    tbb::parallel_for(tbb::blocked_range<Index>(0, o.num_init, 1), [&](const tbb::blocked_range<Index>& range) {
      for (Index r = range.begin(); r < range.end(); ++r) {
        CallbackRunner own({}, o.max_iterations);
        runs[static_cast<std::size_t>(r)] = run(r, own);
      }
    });
    done = o.num_init;
  } else {
    for (; done < o.num_init && !session.stopped(); ++done) runs[static_cast<std::size_t>(done)] = run(done, session);
  }
  Index best = 0;
  for (Index r = 1; r < done; ++r)
    if (runs[static_cast<std::size_t>(r)].result.value < runs[static_cast<std::size_t>(best)].result.value) best = r;
  MetricMDSRun kept = std::move(runs[static_cast<std::size_t>(best)]);
  if (kept.result.status == Status::NumericalFailure)
    throw NumericalError(fmt::format("{}: {}", who, kept.result.message));
  // A Stop ends the fit, whichever restart it came in: the fit reports it.
  if (session.stopped() && kept.result.status != Status::CallbackStop) {
    kept.result.status = Status::CallbackStop;
    kept.result.message = session.stop_reason();
  }
  session.end(kept.result);
  if (kept.result.x != flatten_embedding(kept.embedding)) {  // a callback's on_end put another embedding
    kept.embedding = embedding_from_flat(kept.result.x, k);
    kept.result.value = mds_raw_stress(kept.embedding, delta);
  }
  X_ = o.dissimilarity == Dissimilarity::Euclidean ? X : Tensor();
  embedding_ = std::move(kept.embedding);
  raw_stress_ = kept.result.value;
  dissimilarity_sum_of_squares_ = sum_of_squares;
  num_iter_ = kept.result.iterations;
  converged_ = kept.result.converged();
  result_ = std::move(kept.result);
  set_fitted(X.cols());
  return *this;
}

Tensor MetricMDS::fit_transform(const Tensor& X, const CallbackList& callbacks) {
  return fit(X, callbacks).embedding_;
}

Tensor MetricMDS::transform(const Tensor& X) const {
  check_input(X);
  const Tensor d = dissimilarities_to_training(X, X_, options_.dissimilarity, "MetricMDS::transform");
  const Eigen::RowVectorXd centroid = embedding_.colwise().mean();
  Tensor Z(X.rows(), embedding_.cols());
  tbb::parallel_for(tbb::blocked_range<Index>(0, X.rows(), 16), [&](const tbb::blocked_range<Index>& range) {
    for (Index i = range.begin(); i < range.end(); ++i) Z.row(i) = place_object(embedding_, centroid, d.row(i));
  });
  return Z;
}

Scalar MetricMDS::stress() const { return std::sqrt(raw_stress()); }

Scalar MetricMDS::kruskal_stress() const { return std::sqrt(raw_stress() / dissimilarity_sum_of_squares_); }

void MetricMDS::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  const Index n = embedding_.rows(), k = options_.num_components;
  if (n < 2 || k >= n)
    ar.fail(fmt::format("{}: expected n ≥ 2 training objects and num_components < n, found n = {}, k = {}",
                        kMetricMDSName, n, k));
  expect_shape(ar, kMetricMDSName, "embedding", embedding_, n, k);
  if (!embedding_.allFinite())
    ar.fail(fmt::format("{}: expected a finite embedding, found a NaN or infinity", kMetricMDSName));
  check_loaded_training_rows(ar, kMetricMDSName, options_.dissimilarity, X_, n, num_features());
  if (!(raw_stress_ >= 0) || !std::isfinite(raw_stress_) || !(dissimilarity_sum_of_squares_ > 0) ||
      !std::isfinite(dissimilarity_sum_of_squares_))
    ar.fail(fmt::format("{}: expected a finite stress ≥ 0 and Σ δ² > 0, found {} and {}", kMetricMDSName, raw_stress_,
                        dissimilarity_sum_of_squares_));
  if (num_iter_ < 0 || num_iter_ > options_.max_iterations)
    ar.fail(fmt::format("{}: expected 0 ≤ iterations ≤ max_iterations = {}, found {}", kMetricMDSName,
                        options_.max_iterations, num_iter_));
}

}  // namespace dagml
