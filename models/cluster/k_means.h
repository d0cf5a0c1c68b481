// k-means clustering by Lloyd's algorithm (notes 000 §6.1, notes 004 Algorithm 1), with seeded
// k-means++ initialisation and restarts.
//
// Objective (the inertia): W = Σ_i ‖x_i − μ_{z_i}‖², minimised by alternating
//   assignment  z_i = argmin_k ‖x_i − μ_k‖²      (ties: the smallest k)
//   update      μ_k = mean of {x_i : z_i = k}
// until the assignments stop changing or the centres move by Σ_k ‖Δμ_k‖² ≤ tolerance · mean_j Var(x_j)
// (scikit-learn's relative tolerance), or max_iterations iterations. A cluster left empty is moved to
// the point farthest from its centre (scikit-learn's rule). After the last update the points are
// assigned once more, so labels() and inertia() belong to centers().
//
// Initialisation (KMeansInit::PlusPlus): greedy k-means++ (Arthur & Vassilvitskii; the variant
// of scikit-learn): the first centre is a uniformly drawn point; each next one is the best, by
// the resulting potential Σ_i min_k ‖x_i − μ_k‖², of 2 + ⌊ln K⌋ points drawn with probability
// proportional to their current squared distance. Random draws come from std::mt19937_64 seeded
// by derive_seed(seed, restart) (Note [Portable randomness], graph/random.h), so a seed
// gives the same clustering on every platform. With num_init > 1 the run with the lowest inertia
// is kept (the first among equals).
//
// The assignment step runs in parallel (TBB) over fixed blocks of rows; sums are reduced in a
// fixed order, so results do not depend on the thread count. It is computed one of two ways
// (KMeansAlgorithm): `lloyd` takes every distance, ‖x‖² − 2xᵀμ + ‖μ‖² for a block of rows at once
// by one matrix product; `hamerly` keeps Hamerly's bounds (hamerly_assignment.h) and computes
// only the distances the triangle inequality cannot rule out. Both give the same assignments
// (tested on iris, digits and a synthetic set), hence bitwise the same centres, iteration count and
// status: the update, the empty-cluster rule and the stopping tests are shared. The inertia each
// reports is the same to rounding (Hamerly sums ‖x_i − μ_{z_i}‖² directly). The one exception is
// a point within rounding of a tie between its two nearest centres (a relative gap below ~1e−13 of
// ‖x‖² + ‖μ‖², where the matrix-product formula is itself inexact), which the two formulas may
// break differently. `auto` takes Hamerly when it pays (chosen_k_means_algorithm below).
//
// Callbacks (optim/callbacks.h, Note [Iteration loop] in optim/iteration_loop.h): one session
// over all restarts — on_begin once with the first restart's initial centres and their inertia,
// on_iteration after every Lloyd iteration of every restart, numbered 1, 2, … across restarts,
// with value = the inertia J(μ) = Σ_i min_k ‖x_i − μ_k‖² of the iteration's new centres μ (the
// k-means objective; non-increasing within a restart), no gradient norm (NaN), and x = μ flattened
// row after row (K·d entries); on_end once with fit_result(). A Stop ends the fit after that
// iteration: the remaining restarts are skipped, the best run so far is kept, and fit_result()
// reports Status::CallbackStop. If on_end puts other centres in the result (EarlyStopping with
// restore_best), the model takes them and reassigns labels() and inertia().
#pragma once

#include <cstdint>
#include <random>
#include <string_view>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/cluster/center_sums.h"
#include "models/io/estimator.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class KMeansInit { PlusPlus, Random, Given };
constexpr auto enum_names(KMeansInit) {
  return std::to_array<EnumName<KMeansInit>>(
      {{KMeansInit::PlusPlus, "plus_plus"}, {KMeansInit::Random, "random"}, {KMeansInit::Given, "given"}});
}

enum class KMeansAlgorithm { Auto, Lloyd, Hamerly };
constexpr auto enum_names(KMeansAlgorithm) {
  return std::to_array<EnumName<KMeansAlgorithm>>(
      {{KMeansAlgorithm::Auto, "auto"}, {KMeansAlgorithm::Lloyd, "lloyd"}, {KMeansAlgorithm::Hamerly, "hamerly"}});
}

struct KMeansOptions {
  Index num_clusters = 8;
  KMeansInit init = KMeansInit::PlusPlus;  // Random: K distinct points drawn uniformly
  Tensor initial_centers = Tensor();       // K×d, for KMeansInit::Given
  Index num_init = 1;                      // restarts (Given: must be 1)
  Index max_iterations = 300;              // Lloyd iterations per run, ≥ 1
  Scalar tolerance = 1e-4;                 // ≥ 0, relative to the mean feature variance
  std::uint64_t seed = 0;
  // How the assignment step is computed; every choice gives the same clustering (see above).
  // Model-file layout 2 added it (field_layout below).
  KMeansAlgorithm algorithm = KMeansAlgorithm::Auto;

