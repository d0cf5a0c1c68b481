#include "models/select/settings_search.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "models/select/cross_validation.h"

namespace dagml {
namespace {

// Every combination of the grid's values added to `base`, the last key varying fastest.
std::vector<OptionSettings> grid_configurations(const OptionSettings& base, const SettingsGrid& grid) {
  std::vector<OptionSettings> configurations{base};
  for (const auto& [key, values] : grid) {
    std::vector<OptionSettings> next;
    for (const OptionSettings& c : configurations) {
      for (const std::string& value : values) {
        OptionSettings extended = c;
        set_option(extended, key, value);
        next.push_back(std::move(extended));
      }
    }
    configurations = std::move(next);
  }
  return configurations;
}

}  // namespace

SettingsSearch search_settings(std::string_view estimator, const OptionSettings& base, const SettingsGrid& grid,
                               const Tensor& X, const Vector& y, const Folds& folds) {
  SingleProcessCommunicator one_process;
  return search_settings(one_process, estimator, base, grid, X, y, folds);
}

SettingsSearch search_settings(Communicator& comm, std::string_view estimator, const OptionSettings& base,
                               const SettingsGrid& grid, const Tensor& X, const Vector& y, const Folds& folds) {
  const EstimatorInfo& info = estimator_info(estimator);
  if (info.task != Task::Regression && info.task != Task::Classification) {
    throw ValueError(fmt::format("search_settings: expected an estimator with targets (regression or classification), "
                                 "found {} ({})", info.name, enum_name(info.task)));
  }
  for (std::size_t g = 0; g < grid.size(); ++g) {
    if (grid[g].second.empty()) {
      throw ValueError(fmt::format("search_settings: expected at least one value for '{}', found none", grid[g].first));
    }
    for (std::size_t h = 0; h < g; ++h) {
      if (grid[h].first == grid[g].first) {
        throw ValueError(fmt::format("search_settings: expected each option once in the grid, found '{}' twice", grid[g].first));
      }
    }
  }
  SettingsSearch out;
  out.configurations = grid_configurations(base, grid);
  std::vector<AnyEstimator> prototypes;  // made up front: a bad value fails before any fit
  for (const OptionSettings& c : out.configurations) prototypes.push_back(info.make(info, c));

  out.fold_scores = detail::evaluate_grid(
                        static_cast<Index>(prototypes.size()), [&](Index c) { return prototypes[static_cast<std::size_t>(c)]; },
                        X, y, folds, false, "search_settings", &comm)
                        .validation;
  out.mean_scores = out.fold_scores.rowwise().mean();
  out.mean_scores.maxCoeff(&out.best_index);
  return out;
}

}  // namespace dagml
