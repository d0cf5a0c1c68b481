// search_settings: the registry's grid search equals grid_search over the same options struct,
// combinations in order, errors before any fit; it and the typed cross_val_score and grid_search
// over ranks equal the one-process calls bitwise.
#include "models/select/settings_search.h"

#include <gtest/gtest.h>

#include "models/linear/regression_data.h"
#include "models/linear/ridge.h"
#include "models/select/cross_validation.h"
#include "models/select/grid_search.h"

namespace dagml {
namespace {

TEST(SettingsSearch, EqualsGridSearchOverTheOptionsStruct) {
  const auto data = testing::load_diabetes();
  const KFold folds(data.Z.rows(), {.k = 5, .shuffle = true, .seed = 2});
  const std::vector<Scalar> lambdas = {1e-3, 1, 100};
  const auto typed = grid_search<Ridge>(RidgeOptions{}, &RidgeOptions::lambda, lambdas, data.Z, data.y, folds);
  const SettingsSearch s = search_settings("ridge", {}, {{"lambda", {"0.001", "1", "100"}}}, data.Z, data.y, folds);
  EXPECT_EQ(s.fold_scores, typed.fold_scores);  // bitwise: the same fits
  EXPECT_EQ(s.best_index, typed.best_index);
  EXPECT_EQ(s.configurations[1], (OptionSettings{{"lambda", "1"}}));
}

TEST(SettingsSearch, EveryCombinationLastKeyFastestOverTheBaseSettings) {
  const auto data = testing::load_diabetes();
  const KFold folds(data.Z.rows(), {.k = 3});
  const SettingsSearch s = search_settings("ridge", {{"lambda", "5"}, {"form", "primal"}},
                                           {{"fit_intercept", {"true", "false"}}, {"lambda", {"0.1", "10"}}}, data.Z,
                                           data.y, folds);
  ASSERT_EQ(s.configurations.size(), 4u);
  EXPECT_EQ(s.configurations[0], (OptionSettings{{"lambda", "0.1"}, {"form", "primal"}, {"fit_intercept", "true"}}));
  EXPECT_EQ(s.configurations[3], (OptionSettings{{"lambda", "10"}, {"form", "primal"}, {"fit_intercept", "false"}}));
  Ridge fourth({.lambda = 10, .fit_intercept = false});
  const Fold first = folds.fold(0);
  fourth.fit(take_rows(data.Z, first.train), take_rows(data.y, first.train));
  EXPECT_EQ(s.fold_scores(3, 0), fourth.score(take_rows(data.Z, first.test), take_rows(data.y, first.test)));
}

// Spread over 1, 2 or 3 in-process ranks (× 1 or 2 threads each), every rank gets the serial
// search's scores bit for bit.
TEST(SettingsSearch, OverRanksEqualsTheSerialSearchBitwise) {
  const auto data = testing::load_diabetes();
  const KFold folds(data.Z.rows(), {.k = 4, .shuffle = true, .seed = 5});
  const SettingsGrid grid = {{"lambda", {"0.01", "1", "100"}}, {"fit_intercept", {"true", "false"}}};
  const SettingsSearch serial = search_settings("ridge", {}, grid, data.Z, data.y, folds);
  for (const int ranks : {1, 2, 3}) {
    for (const int threads : {1, 2}) {
      std::vector<SettingsSearch> results(static_cast<std::size_t>(ranks));
      run_in_process(
          ranks,
          [&](Communicator& comm) {
            results[static_cast<std::size_t>(comm.rank())] = search_settings(comm, "ridge", {}, grid, data.Z, data.y, folds);
          },
          {.threads_per_rank = threads});
      for (const SettingsSearch& r : results) {
        EXPECT_EQ(r.fold_scores, serial.fold_scores) << ranks << " ranks × " << threads << " threads";
        EXPECT_EQ(r.best_index, serial.best_index);
        EXPECT_EQ(r.configurations, serial.configurations);
      }
    }
  }
}

// The typed forms over ranks (4 ranks for 5 folds: uneven blocks): cross_val_score and
// grid_search, each bitwise equal to its one-process call on every rank.
TEST(SettingsSearch, TypedCrossValidationAndGridSearchOverRanksEqualTheSerialOnes) {
  const auto data = testing::load_diabetes();
  const KFold folds(data.Z.rows(), {.k = 5, .shuffle = true, .seed = 3});
  const Ridge ridge({.lambda = 0.5});
  const Vector serial_scores = cross_val_score(ridge, data.Z, data.y, folds);
  const std::vector<Scalar> lambdas = {1e-2, 1, 100};
  const auto serial_grid = grid_search<Ridge>(RidgeOptions{}, &RidgeOptions::lambda, lambdas, data.Z, data.y, folds);
  for (const auto& [ranks, threads] : std::vector<std::pair<int, int>>{{2, 1}, {3, 2}, {4, 1}}) {
    std::vector<Vector> scores(static_cast<std::size_t>(ranks));
    std::vector<Tensor> grid_scores(static_cast<std::size_t>(ranks));
    run_in_process(
        ranks,
        [&](Communicator& comm) {
          const auto r = static_cast<std::size_t>(comm.rank());
          scores[r] = cross_val_score(comm, ridge, data.Z, data.y, folds);
          grid_scores[r] =
              grid_search<Ridge>(RidgeOptions{}, &RidgeOptions::lambda, lambdas, data.Z, data.y, folds, &comm).fold_scores;
        },
        {.threads_per_rank = threads});
    for (int r = 0; r < ranks; ++r) {
      EXPECT_EQ(scores[static_cast<std::size_t>(r)], serial_scores) << ranks << " ranks, rank " << r;
      EXPECT_EQ(grid_scores[static_cast<std::size_t>(r)], serial_grid.fold_scores) << ranks << " ranks, rank " << r;
    }
  }
}

TEST(SettingsSearch, BadRequestsAreValueErrors) {
  const auto data = testing::load_diabetes();
  const KFold folds(data.Z.rows(), {.k = 3});
  EXPECT_THROW(search_settings("no_such_model", {}, {}, data.Z, data.y, folds), ValueError);
  EXPECT_THROW(search_settings("ridge", {}, {{"no_such_option", {"1"}}}, data.Z, data.y, folds), ValueError);
  EXPECT_THROW(search_settings("ridge", {}, {{"lambda", {"1", "abc"}}}, data.Z, data.y, folds), ValueError);
  EXPECT_THROW(search_settings("ridge", {}, {{"lambda", {}}}, data.Z, data.y, folds), ValueError);
  EXPECT_THROW(search_settings("ridge", {}, {{"lambda", {"1"}}, {"lambda", {"2"}}}, data.Z, data.y, folds), ValueError);
  EXPECT_THROW(search_settings("k_means", {}, {}, data.Z, data.y, folds), ValueError);
}

}  // namespace
}  // namespace dagml
