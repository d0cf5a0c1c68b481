// Nonlinear least squares: sensor localisation (notes 000 §4.1, notes000_part1.md E17),
// exponential decay against SciPy, Gauss-Newton on a linear model is OLS in one step, errors and
// save/load.
#include <gtest/gtest.h>

#include <filesystem>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "autodiff/structure.h"
#include "models/io/model_file.h"
#include "models/linear/linear_regression.h"
#include "models/linear/nonlinear_least_squares.h"
#include "models/linear/regression_data.h"

namespace dagml {
namespace {

using testing::vec;
using Method = NonlinearLeastSquaresOptions::Method;

// f(xᵢ; w) = ‖xᵢ − w‖: the distance from sensor i to the unknown position w.
Var distance_model(Var X, Var w) { return sqrt(row_sums(square(X - transpose(w)))); }
// f(x; a, b) = a e^{−b x}.
Var decay_model(Var X, Var w) { return exp(X * neg(slice_rows(w, 1, 1))) * slice_rows(w, 0, 1); }

TEST(NonlinearLeastSquares, LocatesTheRobotFromDistances) {
  Tensor sensors(4, 2);
  sensors << 0, 0, 4, 0, 0, 3, 5, 5;
  const Vector truth = vec({1.5, 2.0});
  Vector d(4);
  for (Index i = 0; i < 4; ++i) d(i) = (sensors.row(i).transpose() - truth).norm();
  for (Method method : {Method::GaussNewton, Method::LevenbergMarquardt}) {
    NonlinearLeastSquares nls({.model = distance_model, .initial_params = vec({2.5, 1.0}), .method = method});
    nls.fit(sensors, d);
    EXPECT_TRUE(nls.optimizer_result().converged()) << nls.optimizer_result().message;
    EXPECT_LT((nls.params() - truth).norm(), 1e-8);
    EXPECT_LT(nls.loss(), 1e-16);
  }
}

TEST(NonlinearLeastSquares, ExponentialDecayMatchesScipy) {
  // SciPy 1.10.1: curve_fit(lambda x, a, b: a*np.exp(-b*x), x, y, p0=[1, 0.1], xtol=ftol=gtol=1e-14)
  // with x = 0..9, y = 3 e^{−0.4x} + 0.05 sin(3x + 1).
  Tensor x(10, 1);
  Vector y(10);
  for (Index i = 0; i < 10; ++i) {
    x(i, 0) = static_cast<double>(i);
    y(i) = 3 * std::exp(-0.4 * x(i, 0)) + 0.05 * std::sin(3 * x(i, 0) + 1);
  }
  NonlinearLeastSquares nls({.model = decay_model, .initial_params = vec({1, 0.1})});
  nls.fit(x, y);
  EXPECT_NEAR(nls.params()(0), 3.0237447635087316, 1e-8);
  EXPECT_NEAR(nls.params()(1), 0.40378105403644377, 1e-8);
  // ∇L = J ᵀ(F − y) = 0 at the optimum: perturbing either parameter raises the loss.
  EXPECT_GT(nls.score(x, y), 0.99);
}

TEST(NonlinearLeastSquares, GaussNewtonOnALinearModelIsOls) {
  // F(w) = Xw: one Gauss-Newton step is the OLS solve (notes000_part1.md §3.2).
  const Tensor X = testing::gaussian_matrix(30, 3, 1);
  const Vector y = testing::gaussian_vector(30, 2);
  NonlinearLeastSquares nls({.model = [](Var Xv, Var w) { return matmul(Xv, w); },
                             .initial_params = vec({5, -5, 5}),
                             .method = Method::GaussNewton,
                             .max_iterations = 1});
  nls.fit(X, y);
  LinearRegression ols({.fit_intercept = false});
  ols.fit(X, y);
  EXPECT_LT((nls.params() - ols.coef()).cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_LT((nls.predict(X) - ols.predict(X)).norm(), 1e-9);
}

TEST(NonlinearLeastSquares, BadInputIsAClearError) {
  EXPECT_THROW(NonlinearLeastSquares({.initial_params = vec({1})}), ValueError);
  EXPECT_THROW(NonlinearLeastSquares({.model = &distance_model}), ValueError);
  EXPECT_THROW(NonlinearLeastSquares({.model = &distance_model, .initial_params = vec({std::nan(""), 1})}), ValueError);
  // A model that does not return one prediction per row.
  NonlinearLeastSquares wrong(
      {.model = [](Var X, Var w) { return matmul(X, transpose(w)) + 0.0 * sum(X); }, .initial_params = vec({1, 2})});
  EXPECT_THROW(wrong.fit(Tensor::Ones(3, 1), testing::gaussian_vector(3, 1)), ShapeError);
  NonlinearLeastSquares nls({.model = distance_model, .initial_params = vec({1, 1})});
  EXPECT_THROW(nls.predict(Tensor::Ones(2, 2)), NotFittedError);
  EXPECT_THROW(nls.fit(Tensor::Ones(3, 2), testing::gaussian_vector(4, 1)), ShapeError);
}

TEST(NonlinearLeastSquares, SaveLoadRoundTrip) {
  Tensor sensors(3, 2);
  sensors << 0, 0, 4, 0, 0, 3;
  NonlinearLeastSquares nls({.model = distance_model, .initial_params = vec({1, 1}), .method = Method::GaussNewton,
                             .max_iterations = 50, .tolerance = 1e-10});
  nls.fit(sensors, vec({2.5, 2.9, 2.2}));
  const auto path = std::filesystem::temp_directory_path() / "dagml_nls_test.model";
  nls.save(path.string());
  const auto back = NonlinearLeastSquares::load(path.string(), distance_model);
  std::filesystem::remove(path);
  EXPECT_EQ(back.params(), nls.params());
  EXPECT_EQ(back.loss(), nls.loss());
  EXPECT_EQ(back.predict(sensors), nls.predict(sensors));
  EXPECT_EQ(back.options().method, Method::GaussNewton);
  EXPECT_EQ(back.options().max_iterations, 50);
  EXPECT_EQ(back.options().tolerance, 1e-10);
  EXPECT_EQ(back.options().initial_params, vec({1, 1}));
  EXPECT_EQ(back.to_bytes(), nls.to_bytes());
  // Levenberg–Marquardt's own options round-trip too (model-file layout 2).
  NonlinearLeastSquares lm({.model = distance_model, .initial_params = vec({1, 1}), .initial_damping = 5,
                            .scale_by_diagonal = false});
  lm.fit(sensors, vec({2.5, 2.9, 2.2}));
  const auto lm_back = NonlinearLeastSquares::from_model_file(ModelFile(lm.to_bytes(), "test"), distance_model);
  EXPECT_EQ(lm_back.options().initial_damping, 5);
  EXPECT_FALSE(lm_back.options().scale_by_diagonal);
  EXPECT_LT((lm.params() - nls.params()).norm(), 1e-6);  // the same solution (nls stopped at 1e-10)
  EXPECT_THROW(NonlinearLeastSquares({.model = &distance_model, .initial_params = vec({1, 1}), .initial_damping = 0}),
               ValueError);
  EXPECT_THROW(back.predict(Tensor::Ones(2, 3)), ShapeError);
  // The model function is code, which the file cannot hold: loading without one is refused.
  const std::string bytes = nls.to_bytes();
  EXPECT_THROW(NonlinearLeastSquares::from_model_file(ModelFile(bytes, "test"), nullptr), ValueError);
  // An unfitted estimator saves its options and loads unfitted.
  const NonlinearLeastSquares unfitted = NonlinearLeastSquares::from_model_file(
      ModelFile(NonlinearLeastSquares({.model = decay_model, .initial_params = vec({1, 0.5})}).to_bytes(), "test"),
      decay_model);
  EXPECT_FALSE(unfitted.fitted());
  EXPECT_EQ(unfitted.options().initial_params, vec({1, 0.5}));
  EXPECT_THROW(unfitted.predict(Tensor::Ones(2, 1)), NotFittedError);
}

TEST(NonlinearLeastSquares, InconsistentFilesAreParseErrors) {
  // In the field order of NonlinearLeastSquares::serialize, layout 1: the options (initial_params,
  // method, max_iterations, tolerance), the fitted flag, d, then ŵ and the loss. Layout 2 adds
  // initial_damping and scale_by_diagonal before ŵ; a layout-1 file keeps their defaults.
  const auto file = [](const Vector& params, Index d) {
    std::string payload;
    ModelOutputArchive ar(payload);
    ar(vec({1, 1}), Method::LevenbergMarquardt, Index{10}, Scalar{0}, true, d, params, Scalar{0.5});
    return ModelFile(frame_model_file(NonlinearLeastSquares::kTypeName, 1, payload), "crafted");
  };
  const auto ok = NonlinearLeastSquares::from_model_file(file(vec({3, 4}), 2), distance_model);
  EXPECT_NEAR(ok.predict(Tensor::Zero(1, 2))(0), 5.0, 1e-15);
  EXPECT_EQ(ok.loss(), 0.5);
  EXPECT_EQ(ok.options().initial_damping, LevenbergMarquardtOptions{}.initial_damping);
  EXPECT_TRUE(ok.options().scale_by_diagonal);
  {
    std::string payload;
    ModelOutputArchive ar(payload);
    ar(vec({1, 1}), Method::LevenbergMarquardt, Index{10}, Scalar{0}, true, Index{2}, Scalar{7}, false, vec({3, 4}),
       Scalar{0.5});
    const auto layout_2 = NonlinearLeastSquares::from_model_file(
        ModelFile(frame_model_file(NonlinearLeastSquares::kTypeName, 2, payload), "crafted"), distance_model);
    EXPECT_EQ(layout_2.options().initial_damping, 7);
    EXPECT_FALSE(layout_2.options().scale_by_diagonal);
    EXPECT_EQ(layout_2.params(), vec({3, 4}));
  }
  EXPECT_THROW(NonlinearLeastSquares::from_model_file(file(vec({3, 4, 5}), 2), distance_model), ParseError);
  EXPECT_THROW(NonlinearLeastSquares::from_model_file(file(vec({3, std::nan("")}), 2), distance_model), ParseError);
  EXPECT_THROW(NonlinearLeastSquares::from_model_file(file(vec({3, 4}), 0), distance_model), ParseError);
  // Another estimator's file.
  LinearRegression ols;
  ols.fit(Tensor::Identity(3, 2), vec({1, 2, 3}));
  EXPECT_THROW(NonlinearLeastSquares::from_model_file(ModelFile(ols.to_bytes(), "ols"), distance_model), ParseError);
}

}  // namespace
}  // namespace dagml
