// Gaussian process classification by the Laplace approximation (binary_laplace_gp.h; notes 004
// §3.4, Rasmussen & Williams §3.4): a latent GP f with the logistic likelihood p(y = 1 | f) = σ(f),
// the posterior of f approximated by a Gaussian at its mode, class probabilities by the
// logistic–Gaussian integral, and the kernel hyperparameters by maximising the approximate
// marginal likelihood log q(y | X, θ) (gradient by Algorithm 5.1 with ∂K/∂θ from autodiff), with
// ProjectedLbfgs from parallel seeded restarts (multi_start_search.h).
//
// K > 2 classes are handled one of two ways (`multi_class`):
//   one_vs_rest (the default, as scikit-learn's GaussianProcessClassifier): one binary GP per class
//     (each with its own fitted hyperparameters), probabilities normalised to sum to 1;
//   softmax: one joint Laplace approximation with the softmax likelihood (softmax_laplace_gp.h;
//     Rasmussen & Williams Algorithms 3.3 and 3.4), K latent GPs sharing one kernel, whose
//     hyperparameters maximise the joint approximate marginal likelihood, and probabilities
//     E softmax(f*) by Monte Carlo over `num_samples` seeded draws. Also allowed for K = 2.
//
//   GaussianProcessClassifier gpc({.kernel = parse_kernel("constant(value=1) * rbf(length_scale=1)")});
//   gpc.fit(X, y);                       // y ∈ {0, …, K−1}
//   Tensor P = gpc.predict_proba(X_new);  // n×K
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "graph/enum_names.h"
#include "models/gp/binary_laplace_gp.h"
#include "models/gp/softmax_laplace_gp.h"
#include "models/io/estimator.h"
#include "models/kernel/kernel_io.h"

namespace dagml {

enum class GpcMultiClass { OneVsRest, Softmax };
constexpr auto enum_names(GpcMultiClass) {
  return std::to_array<EnumName<GpcMultiClass>>(
      {{GpcMultiClass::OneVsRest, "one_vs_rest"}, {GpcMultiClass::Softmax, "softmax"}});
}

struct GaussianProcessClassifierOptions {
  KernelPtr kernel = nullptr;            // null: constant(value=1) * rbf(length_scale=1), both free
  bool optimize = true;                  // maximise log q(y | X, θ) over the free θ
  Index restarts = 0;                    // ≥ 0 extra optimiser runs from log-uniform starts
  Index max_iterations = 1000;           // ≥ 1 per optimiser run
  Scalar tolerance = 1e-5;               // > 0, projected gradient norm at convergence
  Index newton_max_iterations = 100;     // ≥ 1, Newton steps of the mode search
  Scalar newton_tolerance = 1e-10;       // > 0, |Δ log q| that ends the mode search
  std::uint64_t seed = 0;                // for the restarts' starts and the softmax draws
  // Model-file layout 2 added these two (field_layout below).
  GpcMultiClass multi_class = GpcMultiClass::OneVsRest;
  Index num_samples = 1000;              // ≥ 1, Monte Carlo draws per test row (softmax)
  // Model-file layout 3 added it.
  bool warm_start = true;  // each mode search of a binary GP's run starts at the last mode

  template <class V>
  void visit(V&& v) {
    v("kernel", kernel, "the latent GP's covariance (kernel text form); empty: constant(value=1) * rbf(length_scale=1)");
    v("optimize", optimize, "maximise the approximate marginal likelihood over the kernel's free hyperparameters");
    v("restarts", restarts, "≥ 0 further optimiser runs from log-uniform starts within the bounds");
    v("max_iterations", max_iterations, "≥ 1, iterations of each optimiser run");
    v("tolerance", tolerance, "> 0, projected-gradient norm at which a run has converged");
    v("newton_max_iterations", newton_max_iterations, "≥ 1, Newton steps of the posterior-mode search");
    v("newton_tolerance", newton_tolerance, "> 0, change of log q that ends the mode search");
    v("seed", seed, "seed of the restarts' starting points and of the softmax Monte Carlo draws");
    v("multi_class", multi_class,
      "one_vs_rest (a binary GP per class, as scikit-learn) or softmax (one joint Laplace approximation, shared "
      "kernel)");
    v("num_samples", num_samples, "≥ 1, Monte Carlo draws of the latent values per test row (softmax)");
    v("warm_start", warm_start,
      "start each posterior-mode search of a hyperparameter run at the previous evaluation's mode (binary and "
      "one-vs-rest GPs; scikit-learn's warm_start); false: from f = 0");
  }
  // Model-file layout 2 added multi_class and num_samples, layout 3 warm_start: an older file
  // loads with their defaults (one_vs_rest).
  static constexpr std::uint32_t field_layout(std::string_view field) {
    if (field == "warm_start") return 3;
    return field == "multi_class" || field == "num_samples" ? 2 : 1;
  }
};

class GaussianProcessClassifier : public Estimator<GaussianProcessClassifier, GaussianProcessClassifierOptions> {
 public:
  static constexpr const char* kTypeName = "gaussian_process_classifier";
  // Layout 2 added the options multi_class and num_samples and, with softmax, the joint GP in
  // place of the binary ones; a layout-1 file loads as one_vs_rest with num_samples = 1000.
  // Layout 3 added the option warm_start (older files load with true).
  static constexpr std::uint32_t kModelVersion = 3;

  explicit GaussianProcessClassifier(const GaussianProcessClassifierOptions& options = {});

  // y holds labels 0..K−1, K ≥ 2. Throws ValueError (NaN, empty, one class only), ShapeError.
  // `callbacks` watch the optimiser run from the kernel's own hyperparameters (of each binary GP,
  // or of the joint softmax GP).
  GaussianProcessClassifier& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});
  Tensor predict_proba(const Tensor& X) const;  // n×K
  Vector predict(const Tensor& X) const;        // the most probable class (the first at a tie)
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  Index num_classes() const { return fitted_value(num_classes_); }
  // The binary GPs: one (classes 0/1), or one per class (one-vs-rest); none with softmax.
  const std::vector<BinaryLaplaceGp>& binary_gps() const { return fitted_value(binaries_); }
  // The joint GP of multi_class = softmax (ValueError for one-vs-rest).
  const SoftmaxLaplaceGp& softmax_gp() const;
  // log q(y | X, θ) at the fitted θ: with softmax the joint one; with one-vs-rest, the mean over
  // the binary GPs (as scikit-learn).
  Scalar log_marginal_likelihood() const;
  // The hyperparameter searches of the fit, one per binary GP or one for the softmax GP (empty
  // when nothing was optimised); available after fit, not after load.
  const std::vector<HyperparameterSearch>& fit_report() const;

  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(num_classes_);
    if (options_.multi_class == GpcMultiClass::Softmax)
      ar(softmax_);
    else
      ar(binaries_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Index num_classes_ = 0;
  std::vector<BinaryLaplaceGp> binaries_;
  SoftmaxLaplaceGp softmax_;
  std::shared_ptr<const std::vector<HyperparameterSearch>> report_;
};

extern template class Estimator<GaussianProcessClassifier, GaussianProcessClassifierOptions>;

}  // namespace dagml
