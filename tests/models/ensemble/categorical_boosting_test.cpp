// Categorical features in gradient boosting (Note [Categorical splits], models/tree/gradient_tree.h):
// training losses against scikit-learn 1.2.1's HistGradientBoosting with categorical_features
// (categorical_reference.h, with its provenance), a split worked by hand, a two-category feature
// equal to the same feature as a number, prediction of unseen categories and missing values, bad
// input, and model files of both layouts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "graph/error.h"
#include "models/data/datasets.h"
#include "models/data/test_files.h"
#include "models/ensemble/categorical_reference.h"
#include "models/ensemble/gradient_boosting_classifier.h"
#include "models/ensemble/gradient_boosting_regressor.h"
#include "models/io/model_file.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
constexpr Scalar kCategoryNaN = std::numeric_limits<Scalar>::quiet_NaN();

// The scikit-learn parameters of categorical_reference.py: 30 rounds of its defaults.
BoostingOptions categorical_sklearn_like(std::vector<Index> categorical) {
  return {.max_iterations = 30,
          .learning_rate = 0.1,
          .allow_missing = true,
          .categorical_features = std::move(categorical)};
}

std::vector<Index> every_fourth_pixel() {
  std::vector<Index> pixels;
  for (Index j = 0; j < 64; j += 4) pixels.push_back(j);
  return pixels;
}

void expect_losses_match(const std::vector<Scalar>& trace, const std::vector<double>& reference, Scalar tolerance) {
  for (std::size_t k = 0; k < categorical_reference::k_rounds.size(); ++k) {
    const auto r = static_cast<std::size_t>(categorical_reference::k_rounds[k]);
    EXPECT_NEAR(trace[r], reference[k], tolerance) << "round " << r;
  }
}

TEST(CategoricalBoosting, DigitsLossesMatchScikitLearn) {
  const Dataset d = load_dataset("digits");
  const Vector binary = (d.target.array() >= 5).cast<Scalar>();
  // Knife edges: in a first round every row of a class has one Hessian, so a category of exactly
  // 10 rows has a support of 10 in exact arithmetic and is kept or not by rounding, which differs
  // with scikit-learn's single-precision gradients (moving dagml's threshold by 10⁻⁹ moves the
  // ten-class loss after 10 rounds by 2·10⁻⁴); such decisions compound to 2·10⁻³ after 10 rounds.
  constexpr Scalar kDigitsTolerance = 2.5e-3;
  GradientBoostingClassifier two({.boosting = categorical_sklearn_like(every_fourth_pixel())});
  two.fit(d.features, binary);
  expect_losses_match(two.train_loss(), categorical_reference::k_digits_binary_log_loss, kDigitsTolerance);
  GradientBoostingClassifier two_numeric({.boosting = categorical_sklearn_like({})});
  two_numeric.fit(d.features, binary);
  expect_losses_match(two_numeric.train_loss(), categorical_reference::k_digits_binary_numeric_log_loss,
                      kDigitsTolerance);
  GradientBoostingClassifier ten({.boosting = categorical_sklearn_like(every_fourth_pixel())});
  ten.fit(d.features, d.target);
  expect_losses_match(ten.train_loss(), categorical_reference::k_digits_multiclass_log_loss, kDigitsTolerance);
  // The categorical splits are used and change the model: the same pixels as numbers give the
  // numeric reference, 6·10⁻³ away after 10 rounds.
  Index categorical_splits = 0;
  for (const auto& t : ten.trees()) categorical_splits += t.num_category_sets();
  EXPECT_GT(categorical_splits, 10);
  GradientBoostingClassifier ten_numeric({.boosting = categorical_sklearn_like({})});
  ten_numeric.fit(d.features, d.target);
  expect_losses_match(ten_numeric.train_loss(), categorical_reference::k_digits_multiclass_numeric_log_loss, 1e-3);
  EXPECT_GT(std::abs(ten_numeric.train_loss()[10] - categorical_reference::k_digits_multiclass_log_loss[1]), 4e-3);
  // A missing pixel is one more category.
  Tensor X = d.features;
  for (Index i = 0; i < X.rows(); i += 7) X(i, 20) = kCategoryNaN;
  GradientBoostingClassifier gaps({.boosting = categorical_sklearn_like(every_fourth_pixel())});
  gaps.fit(X, binary);
  expect_losses_match(gaps.train_loss(), categorical_reference::k_digits_missing_log_loss, kDigitsTolerance);
}

