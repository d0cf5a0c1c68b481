// Tests for PolynomialRegression: a scikit-learn reference fit on the diabetes data and the
// save/load round trip (bitwise-equal predictions, errors).
#include "models/linear/polynomial_regression.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "graph/error.h"
#include "literals.h"
#include "models/io/model_file.h"
#include "models/linear/regression_data.h"
#include "models/linear/ridge.h"

namespace dagml {
namespace {

using testing::gaussian_matrix;
using testing::gaussian_vector;

using testing::vec;

// Columns age, bmi, bp (0, 2, 3) of the raw diabetes features.
Tensor three_diabetes_columns(const Tensor& X) {
  Tensor out(X.rows(), 3);
  out << X.col(0), X.col(2), X.col(3);
  return out;
}

// A file under the system's temporary directory named after the running test, removed at the end.
class TempModelFile {
 public:
  TempModelFile()
      : path_(std::filesystem::temp_directory_path() /
              (std::string("dagml_polynomial_regression_") +
               ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".model")) {}
  ~TempModelFile() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

TEST(PolynomialRegression, MatchesScikitLearnPipelineOnDiabetes) {
  // scikit-learn 1.2.1: make_pipeline(StandardScaler(), PolynomialFeatures(2, include_bias=False),
  // Ridge(alpha=1.0)).fit(X[:, [0, 2, 3]], y) on load_diabetes(scaled=False); its monomial order
  // (x0, x1, x2, x0², x0x1, x0x2, x1², x1x2, x2²) is dagml's.
  const Vector expected = vec({4.057299953281871, 38.242379553193096, 17.03204603328923, 2.8667270955117035,
                               -0.15377075642954877, 8.30182298187521, 0.29968895578145976, 5.877700898206744,
                               -0.2223971195548526});
  const auto data = testing::load_diabetes();
  PolynomialRegression poly({.degree = 2, .lambda = 1.0});
  poly.fit(three_diabetes_columns(data.X), data.y);
  ASSERT_EQ(poly.coef().size(), 9);
  for (Index j = 0; j < 9; ++j) EXPECT_NEAR(poly.coef()(j), expected(j), 1e-9 * (1 + std::abs(expected(j)))) << j;
  EXPECT_NEAR(poly.intercept(), 144.10915839465227, 1e-9);
}

TEST(PolynomialRegression, SaveLoadGivesBitwiseEqualPredictions) {
  const auto data = testing::load_diabetes();
  const Tensor X = three_diabetes_columns(data.X);
  const Tensor X_new = gaussian_matrix(20, 3, 3) * 10.0 + Tensor::Constant(20, 3, 50.0);
  const std::vector<PolynomialRegressionOptions> cases = {
      {.degree = 0}, {.degree = 1}, {.degree = 2, .lambda = 1.0}, {.degree = 3, .lambda = 0.5, .standardize = false}};
  for (const auto& options : cases) {
    PolynomialRegression poly(options);
    poly.fit(X, data.y);
    const TempModelFile file;
    poly.save(file.str());
    const PolynomialRegression back = PolynomialRegression::load(file.str());
    EXPECT_EQ(back.options().degree, options.degree);
    EXPECT_EQ(back.options().lambda, options.lambda);
    EXPECT_EQ(back.options().standardize, options.standardize);
    EXPECT_EQ(back.coef(), poly.coef());
    EXPECT_EQ(back.intercept(), poly.intercept());
    // Bitwise: Eigen's operator== compares every entry exactly.
    EXPECT_EQ(back.predict(X), poly.predict(X)) << "degree " << options.degree;
    EXPECT_EQ(back.predict(X_new), poly.predict(X_new)) << "degree " << options.degree;
    EXPECT_THROW(back.predict(gaussian_matrix(2, 4, 1)), ShapeError);
  }
}

TEST(PolynomialRegression, SaveBeforeFitAndBadFilesThrow) {
  const TempModelFile file;
  EXPECT_THROW(PolynomialRegression::load(file.str()), IoError);  // nothing was written
  // An unfitted model saves its options and loads unfitted.
  PolynomialRegression({.degree = 3, .lambda = 0.25}).save(file.str());
  const PolynomialRegression unfitted = PolynomialRegression::load(file.str());
  EXPECT_FALSE(unfitted.fitted());
  EXPECT_EQ(unfitted.options().degree, 3);
  EXPECT_EQ(unfitted.options().lambda, 0.25);
  EXPECT_THROW(unfitted.predict(gaussian_matrix(2, 3, 1)), NotFittedError);
  // Another model's file.
  Ridge ridge;
  ridge.fit(gaussian_matrix(10, 3, 1), gaussian_vector(10, 2));
  ridge.save(file.str());
  try {
    PolynomialRegression::load(file.str());
    ADD_FAILURE() << "a ridge file loaded as a polynomial regression";
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("expected a 'polynomial_regression' model, found a 'ridge' model"),
              std::string::npos)
        << e.what();
  }
  // A file whose parts do not fit together: a scaler for 2 inputs in a model of 3, written in the
  // field order of PolynomialRegression::serialize.
  const Tensor X = gaussian_matrix(30, 3, 5);
  StandardScaler scaler;
  scaler.fit(X.leftCols(2));
  PolynomialFeatures map({.degree = 2, .include_bias = false});
  map.fit(X);
  GeneralizedLeastSquares least_squares({.fit_intercept = true});
  least_squares.fit(map.transform(X), gaussian_vector(30, 6));
  const auto payload = [&](const StandardScaler& s) {
    std::string bytes;
    ModelOutputArchive ar(bytes);
    ar(PolynomialRegressionOptions{.degree = 2}, true, Index{3}, s, map, least_squares, Scalar{0});
    return frame_model_file(PolynomialRegression::kTypeName, 1, bytes);
  };
  EXPECT_THROW(PolynomialRegression::from_model_file(ModelFile(payload(scaler), "crafted")), ParseError);
  scaler.fit(X);  // the same file with a scaler for 3 inputs loads
  const PolynomialRegression ok = PolynomialRegression::from_model_file(ModelFile(payload(scaler), "crafted"));
  EXPECT_EQ(ok.predict(X), least_squares.predict(map.transform(scaler.transform(X))));
}

}  // namespace
}  // namespace dagml
