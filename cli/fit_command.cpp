// dagml fit MODEL DATA -o MODEL_FILE [--target COLUMN] [--categorical COLUMNS|auto] [--config FILE] [--set key=value ...]
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>

#include "cli/command.h"
#include "cli/progress.h"
#include "cli/settings.h"
#include "cli/table_input.h"

namespace dagml::cli {
namespace {

struct FitFlags {
  std::string model, data, output, target;
  std::vector<std::string> categorical;
  SettingsFlags settings;
};

bool supervised(const EstimatorInfo& info) { return info.task == Task::Regression || info.task == Task::Classification; }

void run_fit(const FitFlags& fit, const GlobalFlags& global) {
  apply_global_flags(global);
  const EstimatorInfo& info = find_estimator(fit.model);
  AnyEstimator estimator = make_configured(info, collect_settings(info, fit.settings, global));
  const TableSource source = open_table(fit.data);
  const Dataset data = read_table(source, training_table_options(source, fit.target, fit.categorical, supervised(info)));
  TableModel model{ColumnEncoder(), std::move(estimator)};
  model.columns.fit(data);
  const Tensor X = model.columns.transform(data);
  double seconds = 0;
  {
    ProgressLine progress(fmt::format("fitting {} on {} rows × {} columns", info.name, X.rows(), X.cols()), global.quiet);
    if (supervised(info)) {
      model.estimator.fit(X, model.columns.target(data));
    } else {
      model.estimator.fit(X);
    }
    seconds = progress.seconds();
  }
  save_table_model(model, fit.output);
  if (!global.quiet) {
    const std::vector<std::string> categorical = model.columns.categorical_columns();
    std::fputs(fmt::format("dagml: fitted {} on {} rows × {} columns{} in {:.3g} s; wrote {}\n", info.name, X.rows(),
                           X.cols(),
                           categorical.empty() ? "" : fmt::format(" (categorical: {})", fmt::join(categorical, ", ")),
                           seconds, fit.output)
                   .c_str(),
               stderr);
  }
}

}  // namespace

void add_fit_command(CLI::App& app, const GlobalFlags& global) {
  auto fit = std::make_shared<FitFlags>();
  CLI::App* command = app.add_subcommand("fit", "fit a registered estimator to a table and save it");
  command->add_option("model", fit->model, "the estimator ('dagml models' lists them)")->required();
  command->add_option("data", fit->data, "a CSV file with a header, a bundled dataset's name, or - for standard input")
      ->required();
  command->add_option("-o,--output", fit->output, "the model file to write")->required();
  command->add_option("--target", fit->target, "the target column, by name or 0-based index (default: the last column)");
  command->add_option("--categorical", fit->categorical,
                      "columns holding text categories, one-hot encoded (comma-separated; 'auto': every column whose "
                      "first value is not a number)")
      ->delimiter(',');
  add_settings_flags(*command, fit->settings);
  command->callback([fit, &global] { run_fit(*fit, global); });
}

}  // namespace dagml::cli
