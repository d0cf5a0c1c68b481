// Scaling a kernel up: the RBF kernel on the handwritten digits (pixels / 16, γ = 0.2, as
// scikit-learn's kernel-approximation example) approximated by random Fourier features and by
// Nyström features. For m = 25 … 1000 features it prints the relative error ‖K − K̃‖_F / ‖K‖_F of
// the training Gram matrix (K̃ = φ(X)φ(X)ᵀ), then the test accuracy of a linear model (L2 logistic
// regression) on each feature map against the exact kernel model (an RBF SVM), with fit times.
// Writes build/example-output/kernel_approximation.csv: method, m, relative Gram error, test
// accuracy of logistic regression on the features.
//
//   ./build/examples/kernel_approximation
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <memory>

#include "models/classify/logistic_regression.h"
#include "models/classify/svc.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/kernel/nystroem.h"
#include "models/kernel/random_fourier_features.h"

using namespace dagml;

namespace {

Scalar seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<Scalar>(std::chrono::steady_clock::now() - start).count();
}

struct ApproximationResult {
  Scalar gram_error;  // ‖K − ΦΦᵀ‖_F / ‖K‖_F on the training rows
  Scalar accuracy;    // logistic regression on Φ, test rows
  Scalar seconds;     // feature map fit + transform + logistic regression fit
};

// Fits `map` on the training rows, then logistic regression on its features.
template <class FeatureMap>
ApproximationResult evaluate_feature_map(FeatureMap map, const TrainTestSplit& split, const Tensor& K) {
  const auto start = std::chrono::steady_clock::now();
  const Tensor Phi = map.fit_transform(split.X_train);
  LogisticRegression logistic({.C = 10, .max_iterations = 500});
  logistic.fit(Phi, split.y_train);
  const Scalar seconds = seconds_since(start);
  return {(K - Phi * Phi.transpose()).norm() / K.norm(), logistic.score(map.transform(split.X_test), split.y_test),
          seconds};
}

}  // namespace

int main() try {
  const Dataset digits = load_dataset("digits");
  const Tensor X = digits.features / 16;
  const TrainTestSplit split = train_test_split(X, digits.target, {.test_fraction = 0.25, .seed = 0, .stratify = true});
  const KernelPtr kernel = std::make_shared<RbfKernel>(0.2);
  const Tensor K = kernel->gram(split.X_train);
  fmt::print("digits / 16: {} training and {} test rows, {} features; kernel {}\n", split.X_train.rows(),
             split.X_test.rows(), X.cols(), kernel->name());

  auto start = std::chrono::steady_clock::now();
  SVC svm({.C = 10, .kernel = kernel});
  svm.fit(split.X_train, split.y_train);
  const Scalar svm_seconds = seconds_since(start);
  const Scalar svm_accuracy = svm.score(split.X_test, split.y_test);

  std::ofstream csv("kernel_approximation.csv");
  csv << "method,num_components,relative_gram_error,test_accuracy\n";
  fmt::print("\n{:>6}  {:>24}  {:>24}\n", "", "random Fourier features", "Nyström");
  fmt::print("{:>6}  {:>9} {:>8} {:>5}  {:>9} {:>8} {:>5}\n", "m", "Gram err", "accuracy", "s", "Gram err", "accuracy",
             "s");
  for (Index m : {25, 50, 100, 200, 400, 800, 1000}) {
    const ApproximationResult rff =
        evaluate_feature_map(RandomFourierFeatures({.kernel = kernel, .num_components = m, .seed = 1}), split, K);
    const ApproximationResult nystroem =
        evaluate_feature_map(Nystroem({.kernel = kernel, .num_components = m, .seed = 1}), split, K);
    fmt::print("{:>6}  {:>9.4f} {:>8.4f} {:>5.2f}  {:>9.4f} {:>8.4f} {:>5.2f}\n", m, rff.gram_error, rff.accuracy,
               rff.seconds, nystroem.gram_error, nystroem.accuracy, nystroem.seconds);
    csv << fmt::format("random_fourier_features,{},{:.8f},{:.6f}\n", m, rff.gram_error, rff.accuracy);
    csv << fmt::format("nystroem,{},{:.8f},{:.6f}\n", m, nystroem.gram_error, nystroem.accuracy);
  }
  fmt::print(
      "Gram err: ‖K − K̃‖_F / ‖K‖_F on the training rows; accuracy: logistic regression on the features, "
      "test rows; s: feature map and logistic fit\n");
  fmt::print("\nexact kernel model, RBF SVC (C = 10): test accuracy {:.4f}, fit {:.2f} s\n", svm_accuracy, svm_seconds);
  fmt::print("wrote kernel_approximation.csv\n");
  return 0;
} catch (const Error& e) {
  fmt::print(stderr, "kernel_approximation: {}\n", e.what());
  return 1;
}
