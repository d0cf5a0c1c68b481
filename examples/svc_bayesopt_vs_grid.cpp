// Tuning an RBF SVM's C and γ on the breast-cancer data (569 × 30) by 5-fold cross-validated
// accuracy, two ways with the same number of fits: a 5×5 grid, log-spaced over C ∈ [1e-2, 1e3] and
// γ ∈ [1e-4, 1e1], against Bayesian optimisation of the same box with both dimensions on a log
// scale and 25 evaluations (an 8-point Latin hypercube, then expected improvement; seed 0). The
// features are standardised inside each fold (the scaler is fitted on the fold's training rows), and
// both searches use the same stratified, shuffled folds.
//
//   ./build/examples/svc_bayesopt_vs_grid
//
// Writes build/example-output/svc_bayesopt_vs_grid.csv: method, evaluation index, C, γ, the
// cross-validated accuracy and the best accuracy so far.
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <string>

#include "graph/error.h"
#include "models/bayesopt/bayesian_optimizer.h"
#include "models/classify/svc.h"
#include "models/data/datasets.h"
#include "models/data/standard_scaler.h"
#include "models/select/cross_validation.h"

using namespace dagml;

namespace {

// An SVC on standardised features: the scaler is fitted with the classifier, so that
// cross-validation never scales with statistics of the test fold.
struct StandardisedSvc {
  StandardScaler scaler;
  SVC svc;

  explicit StandardisedSvc(const SVCOptions& options) : svc(options) {}
  StandardisedSvc& fit(const Tensor& X, const Vector& y) {
    svc.fit(scaler.fit_transform(X), y);
    return *this;
  }
  Scalar score(const Tensor& X, const Vector& y) const { return svc.score(scaler.transform(X), y); }
};

struct Trace {
  Tensor settings;  // (C, γ) per evaluation
  Vector accuracy;  // its mean cross-validated accuracy
};

// The first evaluation (1-based) whose accuracy reaches `target`, or 0 if none.
Index first_reaching(const Vector& accuracy, Scalar target) {
  for (Index i = 0; i < accuracy.size(); ++i)
    if (accuracy(i) >= target) return i + 1;
  return 0;
}

void write_trace(std::ofstream& csv, const std::string& method, const Trace& trace) {
  Scalar best = 0;
  for (Index i = 0; i < trace.accuracy.size(); ++i) {
    best = std::max(best, trace.accuracy(i));
    csv << fmt::format("{},{},{:.10g},{:.10g},{:.10g},{:.10g}\n", method, i + 1, trace.settings(i, 0),
                       trace.settings(i, 1), trace.accuracy(i), best);
  }
}

}  // namespace

int main() try {
  const Dataset data = load_dataset("breast_cancer");
  const StratifiedKFold folds(data.target, {.k = 5, .shuffle = true, .seed = 0});
  auto cv_accuracy = [&](Scalar C, Scalar gamma) {
    const StandardisedSvc model({.C = C, .kernel = std::make_shared<RbfKernel>(gamma)});
    return cross_val_score(model, data.features, data.target, folds).mean();
  };
  const Scalar log_C_lower = -2, log_C_upper = 3, log_gamma_lower = -4, log_gamma_upper = 1;
  fmt::print("breast cancer ({} × {}), RBF SVC, 5-fold stratified cross-validated accuracy\n", data.features.rows(),
             data.features.cols());
  fmt::print("box: C ∈ [1e{}, 1e{}], γ ∈ [1e{}, 1e{}]\n", log_C_lower, log_C_upper, log_gamma_lower, log_gamma_upper);

  // The grid: 5 log-spaced values of each.
  const Index side = 5;
  Trace grid{Tensor(side * side, 2), Vector(side * side)};
  for (Index a = 0; a < side; ++a)
    for (Index b = 0; b < side; ++b) {
      const Index i = a * side + b;
      const Scalar t_C = static_cast<Scalar>(a) / static_cast<Scalar>(side - 1);
      const Scalar t_gamma = static_cast<Scalar>(b) / static_cast<Scalar>(side - 1);
      grid.settings(i, 0) = std::pow(10.0, log_C_lower + t_C * (log_C_upper - log_C_lower));
      grid.settings(i, 1) = std::pow(10.0, log_gamma_lower + t_gamma * (log_gamma_upper - log_gamma_lower));
      grid.accuracy(i) = cv_accuracy(grid.settings(i, 0), grid.settings(i, 1));
    }
  Index grid_best = 0;
  grid.accuracy.maxCoeff(&grid_best);

  const Index design_points = 8;
  const SearchSpace space(
      {SearchDimension::real("C", std::pow(10.0, log_C_lower), std::pow(10.0, log_C_upper), true),
       SearchDimension::real("gamma", std::pow(10.0, log_gamma_lower), std::pow(10.0, log_gamma_upper), true)});
  const BayesianOptimizationResult bo =
      BayesianOptimizer(space, {.max_evaluations = side * side, .initial_points = design_points, .seed = 0})
          .maximize([&](const Vector& x) { return cv_accuracy(x(0), x(1)); });
  const Trace bayesian{bo.points, bo.values};

  fmt::print("grid search, {} settings:           best accuracy {:.4f} at C = {:.4g}, γ = {:.4g}\n",
             grid.accuracy.size(), grid.accuracy(grid_best), grid.settings(grid_best, 0), grid.settings(grid_best, 1));
  fmt::print("Bayesian optimisation, {} settings: best accuracy {:.4f} at C = {:.4g}, γ = {:.4g}\n",
             bayesian.accuracy.size(), bo.best_value, bo.best_point(0), bo.best_point(1));
  const Index reached = first_reaching(bayesian.accuracy, grid.accuracy(grid_best));
  if (reached == 0) {
    fmt::print("Bayesian optimisation did not reach the grid's best accuracy in {} evaluations\n",
               bayesian.accuracy.size());
  } else {
    fmt::print(
        "Bayesian optimisation reached the grid's best accuracy at evaluation {}, {} its {}-point "
        "Latin-hypercube design\n",
        reached, reached <= design_points ? "within" : "after", design_points);
  }

  std::ofstream csv("svc_bayesopt_vs_grid.csv");
  csv << "method,evaluation,C,gamma,cv_accuracy,best_so_far\n";
  write_trace(csv, "grid_search", grid);
  write_trace(csv, "bayesian_optimization", bayesian);
  fmt::print("wrote svc_bayesopt_vs_grid.csv\n");
  return 0;
} catch (const Error& e) {
  fmt::print(stderr, "svc_bayesopt_vs_grid: {}\n", e.what());
  return 1;
}
