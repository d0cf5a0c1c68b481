// Radial-basis-function network classifier (notes 002 §1.7.2–1.7.3): a fixed
// layer of Gaussian bases followed by a linear output layer,
//   φ_m(x) = exp(−γ ‖x − c_m‖²),  m = 1..M   (notes 002 Eq. 1.23: unit width, γ = 1)
//   f(x) = Wᵀφ(x) + b ∈ ℝᴷ,          ŷ = argmax_k f_k(x)  (ties: the smallest class).
// Centres c_m: k-means centroids of the training rows (models/cluster/k_means.h, seeded), every
// training row, or a uniformly drawn subset of M training rows (notes 002 L710–720).
// Output layer:
//  * LeastSquares (default): ridge regression of the one-hot targets Y on φ, the bias not
//    penalised, in closed form:
//      min_{W,b} ‖ΦW + 1bᵀ − Y‖²_F + λ‖W‖²_F  ⇒  W = (Φ_cᵀΦ_c + λI)⁻¹ Φ_cᵀ Y_c,  b = ȳ − Wᵀφ̄,
//    with Φ_c, Y_c centred on their column means φ̄, ȳ.
//  * Gradient: the same objective divided by n, minimised over (W, b) by L-BFGS (optim/lbfgs.h)
//    on a graph loss whose gradient comes from autodiff; it agrees with the closed form up to the
//    tolerance. fit_report() says how the run ended (a run that stops at max_iterations is reported,
//    not thrown).
//  * LabelWeights: the notes' fixed-basis network: W has row m equal to the one-hot label of
//    centre m and b = 0 (only for centres that are training rows: TrainingPoints, RandomSubset).
//    With TrainingPoints and γ → ∞ this is the 1-nearest-neighbour rule.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/io/estimator.h"

namespace dagml {

enum class RbfCenters { KMeans, TrainingPoints, RandomSubset };
enum class RbfOutput { LeastSquares, Gradient, LabelWeights };
constexpr auto enum_names(RbfCenters) {
  return std::to_array<EnumName<RbfCenters>>({{RbfCenters::KMeans, "k_means"},
                                              {RbfCenters::TrainingPoints, "training_points"},
                                              {RbfCenters::RandomSubset, "random_subset"}});
}
constexpr auto enum_names(RbfOutput) {
  return std::to_array<EnumName<RbfOutput>>({{RbfOutput::LeastSquares, "least_squares"},
                                             {RbfOutput::Gradient, "gradient"},
                                             {RbfOutput::LabelWeights, "label_weights"}});
}

struct RbfNetworkOptions {
  RbfCenters centers = RbfCenters::KMeans;
  Index num_centers = 10;  // M for KMeans and RandomSubset (≤ n)
  Scalar gamma = 1;        // > 0
  RbfOutput output = RbfOutput::LeastSquares;
  Scalar lambda = 1e-8;              // λ ≥ 0, the ridge penalty of the output layer
  std::uint64_t seed = 0;            // k-means initialisation or the subset draw
  Index max_iterations = 1000;       // Gradient: L-BFGS iterations (≥ 1)
  Scalar gradient_tolerance = 1e-8;  // Gradient: stop when ‖∇f‖ ≤ this (> 0)

  template <class V>
  void visit(V&& v) {
    v("centers", centers, "k_means centroids, every training point, or a random_subset of the training rows");
    v("num_centers", num_centers, "M ≥ 1 centres for k_means and random_subset (≤ n)");
    v("gamma", gamma, "> 0, the width: φ(x) = exp(−γ ‖x − c‖²)");
    v("output", output, "least_squares (closed form), gradient (L-BFGS) or label_weights (the notes' fixed network)");
    v("lambda", lambda, "λ ≥ 0, the ridge penalty of the output layer");
    v("seed", seed, "the k-means initialisation or the subset draw");
    v("max_iterations", max_iterations, "gradient: ≥ 1 L-BFGS iterations");
    v("gradient_tolerance", gradient_tolerance, "gradient: > 0, stop when ‖∇f‖ ≤ this");
  }
};

// How the gradient fit of the output layer ended (RbfOutput::Gradient only).
struct RbfFitReport {
  Index iterations = 0;
  bool converged = true;
  Scalar objective = 0;  // f / n at the solution
  std::string message;
};

class RbfNetwork : public Estimator<RbfNetwork, RbfNetworkOptions> {
 public:
  static constexpr const char* kTypeName = "rbf_network";

  // ValueError: num_centers < 1, gamma ≤ 0, lambda < 0, LabelWeights with k-means centres.
  explicit RbfNetwork(RbfNetworkOptions options = {});

  // X n×d finite, labels 0..K−1 with K ≥ 2. ValueError when num_centers > n; NumericalError when
  // the least-squares system is singular (set lambda > 0).
  RbfNetwork& fit(const Tensor& X, const Vector& y);

  Tensor features(const Tensor& X) const;           // n×M basis values φ(x)
  Tensor decision_function(const Tensor& X) const;  // n×K outputs f(x)
  Vector predict(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  const Tensor& centers() const { return fitted_value(centers_); }  // M×d
  const Tensor& weights() const { return fitted_value(weights_); }  // M×K
  const Vector& bias() const { return fitted_value(bias_); }        // K
  // How the gradient fit ended (not saved: the default report after load).
  const RbfFitReport& fit_report() const { return fitted_value(report_); }

  // The options, centres, output weights and bias; a loaded model must have K ≥ 2 classes, M×d
  // centres, M×K weights and K biases (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(centers_, weights_, bias_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor centers_, weights_;
  Vector bias_;
  RbfFitReport report_;
};

extern template class Estimator<RbfNetwork, RbfNetworkOptions>;

}  // namespace dagml
