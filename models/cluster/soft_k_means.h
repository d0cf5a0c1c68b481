// Soft k-means (notes 000 §6.1, lines 4390–4417): every point belongs to every cluster with the
// responsibility
//   r_i(k) = softmax_k(−β ‖x_i − c_k‖²)                 (β > 0, the stiffness)
// and every centre moves to the responsibility-weighted mean
//   c_k ← Σ_i r_i(k) x_i / Σ_i r_i(k)                    (notes 000 eq. 6.1).
// It is EM for a mixture of K equally weighted isotropic Gaussians of variance 1/(2β) with only
// the means fitted, so the energy
//   E(c) = −(1/β) Σ_i log Σ_k exp(−β ‖x_i − c_k‖²)
// never increases (the history shows it); β → ∞ gives k-means. Iterations stop when no centre
// moves by more than `tolerance` in any coordinate (StepTolerance), or after max_iterations.
// Worked step (notes 000 part 2, L370): X = {0, 1, 3, 4}, c = (0, 4), β = 1 gives r(1) =
// [0.99999989, 0.99966465, 0.00033535, 1.1254e−07] and c = (0.50033558, 3.49966442).
// Initialisation: `k_means` takes the centres of a k-means fit (k-means++ from `seed`),
// `given` the K×d initial_centers. A cluster whose responsibilities all underflow to 0 keeps
// its centre.
//
//   SoftKMeans soft({.num_clusters = 3, .beta = 0.5});
//   Tensor R = soft.fit(X).predict_proba(X);   // n×3 responsibilities
#pragma once

#include <cstdint>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/cluster/center_clustering.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class SoftKMeansInit { KMeans, Given };
constexpr auto enum_names(SoftKMeansInit) {
  return std::to_array<EnumName<SoftKMeansInit>>(
      {{SoftKMeansInit::KMeans, "k_means"}, {SoftKMeansInit::Given, "given"}});
}

struct SoftKMeansOptions {
  Index num_clusters = 8;  // K ≥ 1
  Scalar beta = 1;         // β > 0
  SoftKMeansInit init = SoftKMeansInit::KMeans;
  Tensor initial_centers = Tensor();  // K×d, for init = given
  Index max_iterations = 300;         // ≥ 1
  Scalar tolerance = 1e-8;            // ≥ 0, the largest centre move that counts as converged
  std::uint64_t seed = 0;             // for the k-means start

  template <class V>
  void visit(V&& v) {
    v("num_clusters", num_clusters, "≥ 1 clusters K");
    v("beta", beta, "β > 0, the stiffness of the responsibilities softmax(−β‖x − c‖²)");
    v("init", init, "k_means (centres of a k-means fit from the seed) or given (initial_centers)");
    v("initial_centers", initial_centers, "K×d starting centres for init = given");
    v("max_iterations", max_iterations, "≥ 1 iterations");
    v("tolerance", tolerance, "≥ 0: converged when no centre coordinate moves by more");
    v("seed", seed, "for the k-means start");
  }
};

class SoftKMeans : public CenterClustering<SoftKMeans, SoftKMeansOptions> {
 public:
  static constexpr const char* kTypeName = "soft_k_means";

  // ValueError: num_clusters < 1, β ≤ 0 or not finite, max_iterations < 1, tolerance < 0; given
  // centres that are not K rows of finite values.
  explicit SoftKMeans(SoftKMeansOptions options = {});

  // X n×d finite with n ≥ K (ValueError; ShapeError for given centres of another width).
  // Callbacks (optim/callbacks.h): value = E(c), x = the centres row by row.
  SoftKMeans& fit(const Tensor& X, const CallbackList& callbacks = {});
  Tensor predict_proba(const Tensor& X) const;  // n×K responsibilities r_i(k)
  Vector predict(const Tensor& X) const;        // argmax_k r_i(k) (ties: the smaller k)
  Scalar score(const Tensor& X) const;          // −E(c)/n on X, higher is better

  Scalar energy() const { return objective(); }  // E(c) on the training data, the objective

  // The fitted state and its model-file form are CenterClustering's (center_clustering.h): the
  // options, the centres, the energy (its objective), the iteration count and the convergence flag.
};

extern template class Estimator<SoftKMeans, SoftKMeansOptions>;

}  // namespace dagml
