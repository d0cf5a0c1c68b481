// Unsupervised learning against scikit-learn 1.2.1 (bench/reference_unsupervised.py;
// bench/compare_unsupervised.py; results in bench/RESULTS.md). Every workload runs with T = 1 and
// T = 2 threads (the benchmark's argument; set_num_threads caps TBB) and is named NAME/T.
//
// Data (the same on both sides; pixel intensities in [0, 1]):
//   digits      the bundled 1,797 × 64 digits, divided by 16
//   fashion10k  the first 10,000 Fashion-MNIST training images, 784 pixels / 255
//   fashion60k  all 60,000 of them
//   fashion2k   the first 2,000 (kernel PCA, an n×n eigenproblem; full-covariance mixtures, whose
//               iterations cost n K d² with d = 784)
// With DAGML_BENCH_QUICK=1 in the environment (a smoke test: timings mean nothing) the Fashion-MNIST
// sets are cut to 1,000, 3,000 and 500 images; the reference reads the same variable.
//
// Starting points, given to both sides so that they run the same iterations:
//   C0  the K = 10 rows at positions ⌊i n / K⌋, i = 0..K−1 (k-means centres, mixture means)
//   mixture start: weights 1/K, every covariance s² I with s² the mean of the features' variances
//   NMF start: W0_ij = a (1 + ((7i + 13j) mod 17) / 17), H0_jl = a (1 + ((11j + 5l) mod 19) / 19),
//              a = √(mean(X) / k), k = 20 parts
//
// Workloads (fit; counter "objective" to compare with the reference's, label = the solver used):
//   pca_<data>             PCA, 50 components, solver auto (Note [PCA solver]); objective Σ λ_j
//   pca_randomized_<data>  PCA, 50 components, randomized (10 oversamples, 7 or 4 power iterations)
//   kpca_<data>            KernelPCA, RBF with γ = 1/d, 50 components; objective Σ D_m
//   kmeans_<data>          KMeans (algorithm auto) from C0, at most 100 Lloyd iterations,
//                          tolerance 0; objective the inertia; counter "iterations"
//   gmm_diag_<data>        GaussianMixture, diagonal covariances, exactly 50 EM iterations on
//                          digits, 10 on Fashion-MNIST
//   gmm_full_<data>        the same with full covariances;
//                          objective the mean log-likelihood of the fitted parameters
//   nmf_<data>             NMF, Frobenius multiplicative updates, k = 20, exactly 100 iterations;
//                          objective ‖X − WH‖_F
//   mds_digits             ClassicalMDS, 2 dimensions; objective D_1 + D_2
//   smacof_digits          MetricMDS by SMACOF, 2 dimensions, Euclidean dissimilarities, from Z0
//                          (row i: the means of the first and of the last half of x_i's features),
//                          at most 300 transforms, tolerance 1e−3 (scikit-learn's defaults and
//                          rule); objective the raw stress σ of the embedding returned
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>

#include "graph/enum_names.h"
#include "graph/threads.h"
#include "models/cluster/gaussian_mixture.h"
#include "models/cluster/k_means.h"
#include "models/data/datasets.h"
#include "models/decompose/classical_mds.h"
#include "models/decompose/kernel_pca.h"
#include "models/decompose/metric_mds.h"
#include "models/decompose/nmf.h"
#include "models/decompose/pca.h"
#include "models/kernel/kernel.h"

using namespace dagml;

