// Gaussian mixtures of iris by EM, the number of components and the covariance type chosen by
// the Bayesian information criterion BIC = −2 log L + p log n (lower is better), then the chosen
// mixture's clusters compared with the species (which the fit never sees).
// Writes build/example-output/iris_mixture_clusters.csv: the four measurements, the species, the
// cluster and its probability; and iris_mixture_ellipses.png (with its gnuplot script): the
// clusters in the petal plane with each component's 2σ ellipse (its marginal Gaussian there).
//
//   ./build/examples/iris_mixture_bic
#include <fmt/format.h>

#include <fstream>
#include <limits>

#include "models/cluster/gaussian_mixture.h"
#include "models/data/datasets.h"
#include "models/metrics/clustering_metrics.h"
#include "models/plot/gnuplot_writer.h"
#include "models/plot/plots.h"

using namespace dagml;

int main() {
  const Dataset iris = load_dataset("iris");
  const Tensor& X = iris.features;

  fmt::print("BIC of Gaussian mixtures of iris (EM, 5 k-means starts each)\n");
  fmt::print("{:>3}", "K");
  for (CovarianceType type : {CovarianceType::Full, CovarianceType::Tied, CovarianceType::Diagonal, CovarianceType::Spherical})
    fmt::print(" {:>10}", enum_name(type));
  fmt::print("\n");

  Scalar best_bic = std::numeric_limits<Scalar>::infinity();
  GaussianMixtureOptions best_options;
  for (Index K = 1; K <= 6; ++K) {
    fmt::print("{:>3}", K);
    for (CovarianceType type : {CovarianceType::Full, CovarianceType::Tied, CovarianceType::Diagonal, CovarianceType::Spherical}) {
      const GaussianMixtureOptions options{.num_components = K, .covariance_type = type, .num_init = 5, .seed = 1};
      const Scalar bic = GaussianMixture(options).fit(X).bic(X);
      fmt::print(" {:>10.1f}", bic);
      if (bic < best_bic) {
        best_bic = bic;
        best_options = options;
      }
    }
    fmt::print("\n");
  }

  GaussianMixture best(best_options);
  const Vector clusters = best.fit_predict(X);
  const Tensor probabilities = best.predict_proba(X);
  fmt::print("lowest BIC {:.1f}: K = {}, {} covariances ({} parameters, {} EM iterations, {})\n", best_bic,
             best_options.num_components, enum_name(best_options.covariance_type), best.num_parameters(), best.num_iter(),
             best.converged() ? "converged" : "not converged");
  fmt::print("agreement with the species: adjusted Rand index {:.3f}, adjusted mutual information {:.3f}\n",
             adjusted_rand_score(iris.target, clusters), adjusted_mutual_info_score(iris.target, clusters));

  const char* path = "iris_mixture_clusters.csv";
  std::ofstream out(path);
  out << "sepal_length,sepal_width,petal_length,petal_width,species,cluster,probability\n";
  for (Index i = 0; i < X.rows(); ++i) {
    const auto k = static_cast<Index>(clusters(i));
    out << fmt::format("{},{},{},{},{},{},{:.6f}\n", X(i, 0), X(i, 1), X(i, 2), X(i, 3), iris.target(i), k,
                       probabilities(i, k));
  }
  fmt::print("wrote {}\n", path);

  // The marginal of N(μ, Σ) on the petal length and width (columns 2, 3) is N(μ_{2:3}, Σ_{2:3, 2:3}).
  std::vector<Tensor> petal_covariances;
  for (Index k = 0; k < best.means().rows(); ++k) petal_covariances.push_back(best.covariance(k).block(2, 2, 2, 2));
  plot::Figure ellipses = plot::mixture_ellipses(X.middleCols(2, 2), clusters, best.means().middleCols(2, 2),
                                                 petal_covariances);
  ellipses.title = "Gaussian mixture of iris chosen by BIC: clusters and 2σ ellipses";
  ellipses.x.label = "petal length (cm)";
  ellipses.y.label = "petal width (cm)";
  fmt::print("{}\n", plot::write_plot(ellipses, "iris_mixture_ellipses").message);
  return 0;
}
