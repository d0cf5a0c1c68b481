#include "models/gp/gaussian_process_classifier.h"

#include <fmt/format.h>

#include <cmath>

#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/model_file.h"
#include "models/kernel/kernel_algebra.h"
#include "models/kernel/stationary_kernels.h"
#include "models/metrics/classification_metrics.h"

namespace dagml {

template class Estimator<GaussianProcessClassifier, GaussianProcessClassifierOptions>;

GaussianProcessClassifier::GaussianProcessClassifier(const GaussianProcessClassifierOptions& options)
    : Estimator(options) {
  const char* who = "GaussianProcessClassifier";
  if (options.restarts < 0) throw ValueError(fmt::format("{}: expected restarts ≥ 0, found {}", who, options.restarts));
  if (options.max_iterations < 1 || options.newton_max_iterations < 1)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 1 and newton_max_iterations ≥ 1, found {} and {}", who,
                                 options.max_iterations, options.newton_max_iterations));
  if (!(options.tolerance > 0) || !(options.newton_tolerance > 0) || !std::isfinite(options.tolerance) ||
      !std::isfinite(options.newton_tolerance))
    throw ValueError(fmt::format("{}: expected tolerance > 0 and newton_tolerance > 0, found {} and {}", who,
                                 options.tolerance, options.newton_tolerance));
  if (options.num_samples < 1)
    throw ValueError(fmt::format("{}: expected num_samples ≥ 1, found {}", who, options.num_samples));
  if (enum_name(options.multi_class) == "?")
    throw ValueError(fmt::format("{}: expected multi_class one_vs_rest or softmax, found the value {}", who,
                                 static_cast<int>(options.multi_class)));
}

namespace {

// The run of search_hyperparameters over the kernel's free θ that minimises −log_q(θ, gradient),
// with log_q = make_log_q() made once per run (it may keep work buffers between evaluations).
template <class MakeLogQ>
HyperparameterSearch optimise(const KernelPtr& kernel, const GaussianProcessClassifierOptions& options,
                              const CallbackList& callbacks, const MakeLogQ& make_log_q) {
  const auto [lower, upper] = kernel->free_log_bounds();
  const auto make_objective = [&] {
    return std::make_unique<FunctionObjective>(FunctionObjectiveSpec{
        .dimension = kernel->free_log_hyperparameters().size(),
        .value_and_gradient = [&, log_q = make_log_q()](const Vector& theta, Vector& gradient) {
          const KernelPtr at = kernel->with_log_hyperparameters(std::span<const Scalar>(theta.data(), theta.size()));
          const Scalar value = log_q(*at, gradient);
          gradient = -gradient;
          return -value;
        }});
  };
  return search_hyperparameters(make_objective, kernel->free_log_hyperparameters(), lower, upper,
                                {.restarts = options.restarts,
                                 .seed = options.seed,
                                 .stop = {.max_iterations = options.max_iterations,
                                          .gradient_tolerance = options.tolerance,
                                          .value_tolerance = 2.2e-9}},  // scipy's L-BFGS-B stopping rule factr = 1e7
                                callbacks);
}

KernelPtr at_theta(const KernelPtr& kernel, const Vector& theta) {
  return kernel->with_log_hyperparameters(std::span<const Scalar>(theta.data(), theta.size()));
}

// The stream of derive_seed(seed, ·) the softmax Monte Carlo draws come from (the restarts use 0, 1, …).
constexpr std::uint64_t kDrawStream = 0x736f66746d6178;  // "softmax"

}  // namespace

GaussianProcessClassifier& GaussianProcessClassifier::fit(const Tensor& X, const Vector& y, const CallbackList& callbacks) {
  const Index K = check_classification_data(X, y, "GaussianProcessClassifier::fit");
  const KernelPtr kernel = options_.kernel ? options_.kernel : constant(1) * std::make_shared<SquaredExponentialKernel>(1.0);
  (void)kernel->gram(X.topRows(1));  // a kernel that does not fit X (ARD length scales) fails here
  const bool search = options_.optimize && kernel->num_free_blocks() > 0;
  auto report = std::make_shared<std::vector<HyperparameterSearch>>();
  if (options_.multi_class == GpcMultiClass::Softmax) {
    const SoftmaxLaplaceOptions laplace{options_.newton_max_iterations, options_.newton_tolerance};
    KernelPtr fitted = kernel;
    if (search) {
      report->push_back(optimise(kernel, options_, callbacks, [&] {
        // One gradient graph per run, replayed for every θ.
        auto kernel_gradient = std::make_shared<KernelGramGradient>(*kernel, X);
        return [&, kernel_gradient](const Kernel& at, Vector& gradient) {
          return SoftmaxLaplaceGp::log_marginal_likelihood(at, X, y, K, laplace, &gradient, kernel_gradient.get());
        };
      }));
      fitted = at_theta(kernel, report->back().theta());
    }
    SoftmaxLaplaceGp gp;
    gp.fit(fitted, X, y, K, laplace);
    softmax_ = std::move(gp);
    binaries_.clear();
  } else {
    const BinaryLaplaceOptions laplace{options_.newton_max_iterations, options_.newton_tolerance, options_.warm_start};
    std::vector<BinaryLaplaceGp> binaries(K == 2 ? 1 : static_cast<std::size_t>(K));
    for (std::size_t c = 0; c < binaries.size(); ++c) {
      // Targets t ∈ {0, 1}: class 1 against 0, or class c against the rest.
      const Vector t = (y.array() == static_cast<Scalar>(K == 2 ? 1 : c)).cast<Scalar>();
      KernelPtr fitted = kernel;
      if (search) {
        report->push_back(optimise(kernel, options_, callbacks, [&] {
          // One evaluator per run: its gradient graph and work matrices are reused across θ.
          auto evaluator = std::make_shared<BinaryLaplaceGp::Evaluator>(*kernel, X, t, laplace);
          return [evaluator](const Kernel& at, Vector& gradient) { return evaluator->evaluate(at, &gradient); };
        }));
        fitted = at_theta(kernel, report->back().theta());
      }
      binaries[c].fit(fitted, X, t, laplace);
    }
    binaries_ = std::move(binaries);
    softmax_ = SoftmaxLaplaceGp();
  }
  num_classes_ = K;
  report_ = std::move(report);
  set_fitted(X.cols());
  return *this;
}

