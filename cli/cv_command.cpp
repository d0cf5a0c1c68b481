// dagml cv MODEL DATA [--folds K] [--grid key=v1,v2,...] [--set key=value ...] [--json]
//
// k-fold cross-validation (stratified for classifiers; shuffled with --seed, in row order
// without) of every combination of the --grid values, scored by the estimator's score (accuracy
// for classifiers, R² for regressors); the best configuration by mean score is marked.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include <cmath>

#include "cli/command.h"
#include "cli/progress.h"
#include "cli/settings.h"
#include "cli/table_input.h"
#include "models/select/settings_search.h"

namespace dagml::cli {
namespace {

struct CvFlags {
  std::string model, data, target;
  Index folds = 5;
  std::vector<std::string> grid;  // key=v1,v2,...
  std::vector<std::string> categorical;
  bool json = false;
  SettingsFlags settings;
};

SettingsGrid parse_grid(const std::vector<std::string>& grid) {
  SettingsGrid out;
  for (const std::string& g : grid) {
    const auto eq = g.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == g.size()) {
      throw UsageError(fmt::format("--grid: expected key=value1,value2,..., found '{}'", g));
    }
    std::vector<std::string> values;
    std::size_t begin = eq + 1;
    for (std::size_t comma; (comma = g.find(',', begin)) != std::string::npos; begin = comma + 1) {
      values.push_back(g.substr(begin, comma - begin));
    }
    values.push_back(g.substr(begin));
    out.emplace_back(g.substr(0, eq), std::move(values));
  }
  return out;
}

// "lambda=0.1 fit_intercept=false": a configuration's grid values.
std::string describe(const OptionSettings& configuration, const SettingsGrid& grid) {
  std::vector<std::string> parts;
  for (const auto& [key, values] : grid) {
    for (const auto& [k, v] : configuration) {
      if (k == key) parts.push_back(key + "=" + v);
    }
  }
  return parts.empty() ? "(the given options)" : fmt::format("{}", fmt::join(parts, " "));
}

Scalar standard_deviation(const Tensor& row) {
  const Scalar mean = row.mean();
  return std::sqrt((row.array() - mean).square().sum() / static_cast<Scalar>(row.size()));
}

void run_cv(const CvFlags& flags, const GlobalFlags& global) {
  apply_global_flags(global);
  const EstimatorInfo& info = find_estimator(flags.model);
  if (info.task != Task::Regression && info.task != Task::Classification) {
    throw UsageError(fmt::format("cv: expected an estimator with targets (regression or classification), found {} ({})",
                                 info.name, enum_name(info.task)));
  }
  const OptionSettings base = collect_settings(info, flags.settings, global);
  const SettingsGrid grid = parse_grid(flags.grid);
  const TableSource source = open_table(flags.data);
  const Dataset data = read_table(source, training_table_options(source, flags.target, flags.categorical, true));
  ColumnEncoder columns;
  columns.fit(data);
  const Tensor X = columns.transform(data);
  const Vector y = columns.target(data);
  const KFoldOptions fold_options{.k = flags.folds, .shuffle = global.seed.has_value(), .seed = global.seed.value_or(0)};
  SettingsSearch search;
  {
    ProgressLine progress(fmt::format("cross-validating {} ({} folds)", info.name, flags.folds), global.quiet);
    try {
      search = info.task == Task::Classification
                   ? search_settings(info.name, base, grid, X, y, StratifiedKFold(y, fold_options))
                   : search_settings(info.name, base, grid, X, y, KFold(X.rows(), fold_options));
    } catch (const ValueError& e) {
      throw UsageError(e.what());
    }
  }
  const char* score_name = info.task == Task::Classification ? "accuracy" : "r2";
  if (flags.json) {
    nlohmann::ordered_json out;
    out["model"] = info.name;
    out["folds"] = flags.folds;
    out["score"] = score_name;
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    for (std::size_t c = 0; c < search.configurations.size(); ++c) {
      nlohmann::ordered_json r;
      for (const auto& [k, v] : search.configurations[c]) r["settings"][k] = v;
      const auto row = search.fold_scores.row(static_cast<Index>(c));
      r["fold_scores"] = std::vector<Scalar>(row.begin(), row.end());
      r["mean"] = search.mean_scores(static_cast<Index>(c));
      r["std"] = standard_deviation(row);
      results.push_back(r);
    }
    out["results"] = results;
    out["best"] = search.best_index;
    write_output("-", out.dump(2) + "\n");
    return;
  }
  std::string text = fmt::format("{}: {}-fold cross-validation, {} on each test fold\n", info.name, flags.folds, score_name);
  for (std::size_t c = 0; c < search.configurations.size(); ++c) {
    const auto i = static_cast<Index>(c);
    text += fmt::format("{} {:.6g} ± {:.2g}  {}\n", i == search.best_index ? "*" : " ", search.mean_scores(i),
                        standard_deviation(search.fold_scores.row(i)), describe(search.configurations[c], grid));
  }
  write_output("-", text);
}

}  // namespace

void add_cv_command(CLI::App& app, const GlobalFlags& global) {
  auto flags = std::make_shared<CvFlags>();
  CLI::App* command = app.add_subcommand("cv", "k-fold cross-validation of an estimator, over a grid of options");
  command->add_option("model", flags->model, "the estimator ('dagml models' lists them)")->required();
  command->add_option("data", flags->data, "a CSV file with a header, a bundled dataset's name, or - for standard input")
      ->required();
  command->add_option("--folds", flags->folds, "the number of folds k")->check(CLI::Range(2, 1000000));
  command->add_option("--grid", flags->grid, "option values to try, key=v1,v2,... (repeatable: every combination)");
  command->add_option("--target", flags->target, "the target column, by name or 0-based index (default: the last column)");
  command->add_option("--categorical", flags->categorical, "columns holding text categories (or 'auto'), as for fit")
      ->delimiter(',');
  command->add_flag("--json", flags->json, "print the scores as JSON");
  add_settings_flags(*command, flags->settings);
  command->callback([flags, &global] { run_cv(*flags, global); });
}

}  // namespace dagml::cli
