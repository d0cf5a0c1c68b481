// Logistic regression on the bundled breast-cancer data: Newton's method (IRLS) against plain
// gradient descent on the same objective, the loss of each per iteration written to a CSV file.
//
//   breast_cancer_logistic [OUT.csv]     (default breast_cancer_logistic_loss.csv)
//
// The data are standardised on a stratified 75/25 split (seed 0); the objective is notes 004's
// mean form (1/n) Σ log(1 + e^{−y f}) + (1/(2C)) ‖w‖² (reduction = Mean), C = 100.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>

#include "graph/error.h"
#include "models/classify/logistic_regression.h"
#include "models/data/csv.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/data/standard_scaler.h"
#include "optim/update_rule.h"

using namespace dagml;

int main(int argc, char** argv) try {
  const std::string out = argc > 1 ? argv[1] : "breast_cancer_logistic_loss.csv";
  const Dataset data = load_dataset("breast_cancer");
  TrainTestSplit s = train_test_split(data.features, data.target, {.test_fraction = 0.25, .seed = 0, .stratify = true});
  StandardScaler scaler;
  s.X_train = scaler.fit_transform(s.X_train);
  s.X_test = scaler.transform(s.X_test);

  const LogisticRegressionOptions common{
      .C = 100.0, .reduction = LossReduction::Mean, .tolerance = 1e-6, .max_iterations = 5000};
  LogisticRegressionOptions newton_options = common;
  newton_options.solver = LogisticSolver::Newton;
  LogisticRegressionOptions gd_options = common;
  gd_options.solver = LogisticSolver::FirstOrder;
  const auto step = std::make_shared<GradientStep>(GradientStepOptions{.schedule = StepSchedule::constant(0.5)});

  LogisticRegression newton(newton_options), gd(gd_options, step);
  newton.fit(s.X_train, s.y_train);
  gd.fit(s.X_train, s.y_train);
  for (const auto* m : {&newton, &gd}) {
    const Result& r = m->fit_result();
    fmt::print("{:<17} {:>4} iterations, final loss {:.10f}, test accuracy {:.4f} ({})\n",
               m == &newton ? "Newton (IRLS)" : "gradient descent", r.iterations, r.value, m->score(s.X_test, s.y_test),
               r.message);
  }
  const auto& hn = newton.fit_result().history;
  const auto& hg = gd.fit_result().history;
  const size_t rows = std::max(hn.size(), hg.size());
  Tensor table(static_cast<Index>(rows), 3);
  for (size_t t = 0; t < rows; ++t) {
    // After convergence a method's loss stays at its last value.
    table(static_cast<Index>(t), 0) = static_cast<Scalar>(t);
    table(static_cast<Index>(t), 1) = hn[std::min(t, hn.size() - 1)];
    table(static_cast<Index>(t), 2) = hg[std::min(t, hg.size() - 1)];
  }
  write_csv(out, table, {"iteration", "newton", "gradient_descent"});
  fmt::print("wrote {} ({} rows)\n", out, rows);
  return 0;
} catch (const Error& e) {
  fmt::print(stderr, "breast_cancer_logistic: {}\n", e.what());
  return 1;
}