  template <class V>
  void visit(V&& v) {
    v("num_clusters", num_clusters, "K ≥ 1, the number of clusters");
    v("init", init, "plus_plus (greedy k-means++), random (K distinct points) or given (initial_centers)");
    v("initial_centers", initial_centers, "K×d starting centres, for init = given");
    v("num_init", num_init, "≥ 1 runs from different seeds; the lowest inertia is kept (given: 1)");
    v("max_iterations", max_iterations, "≥ 1 Lloyd iterations per run");
    v("tolerance", tolerance, "≥ 0: stop when Σ‖Δμ‖² ≤ tolerance · mean feature variance");
    v("seed", seed, "for the initialisation");
    v("algorithm", algorithm, "auto, lloyd (every distance, by matrix products) or hamerly (bounds skip most)");
  }
  // Model-file layout 2 added `algorithm`: a layout-1 file loads with its default, auto.
  static constexpr std::uint32_t field_layout(std::string_view field) { return field == "algorithm" ? 2 : 1; }
};

class KMeans : public Estimator<KMeans, KMeansOptions> {
 public:
  static constexpr const char* kTypeName = "k_means";
  // Layout 2 added the option `algorithm`; a layout-1 file loads with algorithm = auto.
  static constexpr std::uint32_t kModelVersion = 2;

  // Throws ValueError: num_clusters < 1, num_init < 1, max_iterations < 1, tolerance < 0, Given
  // without initial_centers (or with num_init > 1, or with a row count other than num_clusters).
  explicit KMeans(KMeansOptions options = {});

  // X n×d finite with n ≥ num_clusters (ValueError otherwise; ShapeError for initial centres of
  // the wrong width). The callbacks are called as described above.
  KMeans& fit(const Tensor& X, const CallbackList& callbacks = {});
  Vector fit_predict(const Tensor& X, const CallbackList& callbacks = {});

  Vector predict(const Tensor& X) const;    // the nearest centre of each row
  Tensor transform(const Tensor& X) const;  // n×K Euclidean distances to the centres
  Scalar score(const Tensor& X) const;      // −Σ_i min_k ‖x_i − μ_k‖² (higher is better)

  const Tensor& centers() const { return fitted_value(centers_); }  // K×d
  // n: the cluster of each training row. They belong to the training data and are not saved: on a
  // loaded model this throws NotFittedError saying so (predict on the training data gives them).
  const Vector& labels() const;
  Scalar inertia() const { return fitted_value(inertia_); }   // of the training data
  Index num_iter() const { return fitted_value(num_iter_); }  // Lloyd iterations of the kept run
  // A convergence test held in the kept run (false at max_iterations or on a Stop).
  bool converged() const { return fitted_value(converged_); }
  // The kept run: x = centres flattened, value = inertia, iterations, status (StepTolerance when
  // the assignments or centres stopped changing, MaxIterations, CallbackStop), message, history
  // (its inertia from the initial centres on). Of the fit in this process: not saved in files.
  const Result& fit_result() const { return fitted_value(result_); }

  // The options, the centres, the inertia, the iteration count and the convergence flag; not the
  // training labels nor fit_result(). A loaded model must have K×d finite centres and a finite
  // inertia ≥ 0 (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(centers_, inertia_, num_iter_, converged_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  bool converged_ = false;
  Tensor centers_;
  Vector labels_;
  Scalar inertia_ = 0;
  Index num_iter_ = 0;
  Result result_;
};

extern template class Estimator<KMeans, KMeansOptions>;

// The assignment step `auto` uses for n rows of d features and K centres: Hamerly when
// K ≥ kHamerlyMinClusters and either d ≤ kHamerlyMaxFeatures or K ≤ kHamerlyMaxClustersAnyFeatures,
// else Lloyd (measured in docs/unsupervised.md, "Accelerated k-means"). A requested Lloyd or
// Hamerly is returned as it is.
inline constexpr Index kHamerlyMinClusters = 5;
inline constexpr Index kHamerlyMaxFeatures = 64;
inline constexpr Index kHamerlyMaxClustersAnyFeatures = 16;
KMeansAlgorithm chosen_k_means_algorithm(KMeansAlgorithm requested, Index num_features, Index num_clusters);

// The initial centres of one run, K×d: the given ones (init = Given), K distinct rows drawn
// uniformly (Random) or greedy k-means++ (PlusPlus), drawing from `rng`. Shared with OnlineKMeans.
Tensor k_means_initial_centers(const Tensor& X, Index num_clusters, KMeansInit init, const Tensor& given,
                               std::mt19937_64& rng);

// tolerance · mean_j Var(x_j) (the population variance of each column of X): scikit-learn's
// relative tolerance on the centre shift Σ_k ‖Δμ_k‖², made absolute.
Scalar k_means_absolute_tolerance(const Tensor& X, Scalar tolerance);

// The assignment step: the nearest centre of each row of X (ties: the smallest index) and its
// squared distance, in parallel over fixed row blocks. Shared with the RBF network.
void assign_to_centers(const Tensor& X, const Tensor& centers, Vector& labels, Vector& min_sq_dist);

// The same with the squared row norms ‖x_i‖² given (they do not change between iterations) and,
// when `sums` is given, the sums of each cluster's rows gathered in the same pass over X (Note
// [Fixed groups of centre sums]).
void assign_to_centers(const Tensor& X, const Vector& row_norms, const Tensor& centers, Vector& labels,
                       Vector& min_sq_dist, CenterSums* sums = nullptr);

}  // namespace dagml
