// Digits with k-nearest neighbours: accuracy on a stratified 75/25 split for k = 1, 3, 5, 7 with
// uniform and distance weights, then the confusion matrix of k = 3, printed and written to
// digits_knn_confusion.csv (rows: true digit, columns: predicted digit).
// Usage: digits_knn [output.csv]
#include <fmt/format.h>

#include <string>
#include <vector>

#include "models/classify/knn_classifier.h"
#include "models/data/csv.h"
#include "models/data/datasets.h"
#include "models/data/split.h"
#include "models/metrics/classification_metrics.h"

using namespace dagml;

int main(int argc, char** argv) {
  const std::string csv_path = argc > 1 ? argv[1] : "digits_knn_confusion.csv";
  const Dataset digits = load_dataset("digits");
  const TrainTestSplit s =
      train_test_split(digits.features, digits.target, {.test_fraction = 0.25, .seed = 7, .stratify = true});
  fmt::print("digits: {} training and {} test images of 8×8 pixels\n", s.X_train.rows(), s.X_test.rows());
  fmt::print("   k   uniform   distance-weighted\n");
  for (Index k : {1, 3, 5, 7}) {
    KnnClassifier uniform({.num_neighbors = k}), weighted({.num_neighbors = k, .weights = NeighborWeights::Distance});
    fmt::print("{:4}   {:.4f}    {:.4f}\n", k, uniform.fit(s.X_train, s.y_train).score(s.X_test, s.y_test),
               weighted.fit(s.X_train, s.y_train).score(s.X_test, s.y_test));
  }
  KnnClassifier knn({.num_neighbors = 3});
  knn.fit(s.X_train, s.y_train);
  const Vector predicted = knn.predict(s.X_test);
  const Tensor C = confusion_matrix(s.y_test, predicted, 10);
  fmt::print("\nconfusion matrix of k = 3 (rows: true digit, columns: predicted), accuracy {:.4f}, macro F1 {:.4f}\n",
             accuracy_score(s.y_test, predicted), f1_score(s.y_test, predicted, Average::Macro));
  fmt::print("     ");
  for (Index j = 0; j < 10; ++j) fmt::print("{:4}", j);
  fmt::print("\n");
  for (Index i = 0; i < 10; ++i) {
    fmt::print("{:4} ", i);
    for (Index j = 0; j < 10; ++j) fmt::print("{:4}", C(i, j));
    fmt::print("\n");
  }
  std::vector<std::string> names;
  for (Index j = 0; j < 10; ++j) names.push_back(fmt::format("predicted_{}", j));
  write_csv(csv_path, C, names);
  fmt::print("wrote {}\n", csv_path);
  return 0;
}
