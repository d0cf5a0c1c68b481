// Regression on the bundled diabetes data (442 patients, 10 features): least squares, ridge,
// LASSO, orthogonal matching pursuit, kernel ridge and polynomial regression, with every
// hyperparameter chosen by 5-fold cross-validation on the training part (ridge's λ also by
// gradient descent on the CV loss, differentiated through the ridge_solve node), then scored once
// on a held-out test part. Prints a comparison table and writes it as CSV.
//
//   ./build/examples/diabetes_regression [out.csv]     (default diabetes_regression.csv)
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "models/data/datasets.h"
#include "models/data/file_io.h"
#include "models/data/split.h"
#include "models/data/standard_scaler.h"
#include "models/kernel/kernel_ridge.h"
#include "models/linear/lasso.h"
#include "models/linear/linear_regression.h"
#include "models/linear/matching_pursuit.h"
#include "models/linear/polynomial_regression.h"
#include "models/linear/ridge.h"
#include "models/metrics/regression_metrics.h"
#include "models/select/grid_search.h"
#include "models/select/kernel_ridge_gradient.h"
#include "models/select/ridge_lambda_gradient.h"

using namespace dagml;

namespace {

struct Row {
  std::string model, choice;
  Scalar cv_r2, test_r2, test_mse;
  Index nonzero;
};

std::vector<Scalar> logspace(Scalar lo, Scalar hi, int count) {
  std::vector<Scalar> v;
  for (int i = 0; i < count; ++i) v.push_back(std::pow(10.0, lo + (hi - lo) * i / (count - 1)));
  return v;
}

template <class Model>
Row evaluate(const std::string& name, const std::string& choice, Model model, Scalar cv_r2, const TrainTestSplit& s,
             Index nonzero) {
  model.fit(s.X_train, s.y_train);
  const Vector pred = model.predict(s.X_test);
  return {name, choice, cv_r2, r2_score(s.y_test, pred), mean_squared_error(s.y_test, pred), nonzero};
}

}  // namespace

