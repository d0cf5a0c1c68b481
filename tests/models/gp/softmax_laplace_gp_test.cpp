// The softmax Laplace approximation (softmax_laplace_gp.h) against independent references: with
// two classes it is exactly the binary Laplace model with twice the kernel on g = f₁ − f₂ (a
// priori f₁ + f₂ is independent of f₁ − f₂ and the likelihood depends on g only, and Newton's
// method and the Laplace approximation are invariant under that linear change of variables); on
// a tiny problem its mode and log q against a dense Newton iteration and dense log-determinant
// written here; the hyperparameter gradient against central differences; the Monte Carlo
// probabilities against their limits and a much larger sample; determinism over batches and
// threads; and GaussianProcessClassifier with multi_class = softmax on iris, with model files of
// both layouts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/datasets.h"
#include "models/gp/gaussian_process_classifier.h"
#include "models/gp/gp_test_rows.h"
#include "models/gp/softmax_laplace_gp.h"
#include "models/io/model_file.h"
#include "models/io/option_layouts.h"
#include "models/kernel/kernel_io.h"

namespace dagml {
namespace {

// Labels of the rows above: two and three classes from a noisy score.
Vector softmax_labels(Index num_classes) {
  const Tensor X = testing::curve_rows_30();
  Vector y(30);
  for (Index t = 0; t < 30; ++t) {
    const Scalar score = std::sin(2 * X(t, 0)) + 0.4 * X(t, 1) + 0.3 * std::cos(5.0 * static_cast<double>(t));
    y[t] = num_classes == 2 ? (score > 0.8 ? 1 : 0) : (score < 0.5 ? 0 : score < 1.2 ? 1 : 2);
  }
  return y;
}
Tensor softmax_test_rows() { return (Tensor(4, 2) << 0.2, 0.3, -1.0, 1.5, 1.4, 2.2, 0.9, -0.4).finished(); }
bool same_bits(const Tensor& a, const Tensor& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(Scalar)) == 0;
}

TEST(SoftmaxLaplaceGp, TwoClassesEqualTheBinaryModelWithTwiceTheKernelOnTheDifference) {
  const Tensor X = testing::curve_rows_30();
  const Vector y = softmax_labels(2);
  const KernelPtr k = parse_kernel("constant(value=1.5) * rbf(length_scale=0.8)");
  // 2k with the factor 2 fixed, so that both models have the same free θ = (log 1.5, log 0.8).
  const KernelPtr twice =
      parse_kernel("constant(value=2, value_bounds=fixed) * constant(value=1.5) * rbf(length_scale=0.8)");
  const Vector t = (y.array() == 0).cast<Scalar>();  // p(class 0) = σ(f₁ − f₂)
  SoftmaxLaplaceGp softmax;
  softmax.fit(k, X, y, 2, {});
  BinaryLaplaceGp binary;
  binary.fit(twice, X, t, {});
  EXPECT_TRUE(softmax.converged());
  EXPECT_NEAR(softmax.log_marginal_likelihood(), binary.log_marginal_likelihood(), 1e-9);
  EXPECT_LT((softmax.mode().col(0) - softmax.mode().col(1) - binary.mode()).cwiseAbs().maxCoeff(), 1e-8);
  // A priori and a posteriori f₁ + f₂ has mean 0.
  EXPECT_LT((softmax.mode().col(0) + softmax.mode().col(1)).cwiseAbs().maxCoeff(), 1e-8);
  Vector gradient_softmax, gradient_binary;
  const Scalar log_q = SoftmaxLaplaceGp::log_marginal_likelihood(*k, X, y, 2, {}, &gradient_softmax);
  BinaryLaplaceGp::log_marginal_likelihood(*twice, X, t, {}, &gradient_binary);
  EXPECT_EQ(log_q, softmax.log_marginal_likelihood());
  ASSERT_EQ(gradient_softmax.size(), 2);
  ASSERT_EQ(gradient_binary.size(), 2);
  EXPECT_LT((gradient_softmax - gradient_binary).cwiseAbs().maxCoeff(), 1e-8);
  // At test points: the latent mean and variance of f₁ − f₂.
  const Tensor X_star = softmax_test_rows();
  Tensor mean;
  std::vector<Tensor> covariance;
  softmax.latent(X_star, mean, covariance);
  Vector binary_mean, binary_variance;
  binary.latent(X_star, binary_mean, binary_variance);
  for (Index i = 0; i < X_star.rows(); ++i) {
    const Tensor& S = covariance[static_cast<std::size_t>(i)];
    EXPECT_NEAR(mean(i, 0) - mean(i, 1), binary_mean[i], 1e-8) << i;
    EXPECT_NEAR(S(0, 0) + S(1, 1) - 2 * S(0, 1), binary_variance[i], 1e-8) << i;
    EXPECT_EQ(S(0, 1), S(1, 0));
  }
}

// Dense references for n = 6 points and 3 classes: f in class-major order (f¹; f²; f³).
TEST(SoftmaxLaplaceGp, ModeAndLogQMatchADenseNewtonIterationAndDeterminant) {
  const Tensor X = (Tensor(6, 2) << 0.0, 0.1, 0.4, -0.3, 1.0, 0.8, -0.7, 0.5, 0.3, 1.2, -1.1, -0.6).finished();
  const Vector y = (Vector(6) << 0, 1, 2, 0, 2, 1).finished();
  const KernelPtr kernel = parse_kernel("constant(value=2) * rbf(length_scale=0.9)");
  const Index n = 6, C = 3, N = n * C;
  const Tensor Kx = kernel->gram(X);
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(N, N);
  for (Index c = 0; c < C; ++c) K.block(c * n, c * n, n, n) = Kx;
  const Eigen::MatrixXd K_inverse = K.inverse();
  Eigen::VectorXd Y = Eigen::VectorXd::Zero(N);
  for (Index i = 0; i < n; ++i) Y[static_cast<Index>(y[i]) * n + i] = 1;
  const auto probabilities = [&](const Eigen::VectorXd& f) {
    Eigen::VectorXd pi(N);
    for (Index i = 0; i < n; ++i) {
      Scalar total = 0;
      for (Index c = 0; c < C; ++c) total += std::exp(f[c * n + i]);
      for (Index c = 0; c < C; ++c) pi[c * n + i] = std::exp(f[c * n + i]) / total;
    }
    return pi;
  };
  const auto hessian_W = [&](const Eigen::VectorXd& pi) {  // W = diag(π) − ΠΠᵀ
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(N, N);
    for (Index i = 0; i < n; ++i)
      for (Index c = 0; c < C; ++c)
        for (Index e = 0; e < C; ++e)
          W(c * n + i, e * n + i) = (c == e ? pi[c * n + i] : 0) - pi[c * n + i] * pi[e * n + i];
    return W;
  };
  // Plain Newton on Ψ(f) = −½ fᵀK⁻¹f + yᵀf − Σ log Σ exp f: f ← f + (K⁻¹ + W)⁻¹ (y − π − K⁻¹f).
  Eigen::VectorXd f = Eigen::VectorXd::Zero(N);
  for (int it = 0; it < 60; ++it) {
    const Eigen::VectorXd pi = probabilities(f);
    f += (K_inverse + hessian_W(pi)).ldlt().solve(Y - pi - K_inverse * f);
  }
  const Eigen::VectorXd pi = probabilities(f);
  ASSERT_LT((Y - pi - K_inverse * f).norm(), 1e-10);
  Scalar log_likelihood = Y.dot(f);
  for (Index i = 0; i < n; ++i) {
    Scalar total = 0;
    for (Index c = 0; c < C; ++c) total += std::exp(f[c * n + i]);
    log_likelihood -= std::log(total);
  }
  // log |I + W½ K W½| with the symmetric square root of the (singular, positive semidefinite) W.
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(hessian_W(pi));
  const Eigen::MatrixXd sqrt_W = eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0).cwiseSqrt().asDiagonal() *
                                 eigen.eigenvectors().transpose();
  const Eigen::MatrixXd B = Eigen::MatrixXd::Identity(N, N) + sqrt_W * K * sqrt_W;
  const Scalar dense_log_q = -0.5 * f.dot(K_inverse * f) + log_likelihood - 0.5 * std::log(B.determinant());

