// k-medians (notes 000 part 2, appendix lines 4590–4614): k-means with the L¹ distance, so each
// centre is the coordinate-wise median of its cluster and the objective
//   Σ_i ‖x_i − c_{z_i}‖₁
// is robust to outliers. Lloyd-style alternation, each step never raising the objective:
//   assign:  z_i ← argmin_k ‖x_i − c_k‖₁        (ties: the smaller k)
//   update:  c_k ← the coordinate-wise median of {x_i : z_i = k}
//            (an even count: the midpoint of the two middle values, as numpy.median;
//             an empty cluster keeps its centre)
// until the assignments stop changing (converged) or max_iterations. Initial centres: `random`
// draws K distinct rows (seeded, graph/random.h), `given` takes initial_centers.
//
//   KMedians km({.num_clusters = 3, .seed = 1});
//   Vector labels = km.fit(X).predict(X);
#pragma once

#include <cstdint>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/cluster/center_clustering.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class KMediansInit { Random, Given };
constexpr auto enum_names(KMediansInit) {
  return std::to_array<EnumName<KMediansInit>>({{KMediansInit::Random, "random"}, {KMediansInit::Given, "given"}});
}

struct KMediansOptions {
  Index num_clusters = 8;  // K ≥ 1
  KMediansInit init = KMediansInit::Random;
  Tensor initial_centers = Tensor();  // K×d, for init = given
  Index max_iterations = 300;         // ≥ 1
  std::uint64_t seed = 0;             // for init = random

  template <class V>
  void visit(V&& v) {
    v("num_clusters", num_clusters, "≥ 1 clusters K");
    v("init", init, "random (K distinct rows drawn from the seed) or given (initial_centers)");
    v("initial_centers", initial_centers, "K×d starting centres for init = given");
    v("max_iterations", max_iterations, "≥ 1 iterations");
    v("seed", seed, "for the random start");
  }
};

class KMedians : public CenterClustering<KMedians, KMediansOptions> {
 public:
  static constexpr const char* kTypeName = "k_medians";

  // ValueError: num_clusters < 1, max_iterations < 1; given centres not K rows of finite values.
  explicit KMedians(KMediansOptions options = {});

  // X n×d finite with at least K distinct rows (ValueError; ShapeError for given centres of
  // another width). Callbacks: value = Σ‖x_i − c_{z_i}‖₁, x = the centres row by row.
  KMedians& fit(const Tensor& X, const CallbackList& callbacks = {});
  Vector predict(const Tensor& X) const;    // the nearest centre in L¹
  Tensor transform(const Tensor& X) const;  // n×K L¹ distances to the centres
  Scalar score(const Tensor& X) const;      // −Σ_i min_k ‖x_i − c_k‖₁

  // The fitted state and its model-file form are CenterClustering's (center_clustering.h): the
  // options, the centres, the objective, the iteration count and the convergence flag.
};

extern template class Estimator<KMedians, KMediansOptions>;

}  // namespace dagml
