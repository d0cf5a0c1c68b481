#include "models/io/registry.h"

#include <algorithm>

#include "models/classify/bernoulli_nb.h"
#include "models/classify/categorical_nb.h"
#include "models/classify/gaussian_nb.h"
#include "models/classify/knn_classifier.h"
#include "models/classify/knn_regressor.h"
#include "models/classify/least_squares_classifier.h"
#include "models/classify/linear_discriminant_analysis.h"
#include "models/classify/linear_svc.h"
#include "models/classify/logistic_regression.h"
#include "models/classify/multinomial_nb.h"
#include "models/classify/perceptron.h"
#include "models/classify/quadratic_discriminant_analysis.h"
#include "models/classify/rbf_network.h"
#include "models/classify/svc.h"
#include "models/cluster/dp_means.h"
#include "models/cluster/gaussian_mixture.h"
#include "models/cluster/k_means.h"
#include "models/cluster/k_medians.h"
#include "models/cluster/online_k_means.h"
#include "models/cluster/soft_k_means.h"
#include "models/data/min_max_scaler.h"
#include "models/data/polynomial_features.h"
#include "models/data/standard_scaler.h"
#include "models/decompose/classical_mds.h"
#include "models/decompose/fast_ica.h"
#include "models/decompose/gaussian_random_projection.h"
#include "models/decompose/kernel_pca.h"
#include "models/decompose/metric_mds.h"
#include "models/decompose/nmf.h"
#include "models/decompose/pca.h"
#include "models/decompose/probabilistic_pca.h"
#include "models/decompose/sparse_coding.h"
#include "models/decompose/sparse_random_projection.h"
#include "models/ensemble/adaboost_classifier.h"
#include "models/ensemble/bagging_classifier.h"
#include "models/ensemble/bagging_regressor.h"
#include "models/ensemble/gradient_boosting_classifier.h"
#include "models/ensemble/gradient_boosting_regressor.h"
#include "models/ensemble/l2_boost_regressor.h"
#include "models/ensemble/logit_boost_classifier.h"
#include "models/ensemble/random_forest_classifier.h"
#include "models/ensemble/random_forest_regressor.h"
#include "models/io/erased_estimator.h"
#include "models/gp/gaussian_process_classifier.h"
#include "models/gp/gaussian_process_regressor.h"
#include "models/kernel/kernel_ridge.h"
#include "models/kernel/nystroem.h"
#include "models/kernel/random_fourier_features.h"
#include "models/linear/bayesian_linear_regression.h"
#include "models/nn/autoencoder.h"
#include "models/nn/cnn_classifier.h"
#include "models/nn/mlp_classifier.h"
#include "models/nn/mlp_regressor.h"
#include "models/nn/variational_autoencoder.h"
#include "models/linear/generalized_least_squares.h"
#include "models/linear/lasso.h"
#include "models/linear/linear_regression.h"
#include "models/linear/matching_pursuit.h"
#include "models/linear/polynomial_regression.h"
#include "models/linear/ridge.h"
#include "models/linear/total_least_squares.h"
#include "models/sequence/categorical_hmm.h"
#include "models/sequence/gaussian_hmm.h"
#include "models/sequence/gmm_hmm.h"
#include "models/tree/decision_tree_classifier.h"
#include "models/tree/decision_tree_regressor.h"