TEST(CategoricalBoosting, DiabetesWithAnUnorderedCategoryMatchesScikitLearn) {
  // categorical_reference.py: the decile c of bmi renumbered by (3c + 7) mod 10.
  const Dataset d = load_dataset("diabetes");
  const Index n = d.features.rows();
  std::vector<Scalar> bmi;
  for (Index i = 0; i < n; ++i) bmi.push_back(d.features(i, 2));
  std::sort(bmi.begin(), bmi.end());
  std::vector<Scalar> deciles;  // numpy.quantile(bmi, 0.1 … 0.9), linear interpolation
  for (int k = 1; k <= 9; ++k) {
    const Scalar q = 0.1 * k * static_cast<Scalar>(n - 1);
    const auto lo = static_cast<std::size_t>(std::floor(q));
    deciles.push_back(bmi[lo] + (q - static_cast<Scalar>(lo)) * (bmi[std::min(lo + 1, bmi.size() - 1)] - bmi[lo]));
  }
  Tensor X(n, 11);
  X.leftCols(10) = d.features;
  for (Index i = 0; i < n; ++i) {
    const auto decile = std::upper_bound(deciles.begin(), deciles.end(), d.features(i, 2)) - deciles.begin();
    X(i, 10) = static_cast<Scalar>((3 * decile + 7) % 10);
  }
  GradientBoostingRegressor m({.boosting = categorical_sklearn_like({10})});
  m.fit(X, d.target);
  for (std::size_t k = 0; k < categorical_reference::k_rounds.size(); ++k) {
    const auto r = static_cast<std::size_t>(categorical_reference::k_rounds[k]);
    EXPECT_NEAR(m.train_loss()[r], categorical_reference::k_diabetes_half_mse[k],
                1e-3 * categorical_reference::k_diabetes_half_mse[k])
        << "round " << r;
  }
}

TEST(CategoricalBoosting, OneSplitByHand) {
  // Categories 0 … 3, ten rows each, squared loss, y = 1 for categories 1 and 3, 0 otherwise:
  // F⁰ = ½, g = F − y = ∓½, h = 1, so G_c = +5 for c ∈ {0, 2} and −5 for c ∈ {1, 3}, and the
  // order by G_c/(H_c + 10) = ±¼ is 1, 3, 0, 2. Left sets tried: {1}, {1, 3} from the front,
  // {2} from the back; {1, 3} has gain 10²/20 + 10²/20 − 0 = 10, the others 5²/10 + 5²/30 < 10.
  Tensor X(40, 1);
  Vector y(40);
  for (Index i = 0; i < 40; ++i) {
    X(i, 0) = static_cast<Scalar>(i % 4);
    y(i) = i % 2 == 1 ? 1 : 0;
  }
  GradientBoostingRegressor m({.boosting = {.max_iterations = 1,
                                            .learning_rate = 1,
                                            .max_leaf_nodes = 2,
                                            .min_samples_leaf = 1,
                                            .categorical_features = {0}}});
  m.fit(X, y);
  const tree::GradientTree& t = m.trees()[0];
  ASSERT_EQ(t.num_nodes(), 3);
  ASSERT_EQ(t.category_set[0], 0);
  EXPECT_DOUBLE_EQ(t.gain[0], 10);
  for (unsigned c : {1u, 3u}) EXPECT_TRUE(t.in_category_set(0, false, c));
  for (unsigned c : {0u, 2u}) EXPECT_TRUE(t.in_category_set(0, true, c));
  EXPECT_EQ(m.train_loss().back(), 0);
  EXPECT_EQ(m.predict(X), y);
  EXPECT_THAT(m.export_text(0), HasSubstr("x[0] in {1, 3}"));
  EXPECT_THAT(m.export_text(0), HasSubstr("x[0] in {0, 2} or missing"));
  // Unseen categories, values that are no category and NaN go where missing values go: here the
  // right child (no missing rows at the node; the children tie on rows).
  Tensor fresh(4, 1);
  fresh << 7, 2.5, -1, kCategoryNaN;
  GradientBoostingRegressorOptions with_missing = m.options();
  with_missing.boosting.allow_missing = true;
  GradientBoostingRegressor m_missing(with_missing);
  m_missing.fit(X, y);
  EXPECT_EQ(m_missing.trees()[0].missing_left[0], 0);
  EXPECT_EQ(m_missing.predict(fresh), Vector::Zero(4));
  // Without allow_missing NaN is an error; an unseen category is not.
  EXPECT_THROW(m.predict(fresh), ValueError);
  EXPECT_EQ(m.predict(fresh.topRows(3)), Vector::Zero(3));
}