  SoftmaxLaplaceGp gp;
  gp.fit(kernel, X, y, C, {});
  EXPECT_TRUE(gp.converged());
  EXPECT_GT(gp.newton_iterations(), 2);
  // Stopped before the test was met: not converged, and said so.
  SoftmaxLaplaceGp early;
  early.fit(kernel, X, y, C, {.newton_max_iterations = 2});
  EXPECT_FALSE(early.converged());
  EXPECT_EQ(early.newton_iterations(), 2);
  EXPECT_GT((early.mode() - gp.mode()).cwiseAbs().maxCoeff(), 1e-6);
  for (Index c = 0; c < C; ++c)
    for (Index i = 0; i < n; ++i) EXPECT_NEAR(gp.mode()(i, c), f[c * n + i], 1e-9) << c << ' ' << i;
  EXPECT_NEAR(gp.log_marginal_likelihood(), dense_log_q, 1e-9);
  // The latent covariance at a test point against Σ* = k** I − Q*ᵀ (K + W⁻¹)⁻¹ Q* in its
  // W-only form Q*ᵀ W (I + K W)⁻¹ Q* (no W⁻¹: W is singular), and the mean Q*ᵀ K⁻¹ f̂.
  const Tensor x_star = (Tensor(1, 2) << 0.2, 0.4).finished();
  const Tensor k_star = kernel->gram(x_star, X);
  Eigen::MatrixXd Q = Eigen::MatrixXd::Zero(N, C);
  for (Index c = 0; c < C; ++c) Q.block(c * n, c, n, 1) = k_star.transpose();
  const Eigen::MatrixXd W = hessian_W(pi);
  const Eigen::MatrixXd R = W * (Eigen::MatrixXd::Identity(N, N) + K * W).inverse();
  const Eigen::MatrixXd dense_covariance =
      (*kernel)(x_star.row(0).transpose(), x_star.row(0).transpose()) * Eigen::MatrixXd::Identity(C, C) -
      Q.transpose() * R * Q;
  const Eigen::VectorXd dense_mean = Q.transpose() * K_inverse * f;
  Tensor mean;
  std::vector<Tensor> covariance;
  gp.latent(x_star, mean, covariance);
  EXPECT_LT((mean.row(0).transpose() - dense_mean).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_LT((covariance[0] - dense_covariance).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(SoftmaxLaplaceGp, GradientMatchesCentralDifferences) {
  const Tensor X = testing::curve_rows_30();
  const Vector y = softmax_labels(3);
  for (const char* text :
       {"constant(value=1.5) * rbf(length_scale=0.8)", "constant(value=0.7) * rbf(length_scale=[0.6, 1.4])",
        "constant(value=2) * matern(nu=1.5, length_scale=1.1)"}) {
    const KernelPtr kernel = parse_kernel(text);
    Vector gradient;
    SoftmaxLaplaceGp::log_marginal_likelihood(*kernel, X, y, 3, {}, &gradient);
    const Vector theta = kernel->free_log_hyperparameters();
    ASSERT_EQ(gradient.size(), theta.size()) << text;
    const auto log_q = [&](const Kernel& at) {
      return SoftmaxLaplaceGp::log_marginal_likelihood(at, X, y, 3, {}, nullptr);
    };
    for (Index j = 0; j < theta.size(); ++j) {
      const Scalar difference = testing::central_difference(*kernel, theta, j, log_q);
      EXPECT_NEAR(gradient[j], difference, 1e-6 * std::max(1.0, std::abs(difference))) << text << " θ" << j;
    }
  }
}

TEST(SoftmaxLaplaceGp, AReplayedKernelGradientGraphGivesTheSameBits) {
  // The hyperparameter search makes one KernelGramGradient per run and passes it to every
  // evaluation: at each θ the value and gradient equal those of a freshly built graph, bit for bit.
  const Tensor X = testing::curve_rows_30();
  const Vector y = softmax_labels(3);
  const KernelPtr kernel = parse_kernel("constant(value=0.7) * rbf(length_scale=[0.6, 1.4])");
  KernelGramGradient replay(*kernel, X);
  const Vector start = kernel->free_log_hyperparameters();
  for (const Scalar shift : {0.0, 0.3, -0.5}) {
    const Vector theta = start.array() + shift;
    const KernelPtr at = kernel->with_log_hyperparameters(std::span<const Scalar>(theta.data(), theta.size()));
    Vector fresh, replayed;
    const Scalar fresh_value = SoftmaxLaplaceGp::log_marginal_likelihood(*at, X, y, 3, {}, &fresh);
    const Scalar replayed_value = SoftmaxLaplaceGp::log_marginal_likelihood(*at, X, y, 3, {}, &replayed, &replay);
    EXPECT_EQ(replayed_value, fresh_value) << shift;
    EXPECT_EQ(replayed, fresh) << shift;
  }
}

TEST(SoftmaxLaplaceGp, MonteCarloProbabilitiesTendToTheirLimits) {
  const Vector mean = (Vector(3) << 0.5, -0.3, 0.1).finished();
  const Vector plain = (mean.array().exp() / mean.array().exp().sum()).matrix();  // softmax(μ)
  const Tensor draws = antithetic_normal_draws(1000, 3, 11);
  // The draws: the seed's standard normals, in order, each row followed by its negation.
  std::mt19937_64 rng(11);
  for (Index c = 0; c < 3; ++c) EXPECT_EQ(draws(0, c), standard_normal(rng));
  for (Index c = 0; c < 3; ++c) EXPECT_EQ(draws(2, c), standard_normal(rng));
  EXPECT_EQ(draws.row(1), -draws.row(0));
  EXPECT_EQ(draws.row(999), -draws.row(998));
  EXPECT_EQ(antithetic_normal_draws(5, 3, 11).topRows(4), draws.topRows(4));  // an odd S: one unpaired row
  // Σ = 0 (semidefinite: the eigenvalue path) gives softmax(μ) to rounding; Σ = ε²A nearly so.
  EXPECT_LT((softmax_gaussian_average(mean, Tensor::Zero(3, 3), draws) - plain).cwiseAbs().maxCoeff(), 1e-13);
  const Tensor A = (Tensor(3, 3) << 1.0, 0.3, -0.2, 0.3, 0.8, 0.1, -0.2, 0.1, 1.2).finished();
  EXPECT_LT((softmax_gaussian_average(mean, 1e-8 * A, draws) - plain).cwiseAbs().maxCoeff(), 1e-7);
  // Two classes with equal means: ½ by the antithetic symmetry, whatever Σ.
  const Vector half = softmax_gaussian_average(
      Vector::Constant(2, 0.7), (Tensor(2, 2) << 3.0, 1.0, 1.0, 2.0).finished(), antithetic_normal_draws(1000, 2, 5));
  EXPECT_NEAR(half[0], 0.5, 1e-14);
  EXPECT_NEAR(half[1], 0.5, 1e-14);
  const Vector p = softmax_gaussian_average(mean, A, draws);
  EXPECT_NEAR(p.sum(), 1, 1e-14);
  EXPECT_GT((p - plain).cwiseAbs().maxCoeff(), 1e-3);  // E softmax(f) ≠ softmax(E f)
  // S = 1000 against S = 400,000 (other draws): within four standard errors of the difference,
  // from the spread of the antithetic pair means of the large sample.
  const Tensor many = antithetic_normal_draws(400000, 3, 12);
  const Vector reference = softmax_gaussian_average(mean, A, many);
  const Tensor L = Eigen::LLT<Eigen::MatrixXd>(A).matrixL();
  const auto softmax_at = [&](const Vector& z) {
    const Vector f = mean + L * z;
    return Vector((f.array().exp() / f.array().exp().sum()).matrix());
  };
  Vector pair_mean_square = Vector::Zero(3);
  for (Index s = 0; s < many.rows(); s += 2) {
    const Vector q = 0.5 * (softmax_at(many.row(s).transpose()) + softmax_at(many.row(s + 1).transpose()));
    pair_mean_square += q.cwiseProduct(q);
  }
  pair_mean_square /= static_cast<Scalar>(many.rows() / 2);
  for (Index c = 0; c < 3; ++c) {
    const Scalar pair_variance = pair_mean_square[c] - reference[c] * reference[c];
    const Scalar standard_error = std::sqrt(pair_variance / 500 + pair_variance / 200000);
    EXPECT_GT(standard_error, 1e-4);
    EXPECT_LT(std::abs(p[c] - reference[c]), 4 * standard_error) << c;
  }
}

TEST(SoftmaxLaplaceGp, ARowsProbabilitiesDependNeitherOnItsBatchNorOnTheThreadCount) {
  const Tensor X = testing::curve_rows_30();
  const Vector y = softmax_labels(3);
  SoftmaxLaplaceGp gp;
  gp.fit(parse_kernel("constant(value=2) * rbf(length_scale=0.8)"), X, y, 3, {});
  Tensor grid(70, 2);
  for (Index i = 0; i < 70; ++i)
    grid.row(i) << -1.5 + 0.05 * static_cast<double>(i), 2.0 - 0.04 * static_cast<double>(i);
  const Tensor P = gp.probability(grid, 500, 3);
  EXPECT_LT((P.rowwise().sum().array() - 1).abs().maxCoeff(), 1e-14);
  for (Index i : {0, 17, 33, 69}) EXPECT_TRUE(same_bits(gp.probability(grid.middleRows(i, 1), 500, 3), P.row(i))) << i;
  EXPECT_TRUE(same_bits(gp.probability(grid.middleRows(20, 30), 500, 3), P.middleRows(20, 30)));
  for (int threads : {1, 3}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    EXPECT_TRUE(same_bits(gp.probability(grid, 500, 3), P)) << threads;
  }
  // Another seed: other draws, other (but close) probabilities.
  const Tensor other = gp.probability(grid, 500, 4);
  EXPECT_FALSE(same_bits(other, P));
  EXPECT_LT((other - P).cwiseAbs().maxCoeff(), 0.1);
}

// The fit with the classifier: the restarts' result and the model do not depend on the thread count.
TEST(SoftmaxLaplaceGp, ClassifierFitDoesNotDependOnTheThreadCount) {
  const GaussianProcessClassifierOptions options{.kernel = parse_kernel("constant(value=1) * rbf(length_scale=1)"),
                                                 .restarts = 2,
                                                 .multi_class = GpcMultiClass::Softmax};
  std::string bytes[2];
  for (int k = 0; k < 2; ++k) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(k == 0 ? 1 : 4));
    GaussianProcessClassifier gpc(options);
    gpc.fit(testing::curve_rows_30(), softmax_labels(3));
    EXPECT_EQ(gpc.fit_report().size(), 1u);
    EXPECT_EQ(gpc.fit_report()[0].runs.size(), 3u);
    bytes[k] = gpc.to_bytes();
  }
  EXPECT_EQ(bytes[0], bytes[1]);
}

TEST(SoftmaxLaplaceGp, ClassifierOnIrisWithFilesOfBothLayouts) {
  const Dataset iris = load_dataset("iris");
  const GaussianProcessClassifierOptions start{.kernel = parse_kernel("constant(value=1) * rbf(length_scale=1)"),
                                               .optimize = false,
                                               .multi_class = GpcMultiClass::Softmax};
  GaussianProcessClassifier fixed(start);
  fixed.fit(iris.features, iris.target);
  GaussianProcessClassifierOptions options = start;
  options.optimize = true;
  GaussianProcessClassifier gpc(options);
  gpc.fit(iris.features, iris.target);
  ASSERT_EQ(gpc.fit_report().size(), 1u);
  const Result& run = gpc.fit_report()[0].runs[0].result;
  EXPECT_TRUE(run.converged()) << run.message;
  EXPECT_TRUE(gpc.softmax_gp().converged());
  EXPECT_TRUE(gpc.binary_gps().empty());
  EXPECT_GT(gpc.log_marginal_likelihood(), fixed.log_marginal_likelihood() + 1);
  EXPECT_EQ(gpc.log_marginal_likelihood(), -run.value);
  EXPECT_GE(gpc.score(iris.features, iris.target), 0.95);
  EXPECT_GE(fixed.score(iris.features, iris.target), 0.9);
  const Tensor P = gpc.predict_proba(iris.features);
  EXPECT_LT((P.rowwise().sum().array() - 1).abs().maxCoeff(), 1e-12);
  // Layout 2: the softmax model round-trips, predictions bitwise.
  const GaussianProcessClassifier back =
      GaussianProcessClassifier::from_model_file(ModelFile(gpc.to_bytes(), "softmax"));
  EXPECT_EQ(back.options().multi_class, GpcMultiClass::Softmax);
  EXPECT_EQ(back.options().num_samples, 1000);
  EXPECT_TRUE(same_bits(back.predict_proba(iris.features), P));
  EXPECT_EQ(back.log_marginal_likelihood(), gpc.log_marginal_likelihood());
  EXPECT_EQ(back.to_bytes(), gpc.to_bytes());
  EXPECT_THROW(back.fit_report(), NotFittedError);
  // Layout 1, as files were written before multi_class: a one-vs-rest model in that layout
  // loads as one_vs_rest with the same predictions.
  GaussianProcessClassifier ovr(
      {.kernel = parse_kernel("constant(value=2) * rbf(length_scale=0.8)"), .optimize = false});
  ovr.fit(testing::curve_rows_30(), softmax_labels(3));
  std::string payload;
  {
    ModelOutputArchive ar(payload);
    GaussianProcessClassifierOptions o = ovr.options();
    testing::OptionsOfLayout<GaussianProcessClassifierOptions> layout_1{o, 1};
    ar(layout_1, true, Index{2}, Index{3}, ovr.binary_gps());
  }
  const GaussianProcessClassifier old = GaussianProcessClassifier::from_model_file(
      ModelFile(frame_model_file(GaussianProcessClassifier::kTypeName, 1, payload), "layout 1"));
  EXPECT_EQ(old.options().multi_class, GpcMultiClass::OneVsRest);
  EXPECT_EQ(old.binary_gps().size(), 3u);
  EXPECT_TRUE(same_bits(old.predict_proba(softmax_test_rows()), ovr.predict_proba(softmax_test_rows())));
  EXPECT_EQ(old.to_bytes(), ovr.to_bytes());  // written back in the current layout
  // Layout 2, before warm_start: the softmax model loads with warm_start = true, predictions bitwise.
  std::string layout_2_payload;
  {
    ModelOutputArchive ar(layout_2_payload);
    GaussianProcessClassifierOptions o = gpc.options();
    o.warm_start = false;  // not in a layout-2 file: it must come back as the default
    testing::OptionsOfLayout<GaussianProcessClassifierOptions> layout_2{o, 2};
    ar(layout_2, true, Index{4}, Index{3}, gpc.softmax_gp());
  }
  const GaussianProcessClassifier layout_2_model = GaussianProcessClassifier::from_model_file(
      ModelFile(frame_model_file(GaussianProcessClassifier::kTypeName, 2, layout_2_payload), "layout 2"));
  EXPECT_TRUE(layout_2_model.options().warm_start);
  EXPECT_EQ(layout_2_model.options().multi_class, GpcMultiClass::Softmax);
  EXPECT_TRUE(same_bits(layout_2_model.predict_proba(iris.features), P));
  // The seed corpus file of the model-file fuzz harness (written in layout 1, before multi_class) still loads.
  const GaussianProcessClassifier corpus = GaussianProcessClassifier::load(
      (std::filesystem::path(DAGML_SOURCE_DIR) / "fuzz/corpus/model_file/gaussian_process_classifier.dagml").string());
  EXPECT_EQ(corpus.options().multi_class, GpcMultiClass::OneVsRest);
  EXPECT_EQ(corpus.binary_gps().size(), static_cast<std::size_t>(corpus.num_classes()));
  // A file whose softmax GP does not fit its feature count is a ParseError.
  std::string bad;
  {
    ModelOutputArchive ar(bad);
    GaussianProcessClassifierOptions o = gpc.options();
    ar(o, true, Index{3}, Index{3}, gpc.softmax_gp());  // the GP has 4 features
  }
  EXPECT_THROW(
      GaussianProcessClassifier::from_model_file(ModelFile(
          frame_model_file(GaussianProcessClassifier::kTypeName, GaussianProcessClassifier::kModelVersion, bad),
          "crafted")),
      ParseError);
}

TEST(SoftmaxLaplaceGp, ClassifierBadInputIsAClearError) {
  EXPECT_THROW(GaussianProcessClassifier({.num_samples = 0}), ValueError);
  const GaussianProcessClassifierOptions softmax{.kernel = parse_kernel("constant(value=2) * rbf(length_scale=0.8)"),
                                                 .optimize = false,
                                                 .multi_class = GpcMultiClass::Softmax};
  GaussianProcessClassifier gpc(softmax);
  EXPECT_THROW(gpc.predict_proba(testing::curve_rows_30()), NotFittedError);
  EXPECT_THROW(gpc.fit(testing::curve_rows_30(), Vector::Zero(30)), ValueError);  // one class only
  EXPECT_THROW(gpc.fit(testing::curve_rows_30(), softmax_labels(3).head(10)), ShapeError);
  Vector bad = softmax_labels(3);
  bad[0] = 0.5;
  EXPECT_THROW(gpc.fit(testing::curve_rows_30(), bad), ValueError);
  bad[0] = -1;
  EXPECT_THROW(gpc.fit(testing::curve_rows_30(), bad), ValueError);
  Tensor nan = testing::curve_rows_30();
  nan(3, 1) = std::nan("");
  EXPECT_THROW(gpc.fit(nan, softmax_labels(3)), ValueError);
  // Two classes are allowed; the probabilities have two columns summing to 1.
  gpc.fit(testing::curve_rows_30(), softmax_labels(2));
  const Tensor P = gpc.predict_proba(softmax_test_rows());
  ASSERT_EQ(P.cols(), 2);
  EXPECT_LT((P.rowwise().sum().array() - 1).abs().maxCoeff(), 1e-14);
  EXPECT_THROW(gpc.predict_proba(Tensor::Zero(2, 3)), ShapeError);
  GaussianProcessClassifier ovr({.optimize = false});
  ovr.fit(testing::curve_rows_30(), softmax_labels(2));
  EXPECT_THROW(ovr.softmax_gp(), ValueError);
}

}  // namespace
}  // namespace dagml