namespace {

constexpr Index kClusters = 10;
constexpr Index kComponents = 50;
constexpr Index kParts = 20;

bool quick_mode() {
  const char* quick = std::getenv("DAGML_BENCH_QUICK");
  return quick != nullptr && std::string(quick) != "" && std::string(quick) != "0";
}

// The data set `name` (see the header), loaded once; nullptr when Fashion-MNIST is not installed.
const Tensor* unsupervised_data(const std::string& name) {
  static std::map<std::string, Tensor> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return &it->second;
  if (name == "digits") return &cache.emplace(name, load_dataset("digits").features / 16.0).first->second;
  if (!fashion_mnist_available()) return nullptr;
  const bool quick = quick_mode();
  const std::map<std::string, Index> sizes = {{"fashion10k", quick ? 1000 : 10000},
                                              {"fashion60k", quick ? 3000 : 60000},
                                              {"fashion2k", quick ? 500 : 2000}};
  return &cache.emplace(name, load_fashion_mnist({.max_samples = sizes.at(name)}).features).first->second;
}

// C0: the K rows at positions ⌊i n / K⌋.
Tensor spread_rows(const Tensor& X, Index K) {
  Tensor C(K, X.cols());
  for (Index i = 0; i < K; ++i) C.row(i) = X.row(i * X.rows() / K);
  return C;
}

// The mean of the features' (population) variances: the starting s² of the mixtures.
Scalar mean_feature_variance(const Tensor& X) {
  const Tensor centred = X.rowwise() - X.colwise().mean();
  return centred.squaredNorm() / static_cast<Scalar>(X.rows() * X.cols());
}

// Times Model(make_options(X)).fit(X) on the data set `name` with the benchmark's thread count;
// record(model, state) sets the counters and the label. Skipped when the data are not installed.
template <class Model, class MakeOptions, class Record>
void time_fit(benchmark::State& state, const std::string& name, const MakeOptions& make_options,
              const Record& record) {
  const Tensor* X = unsupervised_data(name);
  if (X == nullptr) {
    state.SkipWithError("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
    return;
  }
  const auto options = make_options(*X);
  set_num_threads(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    Model model(options);
    model.fit(*X);
    record(model, state);
  }
  set_num_threads(0);
}

void pca_with(benchmark::State& state, const std::string& name, PCASolver solver) {
  time_fit<PCA>(
      state, name, [&](const Tensor&) { return PCAOptions{.num_components = kComponents, .solver = solver}; },
      [](const PCA& model, benchmark::State& s) {
        s.counters["objective"] = model.explained_variance().sum();
        s.SetLabel(std::string(enum_name(model.solver_used())));
      });
}

void pca(benchmark::State& state, const std::string& name) { pca_with(state, name, PCASolver::Auto); }
void pca_randomized(benchmark::State& state, const std::string& name) {
  pca_with(state, name, PCASolver::Randomized);
}

void kpca(benchmark::State& state, const std::string& name) {
  time_fit<KernelPCA>(
      state, name,
      [](const Tensor& X) {
        return KernelPCAOptions{.kernel = std::make_shared<RbfKernel>(1.0 / static_cast<Scalar>(X.cols())),
                                .num_components = kComponents};
      },
      [](const KernelPCA& model, benchmark::State& s) {
        s.counters["objective"] = model.eigenvalues().sum();
        s.SetLabel("few_leading_eigenpairs");
      });
}

void kmeans(benchmark::State& state, const std::string& name) {
  time_fit<KMeans>(
      state, name,
      [](const Tensor& X) {
        return KMeansOptions{.num_clusters = kClusters,
                             .init = KMeansInit::Given,
                             .initial_centers = spread_rows(X, kClusters),
                             .max_iterations = 100,
                             .tolerance = 0};
      },
      [](const KMeans& model, benchmark::State& s) {
        s.counters["objective"] = model.inertia();
        s.counters["iterations"] = static_cast<double>(model.num_iter());
        // algorithm = auto, as users run it: Hamerly's bounds on digits (K ≥ 5, d ≤ 64), Lloyd on
        // Fashion-MNIST; both give Lloyd's iterates.
        s.SetLabel(std::string(enum_name(chosen_k_means_algorithm(KMeansAlgorithm::Auto, model.num_features(),
                                                                  model.centers().rows()))));
      });
}

// From C0, weights 1/K and every covariance s² I; 50 EM iterations (10 on Fashion-MNIST),
// tolerance 0.
GaussianMixtureOptions mixture_start(const Tensor& X, CovarianceType type, bool fashion) {
  const Index d = X.cols();
  const Scalar s2 = mean_feature_variance(X);
  const auto [rows, cols] = covariance_shape(type, kClusters, d);
  Tensor covariances = Tensor::Zero(rows, cols);
  for (Index k = 0; k < kClusters; ++k) {
    if (type == CovarianceType::Full)
      covariances.middleRows(k * d, d).diagonal().setConstant(s2);
    else
      covariances.row(k).setConstant(s2);
  }
  return {.num_components = kClusters,
          .covariance_type = type,
          .init = MixtureInit::Given,
          .initial_means = spread_rows(X, kClusters),
          .initial_weights = Vector::Constant(kClusters, 1.0 / static_cast<Scalar>(kClusters)),
          .initial_covariances = covariances,
          .max_iterations = fashion ? 10 : 50,
          .tolerance = 0};
}

void gmm(benchmark::State& state, const std::string& name, CovarianceType type) {
  time_fit<GaussianMixture>(
      state, name, [&](const Tensor& X) { return mixture_start(X, type, name != "digits"); },
      [type](const GaussianMixture& model, benchmark::State& s) {
        s.counters["objective"] = model.mean_log_likelihood();
        s.counters["iterations"] = static_cast<double>(model.num_iter());
        s.SetLabel("EM, " + std::string(enum_name(type)));
      });
}

void gmm_diag(benchmark::State& state, const std::string& name) { gmm(state, name, CovarianceType::Diagonal); }
void gmm_full(benchmark::State& state, const std::string& name) { gmm(state, name, CovarianceType::Full); }

// W0, H0 of the header and 100 iterations, tolerance 0.
NMFOptions nmf_start(const Tensor& X) {
  const Index n = X.rows(), d = X.cols();
  const Scalar a = std::sqrt(X.mean() / static_cast<Scalar>(kParts));
  Tensor W0(n, kParts), H0(kParts, d);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < kParts; ++j) W0(i, j) = a * (1 + static_cast<Scalar>((7 * i + 13 * j) % 17) / 17);
  for (Index j = 0; j < kParts; ++j)
    for (Index l = 0; l < d; ++l) H0(j, l) = a * (1 + static_cast<Scalar>((11 * j + 5 * l) % 19) / 19);
  return {.num_components = kParts,
          .init = NMFInit::Given,
          .initial_W = W0,
          .initial_H = H0,
          .max_iterations = 100,
          .tolerance = 0};
}

void nmf(benchmark::State& state, const std::string& name) {
  time_fit<NMF>(state, name, nmf_start, [](const NMF& model, benchmark::State& s) {
    s.counters["objective"] = model.reconstruction_error();
    s.counters["iterations"] = static_cast<double>(model.num_iter());
    s.SetLabel("mu");
  });
}

void mds(benchmark::State& state, const std::string& name) {
  time_fit<ClassicalMDS>(
      state, name, [](const Tensor&) { return ClassicalMDSOptions{.num_components = 2}; },
      [](const ClassicalMDS& model, benchmark::State& s) {
        s.counters["objective"] = model.eigenvalues().sum();
        s.SetLabel("few_leading_eigenpairs");
      });
}

// Z0 of the header: the means of the first and of the last half of each row's features.
Tensor smacof_start(const Tensor& X) {
  const Index half = X.cols() / 2;
  Tensor Z0(X.rows(), 2);
  Z0.col(0) = X.leftCols(half).rowwise().mean();
  Z0.col(1) = X.rightCols(X.cols() - half).rowwise().mean();
  return Z0;
}

void smacof(benchmark::State& state, const std::string& name) {
  time_fit<MetricMDS>(
      state, name,
      [](const Tensor& X) {
        return MetricMDSOptions{
            .num_components = 2, .init = MetricMDSInit::Given, .initial_embedding = smacof_start(X)};
      },
      [](const MetricMDS& model, benchmark::State& s) {
        s.counters["objective"] = model.raw_stress();
        s.counters["iterations"] = static_cast<double>(model.num_iter());
        s.SetLabel("smacof");
      });
}

}  // namespace