namespace dagml {
namespace {

using detail::describe;
using enum Task;
using enum InputDomain;

// Every estimator, one line each: its type, task, the values X may hold, and a one-line summary.
// (NonlinearLeastSquares is not here: its model is a C++ function, which no file can hold.)
std::vector<EstimatorInfo> build_registry() {
  std::vector<EstimatorInfo> r = {
      // models/linear
      describe<LinearRegression>(Regression, Real, "ordinary least squares by QR (minimum-norm when rank deficient)"),
      describe<Ridge>(Regression, Real, "ridge regression, L2 penalty, optionally towards w₀ (closed form or iterative)"),
      describe<Lasso>(Regression, Real, "L1-penalised least squares by coordinate descent"),
      describe<BayesianLinearRegression>(Regression, Real, "Gaussian prior and noise: posterior mean and covariance"),
      describe<GeneralizedLeastSquares>(Regression, Real, "least squares with a Gaussian prior (OLS, ridge, Tikhonov)"),
      describe<TotalLeastSquares>(Regression, Real, "errors in X and y: the smallest right singular vector of [X y]"),
      describe<MatchingPursuit>(Regression, Real, "greedy sparse regression: matching pursuit or orthogonal MP"),
      describe<PolynomialRegression>(Regression, Real, "least squares or ridge on all monomials up to a degree"),
      // models/cluster
      describe<KMeans>(Clustering, Real,
                       "k-means by Lloyd's algorithm (or Hamerly's, the same result) from k-means++, random or given "
                       "centres"),
      describe<OnlineKMeans>(Clustering, Real, "online (stochastic) k-means: a Robbins–Monro step towards every point"),
      describe<DPMeans>(Clustering, Real, "DP-means: k-means that opens a cluster beyond a squared distance λ"),
      describe<SoftKMeans>(Clustering, Real, "soft k-means: softmax(−β‖x − c‖²) responsibilities, weighted-mean centres"),
      describe<KMedians>(Clustering, Real, "k-medians: L¹ assignments, coordinate-wise median centres"),
      describe<GaussianMixture>(Clustering, Real, "Gaussian mixture by EM: full, tied, diagonal or spherical covariances"),
      // models/sequence (fit(X) through the registry: the rows of X are one sequence)
      describe<GaussianHmm>(Clustering, Real, "hidden Markov model, Gaussian emissions, by Baum–Welch; Viterbi decoding"),
      describe<GmmHmm>(Clustering, Real, "hidden Markov model, Gaussian-mixture emissions, by Baum–Welch; Viterbi decoding"),
      describe<CategoricalHmm>(Clustering, Categorical, "hidden Markov model, categorical emissions, by Baum–Welch; Viterbi decoding"),
      // models/decompose
      describe<PCA>(Transformation, Real, "principal components by covariance eigen, full or randomized SVD"),
      describe<FastICA>(Transformation, Real, "independent components by FastICA: PCA whitening, symmetric fixed point"),
      describe<NMF>(Transformation, NonNegative, "non-negative matrix factorisation by multiplicative updates (Frobenius or KL)"),
      describe<KernelPCA>(Transformation, Real, "kernel PCA: principal components in the feature space of a kernel"),
      describe<ProbabilisticPCA>(Transformation, Real, "probabilistic PCA: closed-form or EM maximum likelihood"),
      describe<ClassicalMDS>(Transformation, Real, "classical (Torgerson–Gower) MDS of Euclidean or given dissimilarities"),
      describe<MetricMDS>(Transformation, Real, "metric MDS: stress minimised by SMACOF or by L-BFGS on the stress graph"),
      describe<GaussianRandomProjection>(Transformation, Real, "random projection by a Gaussian matrix (Johnson–Lindenstrauss)"),
      describe<SparseRandomProjection>(Transformation, Real, "random projection by a sparse ±v matrix (Achlioptas, Li et al.)"),
      describe<SparseCoding>(Transformation, Real, "sparse coding: a dictionary by optimal directions, k-sparse codes by OMP"),
      // models/classify
      describe<GaussianNB>(Classification, Real, "Gaussian naive Bayes: per-class means and variances"),
      describe<MultinomialNB>(Classification, NonNegative, "multinomial naive Bayes for counts, additive smoothing"),
      describe<BernoulliNB>(Classification, Real, "Bernoulli naive Bayes on features binarised at a threshold"),
      describe<CategoricalNB>(Classification, Categorical, "categorical naive Bayes, additive smoothing"),
      describe<LinearDiscriminantAnalysis>(Classification, Real, "LDA: Gaussian classes with a shared covariance"),
      describe<QuadraticDiscriminantAnalysis>(Classification, Real, "QDA: Gaussian classes, one covariance each"),
      describe<LogisticRegression>(Classification, Real, "L2 logistic (softmax) regression by L-BFGS or Newton"),
      describe<Perceptron>(Classification, Real, "Rosenblatt's perceptron, optionally averaged (labels 0/1)"),
      describe<LinearSVC>(Classification, Real, "linear soft-margin SVM by dual coordinate descent (labels 0/1)"),
      describe<LeastSquaresClassifier>(Classification, Real, "ridge on ±1 / one-hot targets (LS-SVM), closed form"),
      describe<SVC>(Classification, Real, "kernel C- and ν-SVM by SMO, one-vs-one"),
      describe<KnnClassifier>(Classification, Real, "k-nearest-neighbour vote (brute force or k-d tree)"),
      describe<KnnRegressor>(Regression, Real, "k-nearest-neighbour mean"),
      describe<RbfNetwork>(Classification, Real, "RBF network: Gaussian bases and a linear output layer"),
      // models/kernel
      describe<KernelRidge>(Regression, Real, "kernel ridge regression: α = (K + λI)⁻¹ y"),
      describe<RandomFourierFeatures>(Transformation, Real, "random Fourier features: √(2κ(0)/m) cos(Ωx + b), φ(x)ᵀφ(z) ≈ k(x, z)"),
      describe<Nystroem>(Transformation, Real, "Nyström features K(x, Z) K_zz^(-1/2) from m landmark rows Z"),
      // models/gp
      describe<GaussianProcessRegressor>(Regression, Real, "Gaussian process regression, hyperparameters by marginal likelihood"),
      describe<GaussianProcessClassifier>(Classification, Real, "Gaussian process classification, Laplace approximation (K > 2: one-vs-rest or the joint softmax model)"),
      // models/tree
      describe<DecisionTreeClassifier>(Classification, Real, "CART classification tree: Gini, entropy or misclassification"),
      describe<DecisionTreeRegressor>(Regression, Real, "CART regression tree: squared or absolute error"),
      // models/ensemble
      describe<RandomForestClassifier>(Classification, Real, "random forest: bagged CART trees, random features per split"),
      describe<RandomForestRegressor>(Regression, Real, "random forest of regression trees, mean prediction"),
      describe<GradientBoostingClassifier>(Classification, Real, "gradient boosting of histogram trees: logistic or softmax loss"),
      describe<GradientBoostingRegressor>(Regression, Real, "gradient boosting of histogram trees: squared, absolute, Huber or Poisson loss"),
      describe<AdaBoostClassifier>(Classification, Real, "discrete AdaBoost (SAMME for K classes) on decision stumps or trees"),
      describe<BaggingClassifier>(Classification, Real, "bagging of any registered classifier: bootstrap rows, feature subsets"),
      describe<BaggingRegressor>(Regression, Real, "bagging of any registered regressor: bootstrap rows, feature subsets"),
      describe<LogitBoostClassifier>(Classification, Real, "LogitBoost: stagewise logistic-loss boosting of stumps (labels 0/1)"),
      describe<L2BoostRegressor>(Regression, Real, "L2-Boost: regression stumps or trees fitted to the residuals"),
      // models/nn
      describe<nn::MlpClassifier>(Classification, Real, "multilayer perceptron, softmax cross-entropy, minibatch training"),
      describe<nn::MlpRegressor>(Regression, Real, "multilayer perceptron, squared error, minibatch training"),
      describe<nn::CnnClassifier>(Classification, Real, "LeNet-style convolutional network on images stored one per row"),
      describe<nn::Autoencoder>(Transformation, Real, "autoencoder: an MLP encoder to q codes and its mirror decoder"),
      describe<nn::VariationalAutoencoder>(Transformation, UnitInterval, "variational autoencoder with a Bernoulli decoder"),
      // models/data
      describe<StandardScaler>(Transformation, Real, "centre each column and divide by its standard deviation"),
      describe<MinMaxScaler>(Transformation, Real, "map each column's training range onto [lo, hi]"),
      describe<PolynomialFeatures>(Transformation, Real, "all monomials of the inputs up to a degree"),
  };
  std::sort(r.begin(), r.end(), [](const EstimatorInfo& a, const EstimatorInfo& b) { return a.name < b.name; });
  for (std::size_t i = 1; i < r.size(); ++i) {
    DAGML_CHECK(r[i - 1].name != r[i].name, "two estimators registered as '{}'", r[i].name);
  }
  return r;
}

}  // namespace

const std::vector<EstimatorInfo>& registered_estimators() {
  static const std::vector<EstimatorInfo> registry = build_registry();
  return registry;
}

const EstimatorInfo& estimator_info(std::string_view name) {
  for (const EstimatorInfo& info : registered_estimators())
    if (info.name == name) return info;
  std::string known;
  for (const EstimatorInfo& info : registered_estimators()) known += (known.empty() ? "" : ", ") + info.name;
  throw ValueError(fmt::format("no estimator named '{}'; the registered ones are: {}", name, known));
}

void set_option(OptionSettings& settings, const std::string& key, const std::string& value) {
  const auto it = std::find_if(settings.begin(), settings.end(), [&](const auto& kv) { return kv.first == key; });
  if (it != settings.end()) {
    it->second = value;
  } else {
    settings.emplace_back(key, value);
  }
}

AnyEstimator make_estimator(std::string_view name, const OptionSettings& settings) {
  const EstimatorInfo& info = estimator_info(name);
  return info.make(info, settings);
}

AnyEstimator load_model(const ModelFile& file) {
  const EstimatorInfo* info = nullptr;
  for (const EstimatorInfo& candidate : registered_estimators())
    if (candidate.name == file.type_name()) info = &candidate;
  if (info == nullptr) {
    throw ParseError(file.source(), 0, 0,
                     fmt::format("a '{}' model, which this dagml {} does not know (written by dagml {})",
                                 file.type_name(), dagml_version(), file.dagml_version()));
  }
  return info->load(*info, file);
}

AnyEstimator load_model(const std::string& path) { return load_model(ModelFile::read(path)); }

AnyEstimator load_model_from_bytes(std::string bytes, std::string source) {
  return load_model(ModelFile(std::move(bytes), std::move(source)));
}

// --- AnyEstimator ------------------------------------------------------------------------------------

AnyEstimator::AnyEstimator(const EstimatorInfo& info, std::unique_ptr<ErasedEstimator> self)
    : info_(&info), self_(std::move(self)) {}

AnyEstimator::AnyEstimator(const AnyEstimator& other) : info_(other.info_), self_(other.self_->clone()) {}

AnyEstimator& AnyEstimator::operator=(const AnyEstimator& other) {
  if (this != &other) {
    info_ = other.info_;
    self_ = other.self_->clone();
  }
  return *this;
}

const std::string& AnyEstimator::name() const { return info_->name; }

void AnyEstimator::require(bool has, const char* method) const {
  if (!has) throw ValueError(fmt::format("{}: this {} estimator has no {}", name(), enum_name(info_->task), method));
}

AnyEstimator& AnyEstimator::fit(const Tensor& X, const Vector& y) {
  require(info_->task == Task::Regression || info_->task == Task::Classification, "fit(X, y): call fit(X)");
  self_->fit(X, &y);
  return *this;
}

AnyEstimator& AnyEstimator::fit(const Tensor& X) {
  require(info_->task == Task::Clustering || info_->task == Task::Transformation, "fit(X): call fit(X, y)");
  self_->fit(X, nullptr);
  return *this;
}

Tensor AnyEstimator::predict(const Tensor& X) const {
  require(info_->capabilities.predict, "predict");
  return self_->predict(X);
}

Tensor AnyEstimator::predict_proba(const Tensor& X) const {
  require(info_->capabilities.predict_proba, "predict_proba");
  return self_->predict_proba(X);
}

Tensor AnyEstimator::decision_function(const Tensor& X) const {
  require(info_->capabilities.decision_function, "decision_function");
  return self_->decision_function(X);
}

Tensor AnyEstimator::transform(const Tensor& X) const {
  require(info_->capabilities.transform, "transform");
  return self_->transform(X);
}

Scalar AnyEstimator::score(const Tensor& X, const Vector& y) const {
  require(info_->capabilities.score && (info_->task == Task::Regression || info_->task == Task::Classification),
          "score(X, y)");
  return self_->score(X, &y);
}

Scalar AnyEstimator::score(const Tensor& X) const {
  require(info_->capabilities.score && (info_->task == Task::Clustering || info_->task == Task::Transformation),
          "score(X)");
  return self_->score(X, nullptr);
}

}  // namespace dagml