int main(int argc, char** argv) {
  const std::string csv_path = argc > 1 ? argv[1] : "diabetes_regression.csv";
  const Dataset data = load_dataset("diabetes");
  TrainTestSplit s = train_test_split(data.features, data.target, {.test_fraction = 0.2, .seed = 42});
  // Standardise with the training part's statistics only.
  StandardScaler scaler;
  s.X_train = scaler.fit_transform(s.X_train);
  s.X_test = scaler.transform(s.X_test);
  const KFold folds(s.X_train.rows(), {.k = 5, .shuffle = true, .seed = 7});
  fmt::print("diabetes: {} training and {} test samples, {} features; 5-fold CV on the training part\n\n",
             s.X_train.rows(), s.X_test.rows(), s.X_train.cols());

  std::vector<Row> rows;
  // Ordinary least squares: nothing to choose.
  const Vector ols_cv = cross_val_score(LinearRegression(), s.X_train, s.y_train, folds);
  rows.push_back(evaluate("OLS (QR)", "-", LinearRegression(), ols_cv.mean(), s, 10));

  // Ridge: λ on a log grid.
  const auto ridge = grid_search<Ridge>(RidgeOptions{}, &RidgeOptions::lambda, logspace(-3, 4, 29),
                                        s.X_train, s.y_train, folds);
  rows.push_back(evaluate("ridge, λ by CV", fmt::format("λ = {:.4g}", ridge.best_value), Ridge(ridge.best_options),
                          ridge.best_score, s, 10));

  // Ridge: λ by L-BFGS then Newton on the CV loss in log λ, its derivatives from the graph.
  const RidgeLambdaSearch by_gradient = ridge_lambda_by_gradient(s.X_train, s.y_train, folds, 1.0);
  const Vector gradient_cv = cross_val_score(Ridge({.lambda = by_gradient.lambda}), s.X_train, s.y_train, folds);
  rows.push_back(evaluate("ridge, λ by gradient", fmt::format("λ = {:.4g}", by_gradient.lambda),
                          Ridge({.lambda = by_gradient.lambda}), gradient_cv.mean(), s, 10));

  // LASSO: λ on a geometric grid below λ_max (the notes' scaling, ‖Xw − y‖² + λ‖w‖₁).
  const auto lasso = grid_search<Lasso>(LassoOptions{}, &LassoOptions::lambda,
                                        geometric_lambdas(Lasso::lambda_max(s.X_train, s.y_train), 1e-4, 30), s.X_train,
                                        s.y_train, folds);
  Lasso lasso_model(lasso.best_options);
  lasso_model.fit(s.X_train, s.y_train);
  rows.push_back(evaluate("LASSO, λ by CV", fmt::format("λ = {:.4g}", lasso.best_value), lasso_model, lasso.best_score,
                          s, (lasso_model.coef().array() != 0).count()));

  // Orthogonal matching pursuit: the sparsity k.
  const auto omp =
      grid_search<MatchingPursuit>(MatchingPursuitOptions{}, &MatchingPursuitOptions::num_nonzero,
                                   std::vector<Index>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, s.X_train, s.y_train, folds);
  rows.push_back(evaluate("OMP, k by CV", fmt::format("k = {}", omp.best_value), MatchingPursuit(omp.best_options),
                          omp.best_score, s, omp.best_value));

  // Polynomial features: the degree (with a small ridge penalty, chosen on a coarse grid per degree).
  Row best_poly{"polynomial, degree by CV", "", -1e300, 0, 0, 0};
  for (Scalar lambda : {1.0, 10.0, 100.0}) {
    const auto poly = grid_search<PolynomialRegression>(PolynomialRegressionOptions{.lambda = lambda},
                                                        &PolynomialRegressionOptions::degree,
                                                        std::vector<Index>{1, 2, 3}, s.X_train, s.y_train, folds);
    if (poly.best_score > best_poly.cv_r2) {
      PolynomialRegression model(poly.best_options);
      model.fit(s.X_train, s.y_train);
      best_poly = evaluate("polynomial, degree by CV", fmt::format("p = {}, λ = {:g}", poly.best_value, lambda), model,
                           poly.best_score, s, model.coef().size());
    }
  }
  rows.push_back(best_poly);

  // Kernel ridge with an RBF kernel: γ and λ on a small grid.
  Row best_krr{"kernel ridge (RBF)", "", -1e300, 0, 0, 0};
  for (Scalar gamma : {0.003, 0.01, 0.03, 0.1}) {
    const auto krr =
        grid_search<KernelRidge>(KernelRidgeOptions{.kernel = std::make_shared<RbfKernel>(gamma)},
                                 &KernelRidgeOptions::lambda, logspace(-2, 1, 7), s.X_train, s.y_train, folds);
    if (krr.best_score > best_krr.cv_r2) {
      best_krr = evaluate("kernel ridge (RBF)", fmt::format("γ = {:g}, λ = {:.3g}", gamma, krr.best_value),
                          KernelRidge(krr.best_options), krr.best_score, s, s.X_train.rows());
    }
  }
  rows.push_back(best_krr);

  // Kernel ridge with the polynomial kernel (γ xᵀz + 1)²: γ and λ together by L-BFGS + Newton on
  // the CV loss, differentiated through the cholesky_solve node. Kernel ridge has no intercept, so
  // it is fitted to y − ȳ (as the CV loss is).
  const auto poly_gradient = polynomial_kernel_ridge_by_gradient(
      s.X_train, s.y_train, folds, {.degree = 2, .initial_gamma = 0.1, .initial_lambda = 10});
  {
    const Scalar mean = s.y_train.mean();
    KernelRidge krr(
        {.kernel = std::make_shared<PolynomialKernel>(2, poly_gradient.gamma, 1.0), .lambda = poly_gradient.lambda});
    krr.fit(s.X_train, s.y_train.array() - mean);
    const Vector pred = krr.predict(s.X_test).array() + mean;
    // CV R² on the same folds, for the table.
    Scalar cv_r2 = 0;
    for (const Fold& f : folds) {
      const Vector yt = take_rows(s.y_train, f.train);
      KernelRidge m(krr.options());
      m.fit(take_rows(s.X_train, f.train), yt.array() - yt.mean());
      const Vector p = m.predict(take_rows(s.X_train, f.test)).array() + yt.mean();
      cv_r2 += r2_score(take_rows(s.y_train, f.test), p) / static_cast<Scalar>(folds.num_folds());
    }
    rows.push_back({"kernel ridge (poly 2)",
                    fmt::format("γ = {:.3g}, λ = {:.3g} (∇)", poly_gradient.gamma, poly_gradient.lambda), cv_r2,
                    r2_score(s.y_test, pred), mean_squared_error(s.y_test, pred), s.X_train.rows()});
  }

  fmt::print("{:<26} {:<28} {:>8} {:>8} {:>10} {:>8}\n", "model", "chosen", "CV R²", "test R²", "test MSE", "nonzero");
  std::string csv = "model,chosen,cv_r2,test_r2,test_mse,nonzero\n";
  for (const Row& r : rows) {
    fmt::print("{:<26} {:<28} {:>8.4f} {:>8.4f} {:>10.1f} {:>8}\n", r.model, r.choice, r.cv_r2, r.test_r2, r.test_mse,
               r.nonzero);
    csv += fmt::format("\"{}\",\"{}\",{:.6f},{:.6f},{:.4f},{}\n", r.model, r.choice, r.cv_r2, r.test_r2, r.test_mse,
                       r.nonzero);
  }
  // Grid against gradient on the same criterion, the CV mean squared error.
  RidgeCvLoss cv_loss(s.X_train, s.y_train, folds);
  Scalar grid_lambda = 0, grid_mse = 1e300;
  for (Scalar lambda : logspace(-3, 4, 29)) {
    cv_loss.set_log_lambda(std::log(lambda));
    if (cv_loss.loss() < grid_mse) grid_mse = cv_loss.loss(), grid_lambda = lambda;
  }
  fmt::print(
      "\nridge λ by CV mean squared error: grid of 29 values {:.4g} (CV MSE {:.3f}); gradient {:.4g} "
      "(CV MSE {:.3f}, {} L-BFGS + Newton steps from λ = 1; {})\n",
      grid_lambda, grid_mse, by_gradient.lambda, by_gradient.cv_loss, by_gradient.result.iterations,
      by_gradient.result.message);
  write_text_file(csv_path, csv);
  fmt::print("\nwrote {}\n", csv_path);
  return 0;
}
