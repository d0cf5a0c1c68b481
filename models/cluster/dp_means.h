// DP-means (notes 004 Algorithm 3, L222–224; Kulis & Jordan 2012): k-means that opens a new
// cluster whenever a point is farther than √λ from every centre, minimising
//   Σ_i ‖x_i − μ_{c_i}‖² + λ K                              (notes 004 [derived]),
// with the notes' conventions (notes 004 correction 12): λ is a threshold on the *squared*
// distance, the run starts with K = 1 and μ_1 = the global mean (every point in cluster 1), and
// the centroids are updated online, after every point:
//   for i = 1..n, in order:
//     if min_k ‖x_i − μ_k‖² > λ:  K ← K + 1, c_i ← K, μ_K ← x_i
//     else:                       c_i ← argmin_k ‖x_i − μ_k‖²   (ties: the smaller k)
//     μ of the cluster i left and of the cluster i joined ← the mean of their members
// Passes repeat until one changes no assignment (converged) or max_iterations passes have run.
// A cluster that loses its last member keeps its centre during the pass and is dropped at the
// pass's end; the others are renumbered in order of creation (so labels are 0..K−1).
// Worked example (notes 004 L1046): λ = 4, x = [0, 1, 5, 6] → K = 2, c = [2, 2, 1, 1],
// μ = (5.5, 0.5) (here 0-based: labels [1, 1, 0, 0]).
//
//   DPMeans dp({.lambda = 4});
//   Vector labels = dp.fit(X).labels();
#pragma once

#include "graph/tensor.h"
#include "models/cluster/center_clustering.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

struct DPMeansOptions {
  Scalar lambda = 1;           // λ > 0, the squared distance beyond which a point opens a cluster
  Index max_iterations = 100;  // ≥ 1 passes over the data

  template <class V>
  void visit(V&& v) {
    v("lambda", lambda, "λ > 0: a point farther than √λ from every centre opens a new cluster (squared distance)");
    v("max_iterations", max_iterations, "≥ 1 passes over the data");
  }
};

class DPMeans : public CenterClustering<DPMeans, DPMeansOptions> {
 public:
  static constexpr const char* kTypeName = "dp_means";

  // ValueError for λ ≤ 0 or not finite, or max_iterations < 1.
  explicit DPMeans(DPMeansOptions options = {});

  // X n×d finite, n ≥ 1 (ValueError/ShapeError otherwise). Callbacks (optim/callbacks.h) see
  // one iteration per pass: value = the objective Σ‖x_i − μ_{c_i}‖² + λK, x = the centres.
  DPMeans& fit(const Tensor& X, const CallbackList& callbacks = {});
  Vector predict(const Tensor& X) const;  // the nearest centre (no new clusters)
  Scalar score(const Tensor& X) const;    // −(Σ_i min_k ‖x_i − μ_k‖² + λK), higher is better

  Index num_clusters() const { return centers().rows(); }
  // The training rows' clusters; not saved (NotFittedError on a loaded model, as k-means).
  const Vector& labels() const;

  // The fitted state and its model-file form are CenterClustering's (center_clustering.h): the
  // options, the centres, the objective, the pass count and the convergence flag.

 private:
  Vector labels_;
};

extern template class Estimator<DPMeans, DPMeansOptions>;

}  // namespace dagml