TEST(CategoricalBoosting, TwoCategoriesSplitAsTheSameNumbers) {
  // With two categories the only set split is the threshold split, and with the squared loss (h = 1)
  // each category is kept when it has 10 rows: the same trees, up to the rounding of which child's
  // sums are the difference.
  const Dataset d = load_dataset("diabetes");
  Tensor X = d.features;  // bmi (column 2) replaced by "bmi above its mean"
  const Scalar mean_bmi = X.col(2).mean();
  for (Index i = 0; i < X.rows(); ++i) X(i, 2) = X(i, 2) > mean_bmi ? 1 : 0;
  GradientBoostingRegressor as_numbers({.boosting = {.max_iterations = 10}});
  GradientBoostingRegressor as_categories({.boosting = {.max_iterations = 10, .categorical_features = {2}}});
  as_numbers.fit(X, d.target);
  as_categories.fit(X, d.target);
  Index categorical_splits = 0;
  for (const auto& t : as_categories.trees()) categorical_splits += t.num_category_sets();
  EXPECT_GT(categorical_splits, 0);
  ASSERT_EQ(as_categories.trees().size(), as_numbers.trees().size());
  for (std::size_t t = 0; t < as_numbers.trees().size(); ++t)  // the children may come in the other order
    EXPECT_EQ(as_categories.trees()[t].num_nodes(), as_numbers.trees()[t].num_nodes());
  EXPECT_LT((as_categories.predict(X) - as_numbers.predict(X)).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(CategoricalBoosting, BadCategoriesAreErrors) {
  Tensor X(30, 2);
  Vector y(30);
  for (Index i = 0; i < 30; ++i) {
    X(i, 0) = static_cast<Scalar>(i % 3);
    X(i, 1) = static_cast<Scalar>(i);
    y(i) = static_cast<Scalar>(i % 2);
  }
  auto fit = [&](const Tensor& data, std::vector<Index> categorical, Index max_bins = 255) {
    GradientBoostingClassifier(
        {.boosting = {.max_iterations = 2, .max_bins = max_bins, .categorical_features = std::move(categorical)}})
        .fit(data, y);
  };
  EXPECT_NO_THROW(fit(X, {0}));
  EXPECT_THAT([&] { fit(X, {2}); },
              ::testing::ThrowsMessage<ShapeError>(HasSubstr("among the 2 columns of X, found column 2")));
  EXPECT_THAT([&] { fit(X, {0, 0}); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("found column 0 twice")));
  EXPECT_THAT([&] { fit(X, {1}, 16); }, ::testing::ThrowsMessage<ValueError>(
                                            HasSubstr("integers in [0, 16) (max_bins) or NaN, found 16 at row 16")));
  Tensor fractional = X;
  fractional(4, 0) = 0.5;
  EXPECT_THAT([&] { fit(fractional, {0}); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("found 0.5 at row 4")));
  Tensor negative = X;
  negative(2, 0) = -1;
  EXPECT_THROW(fit(negative, {0}), ValueError);
}

TEST(CategoricalBoosting, ModelFilesKeepTheSetsAndLayoutOneFilesLoad) {
  const Dataset d = load_dataset("digits");
  GradientBoostingClassifier m({.boosting = {.max_iterations = 3, .categorical_features = every_fourth_pixel()}});
  m.fit(d.features, d.target);
  const auto loaded = testing::load_bytes<GradientBoostingClassifier>(m.to_bytes());
  EXPECT_EQ(loaded.predict_proba(d.features), m.predict_proba(d.features));
  EXPECT_EQ(loaded.options().boosting.categorical_features, every_fourth_pixel());
  EXPECT_EQ(loaded.bin_edges().categorical, m.bin_edges().categorical);

  // A layout-1 file (before categorical features) is the layout-2 file of a model without them,
  // less three things: the option categorical_features (an empty list: a u64 0 after the seed,
  // the last option), the edges' categorical flags (a u64 count and one byte per feature, after
  // the missing flags) and each tree's category_set and category_words (a u64 count and one i64
  // per node, then a u64 0). One feature, one round of a stump: each is found by its bytes.
  static_assert(std::endian::native == std::endian::little);
  Tensor X(40, 1);
  Vector y(40);
  for (Index i = 0; i < 40; ++i) {
    X(i, 0) = static_cast<Scalar>(i);
    y(i) = i < 25 ? 1 : 0;
  }
  const std::uint64_t seed = 0x0123456789abcdefULL;
  GradientBoostingClassifier stump({.boosting = {.max_iterations = 1, .max_leaf_nodes = 2, .seed = seed}});
  stump.fit(X, y);
  ASSERT_EQ(stump.trees()[0].num_nodes(), 3);
  const std::string bytes = stump.to_bytes();
  const ModelFile file(bytes, "boost.dagml");
  std::string payload = bytes.substr(bytes.size() - file.payload().remaining());
  auto cut = [&](const std::string& before, std::size_t count) {
    const std::size_t at = payload.find(before);
    ASSERT_NE(at, std::string::npos);
    ASSERT_EQ(payload.find(before, at + 1), std::string::npos) << "first at " << at << " of " << payload.size();
    payload.erase(at + before.size(), count);
  };
  const std::string seed_bytes(reinterpret_cast<const char*>(&seed), 8);
  cut(seed_bytes, 8);
  // has_missing [0] then categorical [0]: two equal 9-byte runs, of which the second goes.
  const std::string one_flag = std::string("\x01\0\0\0\0\0\0\0\0", 9);
  cut(one_flag + one_flag, 0);
  payload.erase(payload.find(one_flag + one_flag) + 9, 9);
  // num_samples (three i64), then category_set [−1, −1, −1] and category_words [].
  const std::string sets = std::string("\x03\0\0\0\0\0\0\0", 8) + std::string(24, '\xff') + std::string(8, '\0');
  const std::size_t at = payload.find(sets);
  ASSERT_NE(at, std::string::npos);
  payload.erase(at, sets.size());
  const auto old = testing::load_bytes<GradientBoostingClassifier>(
      frame_model_file(GradientBoostingClassifier::kTypeName, 1, payload));
  EXPECT_TRUE(old.options().boosting.categorical_features.empty());
  EXPECT_EQ(old.predict_proba(X), stump.predict_proba(X));
  EXPECT_EQ(old.to_bytes(), bytes);
}

}  // namespace
}  // namespace dagml
