// dagml predict MODEL_FILE DATA [-o OUT.csv] [--proba | --decision]
// dagml transform MODEL_FILE DATA [-o OUT.csv]
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/settings.h"
#include "cli/table_input.h"

namespace dagml::cli {
namespace {

struct PredictFlags {
  std::string model_file, data, output = "-";
  bool proba = false, decision = false;
};

// CSV text of an n×k result: `names` as the header; class indices written as class names when
// `class_names` has them.
std::string result_csv(const Tensor& values, const std::vector<std::string>& names,
                       const std::vector<std::string>& class_names = {}) {
  if (class_names.empty()) return format_csv(values, names);
  std::string out = csv_field(names.at(0)) + "\n";
  for (Index i = 0; i < values.rows(); ++i) out += csv_field(class_names.at(static_cast<std::size_t>(values(i, 0)))) + "\n";
  return out;
}

// "prefix_c" for each class name (or class index when the names are unknown).
std::vector<std::string> per_class_names(const std::string& prefix, const TableModel& model, Index k) {
  const std::vector<std::string> classes = model.columns.fitted() ? model.columns.class_names() : std::vector<std::string>{};
  std::vector<std::string> names;
  for (std::size_t c = 0; c < static_cast<std::size_t>(k); ++c) {
    names.push_back(fmt::format("{}_{}", prefix, c < classes.size() ? classes[c] : std::to_string(c)));
  }
  return names;
}

void run_predict(const PredictFlags& flags, const GlobalFlags& global) {
  apply_global_flags(global);
  const TableModel model = load_table_model(flags.model_file);
  const Dataset data = read_table_for(open_table(flags.data), model, false);
  const Tensor X = model_inputs(model, data);
  if (flags.proba) {
    const Tensor p = model.estimator.predict_proba(X);
    write_output(flags.output, result_csv(p, per_class_names("proba", model, p.cols())));
  } else if (flags.decision) {
    const Tensor f = model.estimator.decision_function(X);
    write_output(flags.output, result_csv(f, f.cols() == 1 ? std::vector<std::string>{"decision"}
                                                           : per_class_names("decision", model, f.cols())));
  } else {
    const bool labels = model.estimator.info().task == Task::Classification && model.columns.fitted();
    write_output(flags.output, result_csv(model.estimator.predict(X), {"prediction"},
                                          labels ? model.columns.class_names() : std::vector<std::string>{}));
  }
}

void run_transform(const PredictFlags& flags, const GlobalFlags& global) {
  apply_global_flags(global);
  const TableModel model = load_table_model(flags.model_file);
  const Dataset data = read_table_for(open_table(flags.data), model, false);
  const Tensor Z = model.estimator.transform(model_inputs(model, data));
  std::vector<std::string> names;
  for (Index j = 0; j < Z.cols(); ++j) names.push_back(fmt::format("component_{}", j + 1));
  write_output(flags.output, result_csv(Z, names));
}

void add_model_and_data(CLI::App& command, PredictFlags& flags) {
  command.add_option("model_file", flags.model_file, "a model file written by 'dagml fit' or by a program")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_option("data", flags.data, "a CSV file with a header, a bundled dataset's name, or - for standard input")
      ->required();
  command.add_option("-o,--output", flags.output, "the CSV file to write (default: - for standard output)");
}

}  // namespace

void add_predict_commands(CLI::App& app, const GlobalFlags& global) {
  auto predict = std::make_shared<PredictFlags>();
  CLI::App* command = app.add_subcommand("predict", "predictions of a saved model for a table, as CSV");
  add_model_and_data(*command, *predict);
  auto* proba = command->add_flag("--proba", predict->proba, "class probabilities, one column per class");
  command->add_flag("--decision", predict->decision, "decision-function values")->excludes(proba);
  command->callback([predict, &global] { run_predict(*predict, global); });

  auto transform = std::make_shared<PredictFlags>();
  command = app.add_subcommand("transform", "the transformed table (components, features) of a saved model, as CSV");
  add_model_and_data(*command, *transform);
  command->callback([transform, &global] { run_transform(*transform, global); });
}

}  // namespace dagml::cli
