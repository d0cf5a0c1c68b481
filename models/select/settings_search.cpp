#include "models/select/settings_search.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "graph/chunked_sum.h"
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
  if (folds.num_samples() != X.rows() || y.size() != X.rows()) {
    throw ShapeError(fmt::format("search_settings: expected X ({} rows), y ({}) and the folds ({} samples) to agree",
                                 X.rows(), y.size(), folds.num_samples()));
  }
  SettingsSearch out;
  out.configurations = grid_configurations(base, grid);
  std::vector<AnyEstimator> prototypes;  // made up front: a bad value fails before any fit
  for (const OptionSettings& c : out.configurations) prototypes.push_back(info.make(info, c));

  const Index k = folds.num_folds(), pairs = static_cast<Index>(prototypes.size()) * k;
  std::vector<Fold> parts;
  for (const Fold& f : folds) parts.push_back(f);
  const IndexRange mine = even_split(pairs, comm.size(), comm.rank());
  std::vector<double> my_scores(static_cast<std::size_t>(mine.size()));
  tbb::parallel_for(tbb::blocked_range<Index>(mine.begin, mine.end, 1), [&](const tbb::blocked_range<Index>& range) {
    for (Index t = range.begin(); t < range.end(); ++t) {
      AnyEstimator model = prototypes[static_cast<std::size_t>(t / k)];
      my_scores[static_cast<std::size_t>(t - mine.begin)] = fold_score(model, X, y, parts[static_cast<std::size_t>(t % k)]);
    }
  });
  std::vector<Index> counts;
  for (int r = 0; r < comm.size(); ++r) counts.push_back(even_split(pairs, comm.size(), r).size());
  out.fold_scores.resize(static_cast<Index>(prototypes.size()), k);  // row-major: pair t at (t / k, t % k)
  comm.allgather(my_scores, counts, std::span<double>(out.fold_scores.data(), static_cast<std::size_t>(pairs)));
  out.mean_scores = out.fold_scores.rowwise().mean();
  out.mean_scores.maxCoeff(&out.best_index);
  return out;
}

}  // namespace dagml
