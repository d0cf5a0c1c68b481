// Iris with linear and quadratic discriminant analysis: fit both on a stratified 75/25 split,
// print test accuracy, confusion matrices and per-class precision/recall, and write the LDA
// discriminant coordinates of every flower to iris_lda_projection.csv (z1, z2, species); the
// pictures iris_lda_projection.png (the flowers in those coordinates) and iris_lda_confusion.png
// (LDA's test confusion matrix), with their gnuplot scripts. Usage: iris_discriminant [output.csv]
#include <fmt/format.h>

#include <string>

#include "models/classify/linear_discriminant_analysis.h"
#include "models/classify/quadratic_discriminant_analysis.h"
#include "models/data/csv.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/metrics/classification_metrics.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/plots.h"

using namespace dagml;

namespace {

void report(const std::string& name, const Vector& y_true, const Vector& y_pred, const Dataset& iris) {
  fmt::print("{}: test accuracy {:.4f}\n", name, accuracy_score(y_true, y_pred));
  const Tensor C = confusion_matrix(y_true, y_pred, 3);
  const PrecisionRecallF1 s = precision_recall_f1(y_true, y_pred, 3);
  fmt::print("  confusion matrix (rows: true, columns: predicted)      precision  recall\n");
  for (Index k = 0; k < 3; ++k) {
    fmt::print("  {:>10} {:4} {:4} {:4}                                  {:.3f}      {:.3f}\n",
               iris.target_names[static_cast<size_t>(k)], C(k, 0), C(k, 1), C(k, 2), s.precision(k), s.recall(k));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string csv_path = argc > 1 ? argv[1] : "iris_lda_projection.csv";
  const Dataset iris = load_dataset("iris");
  const TrainTestSplit s =
      train_test_split(iris.features, iris.target, {.test_fraction = 0.25, .seed = 7, .stratify = true});

  LinearDiscriminantAnalysis lda;
  lda.fit(s.X_train, s.y_train);
  report("LDA (pooled covariance)", s.y_test, lda.predict(s.X_test), iris);
  fmt::print("  between-class variance explained by the two discriminant coordinates: {:.4f}, {:.4f}\n",
             lda.explained_variance_ratio()(0), lda.explained_variance_ratio()(1));

  QuadraticDiscriminantAnalysis qda;
  qda.fit(s.X_train, s.y_train);
  report("QDA (one covariance per class)", s.y_test, qda.predict(s.X_test), iris);

  const Tensor Z = lda.transform(iris.features);
  Tensor out(Z.rows(), 3);
  out << Z, iris.target;
  write_csv(csv_path, out, {"z1", "z2", "species"});
  fmt::print("wrote {} ({} rows: LDA coordinates and species)\n", csv_path, out.rows());

  plot::Figure projection = plot::embedding_scatter(Z, iris.target, iris.target_names);
  projection.title = "Iris in LDA's two discriminant coordinates";
  projection.x.label = "discriminant 1";
  projection.y.label = "discriminant 2";
  fmt::print("{}\n", plot::write_plot(projection, "iris_lda_projection").message);
  plot::Figure confusion =
      plot::confusion_heat_map(confusion_matrix(s.y_test, lda.predict(s.X_test), 3), iris.target_names);
  confusion.title = "LDA on the iris test flowers";
  fmt::print("{}\n", plot::write_plot(confusion, "iris_lda_confusion").message);
  return 0;
}
