// Tests for PolynomialFeatures and num_polynomial_features, with the reference values of the
// notes (notes 000 §1.3: the monomial table and the feature-count table; §2.5: the polynomial kernel).
#include "models/data/polynomial_features.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <random>

#include "graph/error.h"
#include "models/data/test_files.h"
#include "models/io/model_file.h"

namespace dagml {
namespace {

// Notes 000 L321–327 (recomputed as C(ℓ+d, ℓ) in notes000_part1.md E2): rows ℓ, columns d.
TEST(PolynomialFeaturesTest, CountTableOfTheNotes) {
  const std::vector<Index> ds = {1, 3, 5, 10, 25};
  const std::vector<std::pair<Index, std::vector<std::uint64_t>>> table = {
      {1, {2, 4, 6, 11, 26}},
      {3, {4, 20, 56, 286, 3276}},
      {5, {6, 56, 252, 3003, 142506}},
      {10, {11, 286, 3003, 184756, 183579396}},
      {25, {26, 3276, 142506, 183579396, 126410606437752ULL}},
  };
  for (const auto& [ell, row] : table) {
    for (std::size_t k = 0; k < ds.size(); ++k) {
      EXPECT_EQ(num_polynomial_features(ell, ds[k]), row[k]) << "ℓ=" << ell << " d=" << ds[k];
      EXPECT_EQ(num_polynomial_features(ds[k], ell), row[k]) << "symmetry";
    }
  }
  EXPECT_EQ(num_polynomial_features(0, 7), 1u);
  EXPECT_EQ(num_polynomial_features(30, 30), 118264581564861424ULL);  // C(60, 30)
  EXPECT_THROW(num_polynomial_features(60, 60), ValueError);          // C(120, 60) > 2⁶⁴
  EXPECT_THROW(num_polynomial_features(-1, 2), ValueError);
}

TEST(PolynomialFeaturesTest, GeneratedCountEqualsTheFormula) {
  for (Index ell = 1; ell <= 5; ++ell) {
    for (Index p = 0; p <= 5; ++p) {
      PolynomialFeatures f({.degree = p});
      f.fit(Tensor::Ones(1, ell));
      EXPECT_EQ(static_cast<std::uint64_t>(f.num_output_features()), num_polynomial_features(ell, p));
      if (p > 0) {
        PolynomialFeatures nb({.degree = p, .include_bias = false});
        EXPECT_EQ(nb.fit_transform(Tensor::Ones(2, ell)).cols(), f.num_output_features() - 1);
      }
    }
  }
}

// Notes 000 L308–311: the 10 monomials of degree ≤ 3 in two variables.
TEST(PolynomialFeaturesTest, DocumentedOrderForTwoVariablesDegreeThree) {
  PolynomialFeatures f({.degree = 3});
  Tensor x(1, 2);
  x << 2, 3;
  const Tensor phi = f.fit_transform(x);
  EXPECT_EQ(f.feature_names(), (std::vector<std::string>{"1", "x0", "x1", "x0^2", "x0 x1", "x1^2", "x0^3",
                                                         "x0^2 x1", "x0 x1^2", "x1^3"}));
  EXPECT_EQ(f.feature_names({"a", "b"})[7], "a^2 b");
  EXPECT_EQ(phi, (Tensor(1, 10) << 1, 2, 3, 4, 6, 9, 8, 12, 18, 27).finished());
  const auto P = f.powers();
  ASSERT_EQ(P.rows(), 10);
  EXPECT_EQ(P.row(4), (Eigen::RowVector2i() << 1, 1).finished());
  EXPECT_EQ(P.row(7), (Eigen::RowVector2i() << 2, 1).finished());
  EXPECT_EQ(f.coefficients(), Vector::Ones(10));
}

TEST(PolynomialFeaturesTest, DegreeZeroAndDegreeOne) {
  PolynomialFeatures zero({.degree = 0});
  EXPECT_EQ(zero.fit_transform(Tensor::Constant(3, 2, 5.0)), Tensor::Ones(3, 1));
  PolynomialFeatures one({.degree = 1, .include_bias = false});
  const Tensor X = (Tensor(2, 3) << 1, 2, 3, 4, 5, 6).finished();
  EXPECT_EQ(one.fit_transform(X), X);
}

// Notes 000 §2.5 (L1321–1336): for ℓ = p = 2 the √-scaled map is
// [x1², x2², √2 x1x2, √2 x1, √2 x2, 1], and x = (1,2), z = (3,−1) gives (xᵀz+1)² = 4.
TEST(PolynomialFeaturesTest, KernelScalingMatchesTheNotesExample) {
  PolynomialFeatures f({.degree = 2, .kernel_scaling = true});
  Tensor xz(2, 2);
  xz << 1, 2, 3, -1;
  const Tensor phi = f.fit_transform(xz);
  const double r2 = std::sqrt(2.0);
  EXPECT_EQ(f.coefficients(), (Vector(6) << 1, r2, r2, 1, r2, 1).finished());
  EXPECT_NEAR(phi.row(0).dot(phi.row(1)), 4.0, 1e-14);
}

TEST(PolynomialFeaturesTest, KernelScalingGivesThePolynomialKernelExactly) {
  std::mt19937_64 rng(99);
  const auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1p-53 * 2 - 1; };
  for (const Index ell : {1, 3, 5}) {
    for (Index p = 1; p <= 5; ++p) {
      Tensor X(6, ell);
      for (Index i = 0; i < X.rows(); ++i) {
        for (Index j = 0; j < ell; ++j) X(i, j) = uniform();
      }
      PolynomialFeatures f({.degree = p, .kernel_scaling = true});
      const Tensor phi = f.fit_transform(X);
      const Tensor gram = phi * phi.transpose();
      for (Index i = 0; i < X.rows(); ++i) {
        for (Index j = 0; j < X.rows(); ++j) {
          const double k = std::pow(X.row(i).dot(X.row(j)) + 1.0, static_cast<double>(p));
          EXPECT_NEAR(gram(i, j), k, 1e-13 * std::max(1.0, std::abs(k))) << "ℓ=" << ell << " p=" << p;
        }
      }
      // Without the constant the identity loses its 1.
      PolynomialFeatures nb({.degree = p, .include_bias = false, .kernel_scaling = true});
      const Tensor psi = nb.fit_transform(X);
      const double k01 = std::pow(X.row(0).dot(X.row(1)) + 1.0, static_cast<double>(p));
      EXPECT_NEAR(psi.row(0).dot(psi.row(1)), k01 - 1.0, 1e-13 * std::max(1.0, std::abs(k01)));
    }
  }
}

TEST(PolynomialFeaturesTest, Errors) {
  EXPECT_THROW(PolynomialFeatures({.degree = -1}), ValueError);
  EXPECT_THROW(PolynomialFeatures({.degree = 0, .include_bias = false}), ValueError);
  EXPECT_THROW(PolynomialFeatures({.max_output_features = 0}), ValueError);
  PolynomialFeatures f({.degree = 3});
  EXPECT_THROW(f.transform(Tensor::Ones(1, 2)), NotFittedError);
  EXPECT_THROW(f.fit(Tensor(0, 2)), ValueError);
  // The memory guard: 64 inputs at degree 10 would give C(74, 10) ≈ 7.2·10¹¹ columns.
  EXPECT_THROW(PolynomialFeatures({.degree = 10}).fit(Tensor::Ones(1, 64)), ValueError);
  EXPECT_THROW(PolynomialFeatures({.degree = 2, .max_output_features = 5}).fit(Tensor::Ones(1, 2)), ValueError);
  f.fit(Tensor::Ones(2, 2));
  EXPECT_THROW(f.transform(Tensor::Ones(2, 3)), ShapeError);
  Tensor bad = Tensor::Ones(2, 2);
  bad(1, 1) = std::numeric_limits<double>::infinity();
  try {
    f.transform(bad);
    ADD_FAILURE();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("row 1, column 1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(f.feature_names({"a"}), ShapeError);
}

// The model file holds the options and ℓ; the rebuilt map has the same powers, coefficients and
// transform, bitwise.
TEST(PolynomialFeaturesTest, SaveLoadIsBitwiseExact) {
  std::mt19937_64 rng(9);
  std::normal_distribution<double> normal;
  Tensor X(5, 3);
  for (Index i = 0; i < X.size(); ++i) X.data()[i] = normal(rng);
  const auto path = std::filesystem::temp_directory_path() / "dagml_polynomial_features_test.model";
  for (const bool bias : {true, false}) {
    for (const bool kernel : {true, false}) {
      PolynomialFeatures map({.degree = 3, .include_bias = bias, .kernel_scaling = kernel});
      map.fit(X);
      map.save(path.string());
      const PolynomialFeatures back = PolynomialFeatures::load(path.string());
      ASSERT_TRUE(back.fitted());
      EXPECT_EQ(back.options().include_bias, bias);
      EXPECT_EQ(back.options().kernel_scaling, kernel);
      EXPECT_EQ(back.num_input_features(), 3);
      EXPECT_EQ(back.num_output_features(), map.num_output_features());
      EXPECT_EQ(back.powers(), map.powers());
      EXPECT_EQ(back.coefficients(), map.coefficients());
      EXPECT_EQ(back.transform(X), map.transform(X));
    }
  }
  std::filesystem::remove(path);
}

// A polynomial_features file, written in the field order of PolynomialFeatures::serialize: the
// options (degree, include_bias, kernel_scaling, max_output_features), the fitted flag and ℓ.
template <class Degree>
std::string poly_file(Degree degree, Index max_outputs, Index num_inputs, bool fitted = true) {
  std::string payload;
  {
    ModelOutputArchive ar(payload);
    ar(degree, true, false, max_outputs, fitted, num_inputs);
  }
  return frame_model_file(PolynomialFeatures::kTypeName, 1, payload);
}

TEST(PolynomialFeaturesTest, UnfittedAndBadFiles) {
  // An unfitted map saves its options only, and loads unfitted.
  const PolynomialFeatures unfitted =
      testing::load_bytes<PolynomialFeatures>(PolynomialFeatures({.degree = 4}).to_bytes());
  EXPECT_FALSE(unfitted.fitted());
  EXPECT_EQ(unfitted.options().degree, 4);
  EXPECT_THROW(unfitted.transform(Tensor::Ones(1, 2)), NotFittedError);
  EXPECT_EQ(testing::load_bytes<PolynomialFeatures>(poly_file(Index{2}, 100, 2)).num_output_features(), 6);
  EXPECT_THROW(testing::load_bytes<PolynomialFeatures>(poly_file(Index{-1}, 100, 2)), ValueError);  // degree < 0
  EXPECT_THROW(testing::load_bytes<PolynomialFeatures>(poly_file(Index{2}, 100, 0)), ParseError);   // ℓ < 1
  EXPECT_THROW(testing::load_bytes<PolynomialFeatures>(poly_file(Index{2}, 5, 2)), ValueError);     // 6 > max
  // A double where the integer degree belongs: its bits read as a degree so large that the map is refused.
  EXPECT_THROW(testing::load_bytes<PolynomialFeatures>(poly_file(2.5, 100, 2)), ValueError);
  // Without ℓ: the file ends early.
  std::string payload;
  {
    ModelOutputArchive ar(payload);
    ar(PolynomialFeaturesOptions{}, true);
  }
  EXPECT_THROW(testing::load_bytes<PolynomialFeatures>(frame_model_file(PolynomialFeatures::kTypeName, 1, payload)),
               ParseError);
}

}  // namespace
}  // namespace dagml
