// Cross-validated search over the option settings of a registered estimator: the registry's
// form of grid_search (grid_search.h), for estimators named at run time (the `dagml cv` command).
//
//   SettingsSearch s = search_settings("ridge", {}, {{"lambda", {"0.1", "1", "10"}}}, X, y,
//                                      KFold(X.rows(), {.k = 5}));
//   s.configurations[s.best_index]   // {{"lambda", "1"}}: the best mean score
//
// The configurations are every combination of the grid's values (the last key varying fastest),
// each added to (or replacing) the base settings. Every (configuration, fold) pair is fitted and
// scored on its own, in parallel and deterministically (Note [Deterministic model selection]).
// Scores are AnyEstimator::score: higher is better (accuracy for classifiers, R² for regressors).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "graph/communicator.h"
#include "graph/tensor.h"
#include "models/data/folds.h"
#include "models/io/registry.h"

namespace dagml {

// Option names with the values to try, e.g. {{"lambda", {"0.1", "1"}}, {"fit_intercept", {"true", "false"}}}.
using SettingsGrid = std::vector<std::pair<std::string, std::vector<std::string>>>;

struct SettingsSearch {
  std::vector<OptionSettings> configurations;  // the base settings with each grid combination
  Tensor fold_scores;                          // configurations × folds
  Vector mean_scores;                          // per configuration
  Index best_index = 0;                        // argmax of mean_scores (the first one on a tie)
};

// ValueError for an unknown estimator or option, a value the option cannot take (checked before
// any fit), a grid key without values or listed twice, and for an estimator without targets
// (clustering, transformation); ShapeError when X, y and the folds disagree.
SettingsSearch search_settings(std::string_view estimator, const OptionSettings& base, const SettingsGrid& grid,
                               const Tensor& X, const Vector& y, const Folds& folds);

// The same with the (configuration, fold) pairs spread over the ranks of `comm`
// (graph/communicator.h): pair t = c·k + f goes to the rank whose block of the pairs (cut into
// comm.size() consecutive blocks) holds t; each rank fits its pairs in parallel (TBB), and one
// allgather gives every rank every score. Each score is computed on its own from the same data, so
// the result is bitwise the same for any number of ranks and threads, and equal to the call
// above. Every rank passes the same arguments (each holds X and y: the folds need every row).
SettingsSearch search_settings(Communicator& comm, std::string_view estimator, const OptionSettings& base,
                               const SettingsGrid& grid, const Tensor& X, const Vector& y, const Folds& folds);

}  // namespace dagml