#define DAGML_UNSUPERVISED_BENCH(workload, data)                                \
  BENCHMARK_CAPTURE(workload, data, std::string(#data))                         \
      ->Name(#workload "_" #data)                                               \
      ->Arg(1)                                                                  \
      ->Arg(2)                                                                  \
      ->UseRealTime()                                                           \
      ->Unit(benchmark::kMillisecond)

DAGML_UNSUPERVISED_BENCH(pca, digits);
DAGML_UNSUPERVISED_BENCH(pca, fashion10k);
DAGML_UNSUPERVISED_BENCH(pca, fashion60k);
DAGML_UNSUPERVISED_BENCH(pca_randomized, digits);
DAGML_UNSUPERVISED_BENCH(pca_randomized, fashion10k);
DAGML_UNSUPERVISED_BENCH(pca_randomized, fashion60k);
DAGML_UNSUPERVISED_BENCH(kpca, digits);
DAGML_UNSUPERVISED_BENCH(kpca, fashion2k);
DAGML_UNSUPERVISED_BENCH(kmeans, digits);
DAGML_UNSUPERVISED_BENCH(kmeans, fashion10k);
DAGML_UNSUPERVISED_BENCH(kmeans, fashion60k);
DAGML_UNSUPERVISED_BENCH(gmm_diag, digits);
DAGML_UNSUPERVISED_BENCH(gmm_diag, fashion10k);
DAGML_UNSUPERVISED_BENCH(gmm_diag, fashion60k);
DAGML_UNSUPERVISED_BENCH(gmm_full, digits);
DAGML_UNSUPERVISED_BENCH(gmm_full, fashion2k);
DAGML_UNSUPERVISED_BENCH(nmf, digits);
DAGML_UNSUPERVISED_BENCH(nmf, fashion10k);
DAGML_UNSUPERVISED_BENCH(nmf, fashion60k);
DAGML_UNSUPERVISED_BENCH(mds, digits);
DAGML_UNSUPERVISED_BENCH(smacof, digits);

BENCHMARK_MAIN();
