// dagml plot KIND ... -o OUT: a picture of a model on a table, or of a history (docs/cli.md).
//
//   roc | pr MODEL_FILE DATA       ROC or precision–recall curve of a binary classifier
//   confusion MODEL_FILE DATA      the confusion matrix as a heat map
//   regions MODEL_FILE DATA        decision regions of a classifier of two input columns
//   embedding MODEL_FILE DATA      a transformation's first two components, coloured by the target
//   clusters MODEL_FILE DATA       the first two columns coloured by the predicted cluster
//   importances MODEL_FILE DATA    permutation importances of the columns (score drop when shuffled)
//   history CSV                    learning curves: one line per column of the CSV
//
// Each writes OUT.gp and OUT.dat, and OUT.png and OUT.svg when gnuplot is installed
// (models/plot/gnuplot_writer.h); without gnuplot the message says how to render them later.
#include <fmt/format.h>

#include <cstdio>

#include "cli/class_scores.h"
#include "cli/command.h"
#include "cli/settings.h"
#include "cli/table_input.h"
#include "models/metrics/classification_metrics.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/plots.h"
#include "models/select/permutation_importance.h"

namespace dagml::cli {
namespace {

struct PlotFlags {
  std::string kind, model_file, data, output;
  bool log_y = false;
  plot::RenderOptions render;
};

// A model with the table it is shown on.
struct ModelOnTable {
  TableModel model;
  Dataset data;
  Tensor X;
};

ModelOnTable model_on_table(const PlotFlags& flags, bool need_target) {
  if (flags.model_file.empty() || flags.data.empty()) {
    throw UsageError(fmt::format("plot {}: expected MODEL_FILE DATA", flags.kind));
  }
  ModelOnTable m{load_table_model(flags.model_file), {}, {}};
  m.data = read_table_for(open_table(flags.data), m.model, need_target);
  m.X = model_inputs(m.model, m.data);
  return m;
}

void require_task(const ModelOnTable& m, Task task, const std::string& kind) {
  const EstimatorInfo& info = m.model.estimator.info();
  if (info.task != task) {
    throw UsageError(fmt::format("plot {}: expected a {} model, found {} ({})", kind, enum_name(task), info.name,
                                 enum_name(info.task)));
  }
}

std::vector<std::string> class_names(const ModelOnTable& m) {
  return m.model.columns.fitted() ? m.model.columns.class_names() : std::vector<std::string>{};
}

plot::Figure ranking_curve(const PlotFlags& flags) {
  const ModelOnTable m = model_on_table(flags, true);
  require_task(m, Task::Classification, flags.kind);
  const std::optional<Vector> scores = positive_class_scores(m.model.estimator, m.X);
  if (!scores) {
    throw ValueError(fmt::format("plot {}: expected a binary classifier with probabilities or decision values, found {}",
                                 flags.kind, m.model.estimator.name()));
  }
  const Vector y = model_targets(m.model, m.data);
  const std::vector<plot::NamedScores> curves = {{m.model.estimator.name(), *scores}};
  return flags.kind == "roc" ? plot::roc_curves(y, curves) : plot::precision_recall_curves(y, curves);
}

plot::Figure history_curves(const PlotFlags& flags) {
  if (flags.model_file.empty() || !flags.data.empty()) throw UsageError("plot history: expected one CSV file");
  const Dataset table = read_table(open_table(flags.model_file), {.no_target = true, .missing_as_nan = true});
  std::vector<plot::NamedValues> series;
  for (Index j = 0; j < table.num_features(); ++j) {
    const auto column = table.features.col(j);
    series.push_back({table.feature_names[static_cast<std::size_t>(j)], std::vector<Scalar>(column.begin(), column.end())});
  }
  return plot::learning_curves(series, flags.log_y);
}

plot::Figure figure_of(const PlotFlags& flags, const GlobalFlags& global) {
  const std::string& kind = flags.kind;
  if (kind == "history") return history_curves(flags);
  if (kind == "roc" || kind == "pr") return ranking_curve(flags);
  if (kind == "confusion") {
    const ModelOnTable m = model_on_table(flags, true);
    require_task(m, Task::Classification, kind);
    return plot::confusion_heat_map(confusion_matrix(model_targets(m.model, m.data), m.model.estimator.predict(m.X).col(0)),
                                    class_names(m));
  }
  if (kind == "regions") {
    const ModelOnTable m = model_on_table(flags, true);
    require_task(m, Task::Classification, kind);
    return plot::decision_regions(m.model.estimator, m.X, model_targets(m.model, m.data), class_names(m));
  }
  if (kind == "embedding") {
    const ModelOnTable m = model_on_table(flags, false);
    require_task(m, Task::Transformation, kind);
    const Tensor Z = m.model.estimator.transform(m.X);
    if (Z.cols() < 2) throw ValueError(fmt::format("plot embedding: expected at least 2 components, found {}", Z.cols()));
    const Vector labels = m.data.target.size() > 0 ? model_targets(m.model, m.data) : Vector();
    return plot::embedding_scatter(Z.leftCols(2), labels, class_names(m));
  }
  if (kind == "clusters") {
    const ModelOnTable m = model_on_table(flags, false);
    require_task(m, Task::Clustering, kind);
    if (m.X.cols() < 2) throw ValueError(fmt::format("plot clusters: expected at least 2 columns, found {}", m.X.cols()));
    return plot::embedding_scatter(m.X.leftCols(2), m.model.estimator.predict(m.X).col(0));
  }
  if (kind == "importances") {
    const ModelOnTable m = model_on_table(flags, true);
    const Task task = m.model.estimator.info().task;
    if (task != Task::Classification && task != Task::Regression) require_task(m, Task::Classification, kind);
    const PermutationImportance p = permutation_importance(m.model.estimator, m.X, model_targets(m.model, m.data),
                                                           {.num_repeats = 5, .seed = global.seed.value_or(0)});
    const std::vector<std::string> names =
        m.model.columns.fitted() ? m.model.columns.encoded_feature_names() : std::vector<std::string>{};
    return plot::feature_importances(p.mean, names);
  }
  throw UsageError(fmt::format("plot: expected a kind among roc, pr, confusion, regions, embedding, clusters, "
                               "importances, history; found '{}'", kind));
}

void run_plot(const PlotFlags& flags, const GlobalFlags& global) {
  apply_global_flags(global);
  const plot::PlotFiles files = plot::write_plot(figure_of(flags, global), flags.output, flags.render);
  if (!global.quiet) std::fputs(fmt::format("dagml: {}\n", files.message).c_str(), stderr);
}

}  // namespace

void add_plot_command(CLI::App& app, const GlobalFlags& global) {
  auto flags = std::make_shared<PlotFlags>();
  CLI::App* command = app.add_subcommand("plot", "a picture of a model on a table, or of a history (gnuplot; PNG and SVG)");
  command->add_option("kind", flags->kind, "roc, pr, confusion, regions, embedding, clusters, importances or history")
      ->required();
  command->add_option("model_file", flags->model_file, "a model file (for history: the CSV of the histories)");
  command->add_option("data", flags->data, "a CSV file, a bundled dataset's name, or - for standard input");
  command->add_option("-o,--output", flags->output, "the picture's path without extension (OUT.png, OUT.svg, OUT.gp)")
      ->required();
  command->add_option("--width", flags->render.width, "pixels")->check(CLI::Range(16, 10000));
  command->add_option("--height", flags->render.height, "pixels")->check(CLI::Range(16, 10000));
  command->add_flag("--log", flags->log_y, "history: a logarithmic value axis");
  command->callback([flags, &global] { run_plot(*flags, global); });
}

}  // namespace dagml::cli