Tensor GaussianProcessClassifier::predict_proba(const Tensor& X) const {
  check_input(X);
  if (options_.multi_class == GpcMultiClass::Softmax)
    return softmax_.probability(X, options_.num_samples, derive_seed(options_.seed, kDrawStream));
  Tensor P(X.rows(), num_classes_);
  if (num_classes_ == 2) {
    const Vector p = binaries_[0].probability(X);
    P.col(0) = 1 - p.array();
    P.col(1) = p;
    return P;
  }
  for (Index c = 0; c < num_classes_; ++c) P.col(c) = binaries_[static_cast<std::size_t>(c)].probability(X);
  const Vector total = P.rowwise().sum();
  for (Index i = 0; i < P.rows(); ++i) {
    if (total[i] > 0)
      P.row(i) /= total[i];
    else
      P.row(i).setConstant(1.0 / static_cast<Scalar>(num_classes_));
  }
  return P;
}

Vector GaussianProcessClassifier::predict(const Tensor& X) const {
  const Tensor P = predict_proba(X);
  Vector labels(P.rows());
  for (Index i = 0; i < P.rows(); ++i) {
    Index best = 0;
    P.row(i).maxCoeff(&best);
    labels[i] = static_cast<Scalar>(best);
  }
  return labels;
}

Scalar GaussianProcessClassifier::score(const Tensor& X, const Vector& y) const {
  const Vector prediction = predict(X);
  check_same_rows(X, y, "GaussianProcessClassifier::score");
  return accuracy_score(y, prediction);
}

const SoftmaxLaplaceGp& GaussianProcessClassifier::softmax_gp() const {
  require_fitted();
  if (options_.multi_class != GpcMultiClass::Softmax)
    throw ValueError("GaussianProcessClassifier::softmax_gp: expected multi_class = softmax, found one_vs_rest "
                     "(see binary_gps())");
  return softmax_;
}

Scalar GaussianProcessClassifier::log_marginal_likelihood() const {
  if (options_.multi_class == GpcMultiClass::Softmax) return softmax_gp().log_marginal_likelihood();
  Scalar sum = 0;
  for (const BinaryLaplaceGp& b : binary_gps()) sum += b.log_marginal_likelihood();
  return sum / static_cast<Scalar>(binaries_.size());
}

const std::vector<HyperparameterSearch>& GaussianProcessClassifier::fit_report() const {
  require_fitted();
  if (!report_)
    throw NotFittedError("GaussianProcessClassifier::fit_report: the fit report is not saved in model files; it is "
                         "available after fit");
  return *report_;
}

void GaussianProcessClassifier::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  if (options_.multi_class == GpcMultiClass::Softmax) {
    if (num_classes_ < 2 || !softmax_.consistent(num_features(), num_classes_))
      ar.fail(fmt::format("GaussianProcessClassifier: expected K ≥ 2 classes and a consistent softmax GP over {} "
                          "features and K classes, found K = {} and an inconsistent GP",
                          num_features(), num_classes_));
    return;
  }
  const std::size_t expected = num_classes_ == 2 ? 1 : static_cast<std::size_t>(num_classes_);
  bool ok = num_classes_ >= 2 && binaries_.size() == expected;
  for (const BinaryLaplaceGp& b : binaries_) ok = ok && b.consistent(num_features());
  if (!ok)
    ar.fail(fmt::format("GaussianProcessClassifier: expected K ≥ 2 classes and {} consistent binary GPs over {} "
                        "features, found K = {} and {} binary GPs",
                        num_classes_ == 2 ? 1 : num_classes_, num_features(), num_classes_, binaries_.size()));
}

}  // namespace dagml
