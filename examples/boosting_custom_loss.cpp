// Gradient boosting with a loss written as a graph, next to the built-in one, on breast cancer:
// the built-in logistic loss, the same loss written as a graph (autodiff supplies its gradient
// and Hessian; the two models are the same, bit for bit), and a focal loss
// ℓ = −(1 − p_t)² log p_t that down-weights the rows already classified well. Prints the test
// log loss and accuracy after chosen rounds. Usage: boosting_custom_loss
#include <fmt/format.h>

#include <vector>

#include "autodiff/elementwise.h"
#include "autodiff/losses.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/ensemble/gradient_boosting_classifier.h"
#include "models/ensemble/graph_loss.h"
#include "models/metrics/classification_metrics.h"
#include "models/metrics/scoring_metrics.h"

using namespace dagml;

int main() {
  const Dataset bc = load_dataset("breast_cancer");
  const TrainTestSplit s =
      train_test_split(bc.features, bc.target, {.test_fraction = 0.3, .seed = 5, .stratify = true});

  // The logistic loss log(1 + e^F) − yF as a graph (the op evaluates it without overflow).
  const GraphBoostingLoss logistic("logistic_as_a_graph", 1, BoostingLink::Sigmoid,
                                   [](Var F, Var y) { return binary_cross_entropy_with_logits_elementwise(F, y); });
  // p = σ(F), p_t the probability of the true class.
  const GraphBoostingLoss focal("focal", 1, BoostingLink::Sigmoid, [](Var F, Var y) {
    Var p = sigmoid(F);
    Var pt = y * p + (1.0 - y) * (1.0 - p);
    return -1.0 * square(1.0 - pt) * log(pt);
  });

  const GradientBoostingClassifierOptions options{.boosting = {.max_iterations = 100, .learning_rate = 0.1}};
  GradientBoostingClassifier builtin(options), by_hand(options), focal_model(options);
  builtin.fit(s.X_train, s.y_train);
  by_hand.fit(s.X_train, s.y_train, logistic);
  focal_model.fit(s.X_train, s.y_train, focal);

  const Tensor difference = builtin.predict_proba(s.X_test) - by_hand.predict_proba(s.X_test);
  fmt::print("built-in logistic vs the same loss as a graph: largest test probability difference {:.3g}\n\n",
             difference.cwiseAbs().maxCoeff());

  const std::vector<Tensor> staged[] = {builtin.staged_predict_proba(s.X_test),
                                        focal_model.staged_predict_proba(s.X_test)};
  fmt::print("{:>6}  {:>22}  {:>22}\n", "", "built-in logistic", "focal (graph)");
  fmt::print("{:>6}  {:>10} {:>11}  {:>10} {:>11}\n", "round", "log loss", "accuracy", "log loss", "accuracy");
  for (Index round : {1, 5, 10, 25, 50, 100}) {
    fmt::print("{:>6}", round);
    for (const auto& stages : staged) {
      const Tensor& P = stages[static_cast<std::size_t>(round - 1)];
      Vector predicted(P.rows());
      for (Index i = 0; i < P.rows(); ++i) predicted(i) = P(i, 1) > P(i, 0) ? 1 : 0;
      fmt::print("  {:>10.4f} {:>11.4f}", log_loss(s.y_test, P), accuracy_score(s.y_test, predicted));
    }
    fmt::print("\n");
  }
  return 0;
}
