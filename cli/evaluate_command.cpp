// dagml evaluate MODEL_FILE DATA [--json]
//
// Classifiers: accuracy; macro-averaged precision, recall and F1; ROC AUC (binary: of the
// positive class's probability or decision value; K classes: the mean of the K one-vs-rest AUCs
// of the probabilities, scikit-learn's roc_auc_score(multi_class="ovr", average="macro")); log
// loss (when the model gives probabilities); the confusion matrix (rows truth, columns
// prediction). Regressors: R², mean squared and mean absolute error. Clustering, when the table
// has the target: adjusted Rand index and normalised mutual information against it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <optional>

#include "cli/class_scores.h"
#include "cli/command.h"
#include "cli/settings.h"
#include "cli/table_input.h"
#include "models/metrics/classification_metrics.h"
#include "models/metrics/clustering_metrics.h"
#include "models/metrics/regression_metrics.h"
#include "models/metrics/scoring_metrics.h"

namespace dagml::cli {
namespace {

struct EvaluateFlags {
  std::string model_file, data;
  bool json = false;
};

struct Report {
  std::vector<std::pair<std::string, Scalar>> metrics;  // in print order
  std::optional<Tensor> confusion;
  std::vector<std::string> class_names;
};

void classification_report(Report& report, const AnyEstimator& model, const Tensor& X, const Vector& y) {
  const Vector predicted = model.predict(X).col(0);
  report.metrics = {{"accuracy", accuracy_score(y, predicted)},
                    {"precision_macro", precision_score(y, predicted, Average::Macro)},
                    {"recall_macro", recall_score(y, predicted, Average::Macro)},
                    {"f1_macro", f1_score(y, predicted, Average::Macro)}};
  const Index k = std::max<Index>(static_cast<Index>(y.maxCoeff()), static_cast<Index>(predicted.maxCoeff())) + 1;
  const bool every_class_present = [&] {
    for (Index c = 0; c < k; ++c) {
      if (!(y.array() == static_cast<Scalar>(c)).any() || (y.array() == static_cast<Scalar>(c)).all()) return false;
    }
    return true;
  }();
  if (model.info().capabilities.predict_proba) {
    const Tensor p = model.predict_proba(X);
    if (p.cols() == 2 && every_class_present) {
      report.metrics.emplace_back("roc_auc", roc_auc_score(y, p.col(1)));
    } else if (p.cols() > 2 && every_class_present && k == p.cols()) {
      Scalar sum = 0;
      for (Index c = 0; c < p.cols(); ++c) sum += roc_auc_score((y.array() == static_cast<Scalar>(c)).cast<Scalar>(), p.col(c));
      report.metrics.emplace_back("roc_auc_ovr_macro", sum / static_cast<Scalar>(p.cols()));
    }
    if (y.maxCoeff() < static_cast<Scalar>(p.cols())) report.metrics.emplace_back("log_loss", log_loss(y, p));
  } else if (k == 2 && every_class_present) {
    if (const auto scores = positive_class_scores(model, X)) report.metrics.emplace_back("roc_auc", roc_auc_score(y, *scores));
  }
  report.confusion = confusion_matrix(y, predicted);
}

Report evaluate(const TableModel& model, const Dataset& data) {
  const Tensor X = model_inputs(model, data);
  Report report;
  switch (model.estimator.info().task) {
    case Task::Classification:
      classification_report(report, model.estimator, X, model_targets(model, data));
      if (model.columns.fitted()) report.class_names = model.columns.class_names();
      break;
    case Task::Regression: {
      const Vector y = model_targets(model, data);
      const Vector predicted = model.estimator.predict(X).col(0);
      report.metrics = {{"r2", r2_score(y, predicted)},
                        {"mean_squared_error", mean_squared_error(y, predicted)},
                        {"mean_absolute_error", mean_absolute_error(y, predicted)}};
      break;
    }
    case Task::Clustering: {
      const Vector labels = data.target;
      if (labels.size() == 0) {
        throw ValueError("evaluate: a clustering is evaluated against known classes: expected a target column, found none");
      }
      const Vector clusters = model.estimator.predict(X).col(0);
      report.metrics = {{"adjusted_rand_index", adjusted_rand_score(labels, clusters)},
                        {"normalized_mutual_information", normalized_mutual_info_score(labels, clusters)}};
      break;
    }
    case Task::Transformation:
      throw UsageError(fmt::format("evaluate: {} is a transformation, which has no predictions to evaluate",
                                   model.estimator.name()));
  }
  return report;
}

std::string as_json(const Report& report, const std::string& model_name, Index rows) {
  nlohmann::ordered_json out;
  out["model"] = model_name;
  out["rows"] = rows;
  for (const auto& [name, value] : report.metrics) out[name] = value;
  if (report.confusion) {
    nlohmann::json matrix = nlohmann::json::array();
    for (Index i = 0; i < report.confusion->rows(); ++i) {
      nlohmann::json row = nlohmann::json::array();
      for (Index j = 0; j < report.confusion->cols(); ++j) row.push_back(static_cast<long long>((*report.confusion)(i, j)));
      matrix.push_back(row);
    }
    out["confusion_matrix"] = matrix;
    if (!report.class_names.empty()) out["classes"] = report.class_names;
  }
  return out.dump(2) + "\n";
}

std::string as_table(const Report& report, const std::string& model_name, Index rows) {
  std::string out = fmt::format("{} on {} rows\n", model_name, rows);
  for (const auto& [name, value] : report.metrics) out += fmt::format("  {:<30} {:.6g}\n", name, value);
  if (report.confusion) {
    const Tensor& C = *report.confusion;
    const auto label = [&](Index c) {
      return static_cast<std::size_t>(c) < report.class_names.size() ? report.class_names[static_cast<std::size_t>(c)]
                                                                      : std::to_string(c);
    };
    std::size_t width = 6;
    for (Index c = 0; c < C.rows(); ++c) width = std::max(width, label(c).size() + 1);
    out += "confusion matrix (rows: true class, columns: predicted)\n" + std::string(width + 2, ' ');
    for (Index c = 0; c < C.cols(); ++c) out += fmt::format("{:>{}}", label(c), width);
    out += "\n";
    for (Index i = 0; i < C.rows(); ++i) {
      out += fmt::format("  {:<{}}", label(i), width);
      for (Index j = 0; j < C.cols(); ++j) out += fmt::format("{:>{}}", static_cast<long long>(C(i, j)), width);
      out += "\n";
    }
  }
  return out;
}

void run_evaluate(const EvaluateFlags& flags, const GlobalFlags& global) {
  apply_global_flags(global);
  const TableModel model = load_table_model(flags.model_file);
  const bool supervised = model.estimator.info().task != Task::Clustering && model.estimator.info().task != Task::Transformation;
  const Dataset data = read_table_for(open_table(flags.data), model, supervised);
  const Report report = evaluate(model, data);
  const std::string text = flags.json ? as_json(report, model.estimator.name(), data.num_samples())
                                      : as_table(report, model.estimator.name(), data.num_samples());
  write_output("-", text);
}

}  // namespace

void add_evaluate_command(CLI::App& app, const GlobalFlags& global) {
  auto flags = std::make_shared<EvaluateFlags>();
  CLI::App* command = app.add_subcommand("evaluate", "scores of a saved model on a table with its target");
  command->add_option("model_file", flags->model_file, "a model file written by 'dagml fit' or by a program")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("data", flags->data, "a CSV file with a header, a bundled dataset's name, or - for standard input")
      ->required();
  command->add_flag("--json", flags->json, "print the scores as JSON");
  command->callback([flags, &global] { run_evaluate(*flags, global); });
}

}  // namespace dagml::cli
