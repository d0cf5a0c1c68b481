// Metric multidimensional scaling (notes 002 §3.4): codes z_1..z_n ∈ R^k for n objects, given
// only their dissimilarities δ_ij, that minimise the stress (Eq. 3.11, mds_stress.h)
//
//   σ(Z) = Σ_{i<j} (‖z_i − z_j‖ − δ_ij)²        R(Z) = σ(Z)^{1/2}  (the notes' normaliser N = 1)
//
// Two solvers, which reach the same minimum from the same start (tested):
//   smacof    the Guttman transform Z ← (1/n) B(Z) Z (majorisation, unit weights), whose stress
//             never increases (checked at every iteration in the tests). Convergence is
//             scikit-learn 1.2.1's rule, verbatim: with S_t = Σ_i ‖z_i^{(t)}‖ (the sum of the row
//             norms after transform t) and ρ_t = σ(Z_{t−1}) / S_t, run t ≥ 2 has converged when
//             ρ_{t−1} − ρ_t < tolerance. ρ has the units of δ, so this tolerance is not scale-free;
//             tolerance = 0 switches the test off (scikit-learn's eps = 0 would instead stop at the
//             first rise of ρ). From the same start, dagml and sklearn.manifold.smacof(metric=True)
//             give the same embedding and iteration count (tests/models/decompose/
//             metric_mds_reference.py). scikit-learn's stress_ is σ of the configuration before
//             its last transform; stress() here is that of the embedding returned.
//   gradient  σ written as a dagml graph (mds_raw_stress(Var, δ): the pairs gathered from Z) and
//             minimised over Z by L-BFGS (optim/lbfgs.h, strong Wolfe) from the start centred;
//             converged when ‖∇σ(Z)‖₂ ≤ gradient_tolerance · (Σ_{i<j} δ_ij²)^{1/2}.
// At coincident codes both use the minimum-norm subgradient, SMACOF's b_ij = 0 (Note [Coincident
// points] in mds_stress.h). Either way the embedding is centred (column means 0); it is unique
// only up to rotations and reflections.
//
// Starts (init):
//   classical  classical MDS of δ (classical_mds.h; deterministic, the default). ValueError when
//              B = −½HΔH has fewer than k positive eigenvalues; init = random or given avoids it.
//   given      initial_embedding, n×k.
//   random     entries uniform in [0, 1) (scikit-learn's start), std::mt19937_64 seeded by
//              derive_seed(seed, r) for restart r (Note [Portable randomness]); with num_init > 1
//              the run of lowest final σ is kept (the first among equals). Without callbacks the
//              restarts run in parallel (TBB), each on its own: the result does not depend on
//              the thread count.
//
// Out of sample. The notes say metric MDS has no out-of-sample embedding (L1628): the codes are
// free parameters, not a function of the inputs. dagml adds a small extension, so that the model
// keeps the estimator contract (transform): Note [Placing new objects].
//
// Callbacks (optim/callbacks.h): one session over all restarts (then run one after another);
// value = σ, x = the embedding row after row; the gradient norm for the gradient solver (NaN for
// smacof). A Stop ends the fit after that iteration, keeping the best run so far (CallbackStop).
// If on_end puts another embedding in the result (EarlyStopping with restore_best), the model
// takes it.
//
// Inputs (dissimilarity.h): euclidean data rows (n×d), or precomputed δ (n×n).
//
//   MetricMDS mds({.num_components = 2, .dissimilarity = Dissimilarity::Precomputed});
//   Tensor Z = mds.fit_transform(delta);   // n×2
//   Scalar s1 = mds.kruskal_stress();
//
// Note [Placing new objects]
// A new object with dissimilarities d_1..d_n to the training objects is placed at the z that
// minimises its own stress against the fixed training embedding y_1..y_n,
//   f(z) = Σ_j (‖z − y_j‖ − d_j)²,
// by the single-point Guttman transform z ← ȳ + (1/n) Σ_{j: z ≠ y_j} d_j (z − y_j) / ‖z − y_j‖
// (ȳ the mean of the y_j; each step does not increase f), from the y_j of the smallest d_j (the
// first on ties), until a step moves z by at most 1e-12 · s (s = max(max_j d_j,
// max_j ‖y_j − ȳ‖)) or after 1000 steps. Training object i, whose row of δ is its own gradient
// equation, is a fixed point when the fit is stationary, so transform(X_train) ≈ embedding()
// (tested). f may have several local minima: the placement is the one reached from the
// nearest object, and it leaves the training embedding as it is.
#pragma once

#include <cstdint>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/decompose/dissimilarity.h"
#include "models/io/estimator.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class MetricMDSSolver { Smacof, Gradient };
constexpr auto enum_names(MetricMDSSolver) {
  return std::to_array<EnumName<MetricMDSSolver>>(
      {{MetricMDSSolver::Smacof, "smacof"}, {MetricMDSSolver::Gradient, "gradient"}});
}

