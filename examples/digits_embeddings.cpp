// The 1,797 handwritten digits (64 pixels each) in two dimensions by PCA, kernel PCA (RBF),
// classical MDS and metric MDS (SMACOF from the classical embedding), and PCA's
// explained-variance curve. How well each picture keeps the classes apart
// is measured by the 5-fold cross-validated accuracy of a 5-nearest-neighbour classifier on the
// 2-D coordinates (the embeddings never see the labels).
// Writes to build/example-output/:
//   digits_embeddings.csv        label, then two columns per method (pca, kernel_pca, mds, metric_mds)
//   digits_explained_variance.csv  component, ratio, cumulative ratio
//   digits_embedding_<method>.png  the points coloured by digit (with their gnuplot scripts)
//
//   ./build/examples/digits_embeddings
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <memory>

#include "models/classify/knn_classifier.h"
#include "models/data/datasets.h"
#include "models/decompose/classical_mds.h"
#include "models/decompose/kernel_pca.h"
#include "models/decompose/metric_mds.h"
#include "models/decompose/pca.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/plots.h"
#include "models/select/cross_validation.h"

using namespace dagml;

int main() {
  const Dataset digits = load_dataset("digits");
  const Tensor& X = digits.features;
  const Vector& y = digits.target;

  PCA full;  // every component, for the explained-variance curve
  full.fit(X);
  const Vector& ratio = full.explained_variance_ratio();
  std::ofstream curve("digits_explained_variance.csv");
  curve << "component,ratio,cumulative\n";
  Scalar cumulative = 0;
  Index for_90 = 0;
  for (Index j = 0; j < ratio.size(); ++j) {
    cumulative += ratio(j);
    if (for_90 == 0 && cumulative >= 0.9) for_90 = j + 1;
    curve << fmt::format("{},{:.8f},{:.8f}\n", j + 1, ratio(j), cumulative);
  }
  fmt::print("PCA: the first 2 components explain {:.1f} % of the variance, 10 explain {:.1f} %, "
             "{} are needed for 90 %\n",
             100 * ratio.head(2).sum(), 100 * ratio.head(10).sum(), for_90);

  struct Embedding {
    const char* name;
    const char* file;  // the picture's name
    Tensor Z;
  };
  MetricMDS metric_mds({.num_components = 2});  // from the classical embedding, SMACOF
  const Embedding embeddings[] = {
      {"PCA", "pca", PCA({.num_components = 2}).fit_transform(X)},
      // γ = 1/(d · Var(X)) ≈ 5e-4 would be scikit-learn's "scale"; a smaller width bends more.
      {"kernel PCA (RBF, γ = 1e-3)", "kernel_pca",
       KernelPCA({.kernel = std::make_shared<RbfKernel>(1e-3), .num_components = 2}).fit_transform(X)},
      {"classical MDS", "mds", ClassicalMDS({.num_components = 2}).fit_transform(X)},
      {"metric MDS (SMACOF)", "metric_mds", metric_mds.fit_transform(X)},
  };
  fmt::print("metric MDS: Kruskal stress-1 {:.4f} after {} SMACOF iterations ({})\n", metric_mds.kruskal_stress(),
             metric_mds.num_iter(), metric_mds.converged() ? "converged" : "not converged");
  const KFold folds(X.rows(), {.k = 5, .shuffle = true, .seed = 0});
  for (const Embedding& e : embeddings) {
    const Vector accuracy = cross_val_score(KnnClassifier({.num_neighbors = 5}), e.Z, y, folds);
    fmt::print("{:<28} 5-NN accuracy in 2-D: {:.3f} (± {:.3f} over the folds)\n", e.name, accuracy.mean(),
               std::sqrt((accuracy.array() - accuracy.mean()).square().mean()));
  }

  std::ofstream out("digits_embeddings.csv");
  out << "label,pca_1,pca_2,kernel_pca_1,kernel_pca_2,mds_1,mds_2,metric_mds_1,metric_mds_2\n";
  for (Index i = 0; i < X.rows(); ++i) {
    out << y(i);
    for (const Embedding& e : embeddings) out << fmt::format(",{:.6f},{:.6f}", e.Z(i, 0), e.Z(i, 1));
    out << "\n";
  }
  fmt::print("wrote digits_embeddings.csv and digits_explained_variance.csv\n");
  for (const Embedding& e : embeddings) {
    plot::Figure scatter = plot::embedding_scatter(e.Z, y, digits.target_names);
    scatter.title = fmt::format("Digits by {}", e.name);
    fmt::print("{}\n", plot::write_plot(scatter, fmt::format("digits_embedding_{}", e.file)).message);
  }
  return 0;
}
