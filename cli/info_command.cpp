// dagml info MODEL_FILE | dagml models [NAME] | dagml datasets
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/command.h"
#include "cli/settings.h"
#include "cli/table_input.h"
#include "models/data/datasets.h"
#include "models/io/model_file.h"

namespace dagml::cli {
namespace {

std::string capabilities(const Capabilities& can) {
  std::vector<std::string> methods;
  if (can.predict) methods.emplace_back("predict");
  if (can.predict_proba) methods.emplace_back("predict_proba");
  if (can.decision_function) methods.emplace_back("decision_function");
  if (can.transform) methods.emplace_back("transform");
  if (can.score) methods.emplace_back("score");
  return fmt::format("{}", fmt::join(methods, ", "));
}

void run_info(const std::string& path) {
  const ModelFile file = ModelFile::read(path);
  const TableModel model = load_table_model(path);
  const EstimatorInfo& info = model.estimator.info();
  std::string out = fmt::format("{}\n  estimator   {} ({}): {}\n  written by  dagml {} (model file format {})\n", path,
                                info.name, enum_name(info.task), info.summary, file.dagml_version(), file.format_version());
  out += fmt::format("  fitted      {}\n", model.estimator.fitted() ? "yes" : "no");
  if (model.estimator.fitted()) out += fmt::format("  features    {}\n", model.estimator.num_features());
  if (model.columns.fitted()) {
    out += fmt::format("  columns     {}\n", fmt::join(model.columns.feature_names(), ", "));
    const std::vector<std::string> categorical = model.columns.categorical_columns();
    if (!categorical.empty()) out += fmt::format("  categorical {}\n", fmt::join(categorical, ", "));
    if (!model.columns.target_column().empty()) out += fmt::format("  target      {}\n", model.columns.target_column());
    if (!model.columns.class_names().empty()) out += fmt::format("  classes     {}\n", fmt::join(model.columns.class_names(), ", "));
  }
  out += "  options\n";
  for (const OptionInfo& option : model.estimator.options()) out += fmt::format("    {} = {}\n", option.name, option.default_value);
  write_output("-", out);
}

void run_models(const std::string& name) {
  std::string out;
  if (name.empty()) {
    for (const EstimatorInfo& info : registered_estimators()) {
      out += fmt::format("{:<36} {:<15} {}\n", info.name, enum_name(info.task), info.summary);
    }
    out += "\n'dagml models NAME' lists an estimator's options.\n";
  } else {
    const EstimatorInfo& info = find_estimator(name);
    out = fmt::format("{} ({}): {}\n  input: {} values; methods: {}\n  options (--set key=value):\n", info.name,
                      enum_name(info.task), info.summary, enum_name(info.input), capabilities(info.capabilities));
    for (const OptionInfo& option : info.options) {
      out += fmt::format("    {:<34} {:<22} default {:<12} {}\n", option.name, option.type,
                         option.default_value.empty() ? "\"\"" : option.default_value, option.doc);
    }
  }
  write_output("-", out);
}

void run_datasets() {
  std::string out = "Bundled datasets (usable by name in place of a CSV file):\n";
  for (const std::string& name : dataset_names()) {
    const Dataset d = load_dataset(name);
    const bool classes = d.target_names.size() > 1;
    out += fmt::format("  {:<15} {:>5} rows × {:>2} features, target '{}'{}\n", name, d.num_samples(), d.num_features(),
                       d.target_column, classes ? fmt::format(" ({} classes)", d.target_names.size()) : "");
  }
  write_output("-", out);
}

}  // namespace

void add_info_commands(CLI::App& app, const GlobalFlags& global) {
  auto path = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand("info", "what a model file holds: estimator, columns, options");
  command->add_option("model_file", *path, "a model file")->required()->check(CLI::ExistingFile);
  command->callback([path, &global] {
    apply_global_flags(global);
    run_info(*path);
  });

  auto name = std::make_shared<std::string>();
  command = app.add_subcommand("models", "the registered estimators, or one estimator's options");
  command->add_option("name", *name, "an estimator's name");
  command->callback([name] { run_models(*name); });

  command = app.add_subcommand("datasets", "the bundled datasets");
  command->callback([] { run_datasets(); });
}

}  // namespace dagml::cli