enum class MetricMDSInit { Classical, Given, Random };
constexpr auto enum_names(MetricMDSInit) {
  return std::to_array<EnumName<MetricMDSInit>>(
      {{MetricMDSInit::Classical, "classical"}, {MetricMDSInit::Given, "given"}, {MetricMDSInit::Random, "random"}});
}

struct MetricMDSOptions {
  Index num_components = 2;  // k ≥ 1, and k < n at fit
  Dissimilarity dissimilarity = Dissimilarity::Euclidean;
  MetricMDSSolver solver = MetricMDSSolver::Smacof;
  MetricMDSInit init = MetricMDSInit::Classical;
  Tensor initial_embedding = Tensor();  // n×k, for init = given (only then)
  Index num_init = 1;                   // ≥ 1 runs; > 1 only for init = random
  Index max_iterations = 300;           // ≥ 1 per run: Guttman transforms or L-BFGS iterations
  Scalar tolerance = 1e-3;              // ≥ 0, smacof: scikit-learn's eps (see the header)
  Scalar gradient_tolerance = 1e-6;     // ≥ 0, gradient: relative to (Σ_{i<j} δ_ij²)^{1/2}
  std::uint64_t seed = 0;

  template <class V>
  void visit(V&& v) {
    v("num_components", num_components, "k ≥ 1 embedding dimensions (k < n)");
    v("dissimilarity", dissimilarity, "euclidean (rows of data) or precomputed (an n×n dissimilarity matrix)");
    v("solver", solver, "smacof (Guttman transform) or gradient (L-BFGS on the stress graph)");
    v("init", init, "classical (classical MDS), given (initial_embedding) or random (uniform, num_init restarts)");
    v("initial_embedding", initial_embedding, "n×k start, for init = given");
    v("num_init", num_init, "≥ 1 runs from random starts; the lowest stress is kept");
    v("max_iterations", max_iterations, "≥ 1 Guttman transforms (smacof) or L-BFGS iterations (gradient) per run");
    v("tolerance", tolerance, "≥ 0, smacof: converged when σ/Σ‖z_i‖ falls by less (scikit-learn's eps)");
    v("gradient_tolerance", gradient_tolerance, "≥ 0, gradient: converged when ‖∇σ‖ ≤ this · ‖δ‖");
    v("seed", seed, "for the random starts");
  }
};

class MetricMDS : public Estimator<MetricMDS, MetricMDSOptions> {
 public:
  static constexpr const char* kTypeName = "metric_mds";

  // ValueError: num_components < 1, num_init < 1 or > 1 without init = random, max_iterations
  // < 1, a tolerance negative or not finite; init = given without a finite initial_embedding of
  // k columns whose rows are not all equal, or an initial_embedding with another init.
  explicit MetricMDS(MetricMDSOptions options = {});

  // X: data n×d (euclidean) or δ n×n (precomputed: ShapeError unless square, ValueError unless
  // symmetric, non-negative with a zero diagonal); finite, n ≥ 2, k < n, some δ_ij > 0
  // (ValueError otherwise); ShapeError for an initial_embedding that is not n×k. NumericalError if
  // the stress becomes NaN or infinite.
  MetricMDS& fit(const Tensor& X, const CallbackList& callbacks = {});
  Tensor fit_transform(const Tensor& X, const CallbackList& callbacks = {});  // the embedding
  // New objects placed against the training embedding (Note [Placing new objects]): data rows
  // m×d (euclidean) or dissimilarities m×n to the training objects (precomputed; ValueError for
  // a negative entry).
  Tensor transform(const Tensor& X) const;

  const Tensor& embedding() const { return fitted_value(embedding_); }  // n×k, centred
  Index num_components() const { return fitted_value(embedding_).cols(); }
  Scalar raw_stress() const { return fitted_value(raw_stress_); }      // σ (scikit-learn's stress_ convention)
  Scalar stress() const;                                                // the notes' R with N = 1: σ^{1/2}
  Scalar kruskal_stress() const;                                        // stress-1: (σ / Σ_{i<j} δ_ij²)^{1/2}
  Index num_iter() const { return fitted_value(num_iter_); }           // iterations of the kept run
  bool converged() const { return fitted_value(converged_); }
  // The kept run's Result (x = the embedding row after row, value = σ, history σ_0, σ_1, …,
  // status, message). Of the fit in this process: not saved in files.
  const Result& fit_result() const { return fitted_value(result_); }

  // The options, the training rows (euclidean; empty for precomputed), the embedding, σ,
  // Σ_{i<j} δ_ij², the iteration count and the convergence flag. ParseError for shapes that
  // disagree or values that are not finite, or a negative σ or non-positive Σ δ².
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(X_, embedding_, raw_stress_, dissimilarity_sum_of_squares_, num_iter_, converged_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor X_;          // the training rows (euclidean only)
  Tensor embedding_;  // n×k
  Scalar raw_stress_ = 0;
  Scalar dissimilarity_sum_of_squares_ = 0;
  Index num_iter_ = 0;
  bool converged_ = false;
  Result result_;
};

extern template class Estimator<MetricMDS, MetricMDSOptions>;

}  // namespace dagml
