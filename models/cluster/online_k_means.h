// Online (stochastic) k-means (notes 004 Algorithm 2, L218–220): the centres move after every
// point, by a Robbins–Monro step towards it,
//   z_i = argmin_k ‖x_i − μ_k‖²              (ties: the smallest k)
//   μ_{z_i} ← μ_{z_i} + α_t (x_i − μ_{z_i}),   t = 1, 2, … counting every step of the run,
// with steps Σ_t α_t = ∞ and Σ_t α_t² < ∞. Step rules (OnlineKMeansStep):
//   counts    α = 1/n_k, n_k the points assigned to centre k so far, this one included, plus one
//             for the centre's starting position (MacQueen 1967; notes 004 §1.2 [derived]): μ_k is
//             then the running mean of its start and every point assigned to it, and the first
//             point moves a centre halfway — the notes' worked step μ = (0, 10), x = 4, α = ½ →
//             μ = (2, 10). Per centre, α = 1/n_k meets both conditions.
//   schedule  α_t = step_scale / (step_offset + t)^step_power, one schedule for every centre,
//             with step_power κ ∈ (½, 1] (Σ t^−κ diverges for κ ≤ 1, Σ t^−2κ converges for κ > ½)
//             and α_1 ≤ 1 (no step overshoots its point).
// One epoch visits every row once, in the order epoch_order(n, derive_seed(seed, 1), epoch,
// shuffle) (graph/random.h): a fresh seeded permutation per epoch, or 0..n−1 (the notes' "pick in
// order") without shuffle. The run starts from KMeans' initialisation (k_means.h: greedy
// k-means++ or K distinct rows drawn from derive_seed(seed, 0) — the same start as KMeans' first
// run with that seed —, or given centres) and stops after an epoch that changed no point's
// assignment (against the point's previous visit) and moved the centres by
// Σ_k ‖Δμ_k‖² ≤ tolerance · mean_j Var(x_j) (KMeans' relative tolerance), or after max_iterations
// epochs. After the last epoch every point is assigned to the final centres, so labels() and
// inertia() belong to centers(). A centre that no point chooses stays where it is.
//
// Callbacks (optim/callbacks.h): on_begin with the initial centres and their inertia; on_iteration
// after every epoch with value = the inertia J(μ) = Σ_i min_k ‖x_i − μ_k‖² of the epoch's final
// centres (not monotone: the steps are stochastic), no gradient norm (NaN) and x = the centres row
// by row; a Stop ends the fit after that epoch (Status::CallbackStop). If on_end puts other centres
// in the result (EarlyStopping with restore_best), the model takes them.
//
//   OnlineKMeans km({.num_clusters = 3, .seed = 1});
//   Vector labels = km.fit(X).labels();
#pragma once

#include <cstdint>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/cluster/center_clustering.h"
#include "models/cluster/k_means.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class OnlineKMeansStep { Counts, Schedule };
constexpr auto enum_names(OnlineKMeansStep) {
  return std::to_array<EnumName<OnlineKMeansStep>>(
      {{OnlineKMeansStep::Counts, "counts"}, {OnlineKMeansStep::Schedule, "schedule"}});
}

struct OnlineKMeansOptions {
  Index num_clusters = 8;                  // K ≥ 1
  KMeansInit init = KMeansInit::PlusPlus;  // as KMeans: plus_plus, random or given
  Tensor initial_centers = Tensor();       // K×d, for init = given
  OnlineKMeansStep step = OnlineKMeansStep::Counts;
  Scalar step_scale = 1;       // a > 0 of the schedule α_t = a / (t₀ + t)^κ
  Scalar step_offset = 1;      // t₀ ≥ 0
  Scalar step_power = 1;       // κ ∈ (½, 1]
  bool shuffle = true;         // a new seeded permutation each epoch (false: rows in order)
  Index max_iterations = 100;  // ≥ 1 epochs (passes over the data)
  Scalar tolerance = 1e-4;     // ≥ 0, relative to the mean feature variance
  std::uint64_t seed = 0;

  template <class V>
  void visit(V&& v) {
    v("num_clusters", num_clusters, "K ≥ 1, the number of clusters");
    v("init", init, "plus_plus (greedy k-means++), random (K distinct rows) or given (initial_centers)");
    v("initial_centers", initial_centers, "K×d starting centres, for init = given");
    v("step", step, "counts (α = 1/n_k, the running mean) or schedule (α_t = step_scale/(step_offset + t)^step_power)");
    v("step_scale", step_scale, "a > 0 of the schedule, with a/(step_offset + 1)^step_power ≤ 1");
    v("step_offset", step_offset, "t₀ ≥ 0 of the schedule");
    v("step_power", step_power, "κ in (1/2, 1] of the schedule (Robbins–Monro)");
    v("shuffle", shuffle, "visit the rows in a new seeded order each epoch (false: in order)");
    v("max_iterations", max_iterations, "≥ 1 epochs (passes over the data)");
    v("tolerance", tolerance, "≥ 0: converged after an epoch with no reassignment and Σ‖Δμ‖² ≤ tolerance · mean feature variance");
    v("seed", seed, "for the initialisation and the visiting order");
  }
};

class OnlineKMeans : public CenterClustering<OnlineKMeans, OnlineKMeansOptions> {
 public:
  static constexpr const char* kTypeName = "online_k_means";

  // ValueError: num_clusters < 1, max_iterations < 1, tolerance < 0; a schedule with step_scale ≤ 0,
  // step_offset < 0, step_power outside (½, 1] or a first step above 1 (any not finite); given
  // centres that are not num_clusters rows of finite values.
  explicit OnlineKMeans(OnlineKMeansOptions options = {});

  // X n×d finite with n ≥ num_clusters (ValueError otherwise; ShapeError for given centres of
  // another width). The callbacks are called as described above.
  OnlineKMeans& fit(const Tensor& X, const CallbackList& callbacks = {});
  Vector predict(const Tensor& X) const;  // the nearest centre of each row
  Scalar score(const Tensor& X) const;    // −Σ_i min_k ‖x_i − μ_k‖² (higher is better)

  Scalar inertia() const { return objective(); }  // of the training data at the final centres
  // The training rows' clusters; not saved (NotFittedError on a loaded model, as k-means).
  const Vector& labels() const;

  // The fitted state and its model-file form are CenterClustering's (center_clustering.h): the
  // options, the centres, the inertia (its objective), the epoch count and the convergence flag.

 private:
  Vector labels_;
};

extern template class Estimator<OnlineKMeans, OnlineKMeansOptions>;

}  // namespace dagml
