// Tests for GaussianMixture and the EM loop it runs on (optim/expectation_maximization.h): the
// worked EM iterations of notes000_part2.md §2.2 and notes004.md §2.2, scikit-learn 1.2.1 on iris
// for each covariance type from given means, monotone log-likelihood, restarts, the k-means start,
// predictions, sampling, BIC/AIC, callbacks, bad input and save/load.
#include "models/cluster/gaussian_mixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>

#include "gaussian_mixture_reference.h"
#include "graph/error.h"
#include "graph/random.h"
#include "models/cluster/k_means.h"
#include "models/data/datasets.h"
#include "optim/callbacks.h"
#include "optim/expectation_maximization.h"
#include "literals.h"

namespace dagml {
namespace {

namespace ref = gaussian_mixture_reference;
using ::testing::HasSubstr;

using testing::column;

constexpr CovarianceType kTypes[] = {CovarianceType::Full, CovarianceType::Tied, CovarianceType::Diagonal,
                                     CovarianceType::Spherical};

// The 1-D covariances (1, 1) of two components in each storage.
Tensor unit_variances(CovarianceType type) { return type == CovarianceType::Tied ? column({1}) : column({1, 1}); }

TEST(GaussianMixture, Notes000WorkedEmIterations) {
  // notes000_part2.md §2.2 (derived there from the notes' formulas): X = {0, 1, 3, 4}, μ = (0, 4),
  // σ² = (1, 1), α = (½, ½); log-likelihood −7.411372 at the start, −5.715694 after iteration 1
  // (μ = (0.51865691, 3.48134309), σ² = 0.30562265), −5.675742 after iteration 2 (μ = (0.50006166,
  // 3.49993834), σ² = 0.25018498). In one dimension and by symmetry every covariance type agrees.
  const Tensor X = column({0, 1, 3, 4});
  for (CovarianceType type : kTypes) {
    SCOPED_TRACE(enum_name(type));
    GaussianMixtureOptions o{.num_components = 2,
                             .covariance_type = type,
                             .reg_covar = 0,
                             .init = MixtureInit::Given,
                             .initial_means = column({0, 4}),
                             .initial_weights = Vector::Constant(2, 0.5),
                             .initial_covariances = unit_variances(type),
                             .max_iterations = 1,
                             .tolerance = 0};
    GaussianMixture one(o);
    one.fit(X);
    EXPECT_NEAR(one.means()(0, 0), 0.51865691, 1e-8);
    EXPECT_NEAR(one.means()(1, 0), 3.48134309, 1e-8);
    EXPECT_NEAR(one.covariance(0)(0, 0), 0.30562265, 1e-8);
    EXPECT_NEAR(one.covariance(1)(0, 0), 0.30562265, 1e-8);
    EXPECT_NEAR(one.weights()(0), 0.5, 1e-12);
    ASSERT_EQ(one.fit_result().history.size(), 2u);  // −ℓ per sample
    EXPECT_NEAR(-4 * one.fit_result().history[0], -7.411372, 1e-6);
    EXPECT_NEAR(-4 * one.fit_result().history[1], -5.715694, 1e-6);
    EXPECT_NEAR(4 * one.mean_log_likelihood(), -5.715694, 1e-6);
    EXPECT_NEAR(4 * one.score(X), -5.715694, 1e-6);
    EXPECT_EQ(one.fit_result().status, Status::MaxIterations);
    o.max_iterations = 2;
    GaussianMixture two(o);
    two.fit(X);
    EXPECT_NEAR(two.means()(0, 0), 0.50006166, 1e-8);
    EXPECT_NEAR(two.means()(1, 0), 3.49993834, 1e-8);
    EXPECT_NEAR(two.covariance(1)(0, 0), 0.25018498, 1e-8);
    EXPECT_NEAR(4 * two.mean_log_likelihood(), -5.675742, 1e-6);
    EXPECT_EQ(two.likelihood_decreases(), 0);
  }
}

// notes004.md Algorithm 16: a mixture of 1-D normals with a known shared variance σ² = 1 (only π
// and μ are learned), written against the EmModel interface.
class KnownVarianceMixture final : public EmModel {
 public:
  KnownVarianceMixture(Vector x, Vector means, Vector weights)
      : x_(std::move(x)), means_(std::move(means)), weights_(std::move(weights)) {}
  Scalar e_step() override {
    const Index n = x_.size(), K = means_.size();
    q_.resize(n, K);
    Scalar total = 0;
    for (Index i = 0; i < n; ++i) {
      for (Index k = 0; k < K; ++k)
        q_(i, k) = weights_(k) * std::exp(-0.5 * (x_(i) - means_(k)) * (x_(i) - means_(k))) / std::sqrt(2 * M_PI);
      const Scalar p = q_.row(i).sum();
      q_.row(i) /= p;
      total += std::log(p);
    }
    return total / static_cast<Scalar>(n);
  }
  void m_step() override {
    const Vector nk = q_.colwise().sum().transpose();
    weights_ = nk / static_cast<Scalar>(x_.size());
    means_ = (q_.transpose() * x_).cwiseQuotient(nk);
  }
  Vector parameters() const override {
    Vector p(weights_.size() + means_.size());
    p << weights_, means_;
    return p;
  }

  const Vector& means() const { return means_; }
  const Vector& weights() const { return weights_; }

 private:
  Vector x_, means_, weights_;
  Tensor q_;
};

TEST(ExpectationMaximization, Notes004WorkedIterations) {
  // notes004.md §2.2: x = [0, 1, 9, 10], μ⁽⁰⁾ = (0, 1), π⁽⁰⁾ = (.5, .5), σ² = 1 known. Iteration 1:
  // π = (0.2500695683, 0.7499304317), μ = (0.3800142261, 6.5405666969), log-likelihood
  // −16.295977331; iteration 2: log-likelihood −6.948342855; iteration 3: μ = (0.5, 9.5).
  const Vector x = (Vector(4) << 0, 1, 9, 10).finished();
  KnownVarianceMixture one(x, (Vector(2) << 0, 1).finished(), Vector::Constant(2, 0.5));
  CallbackRunner session({}, 1);
  Result r = expectation_maximization(one, {.max_iterations = 1, .tolerance = 0}, session);
  EXPECT_NEAR(one.weights()(0), 0.2500695683, 1e-10);
  EXPECT_NEAR(one.means()(0), 0.3800142261, 1e-10);
  EXPECT_NEAR(one.means()(1), 6.5405666969, 1e-10);
  EXPECT_NEAR(-4 * r.value, -16.295977331, 1e-9);
  EXPECT_EQ(r.iterations, 1);

  KnownVarianceMixture three(x, (Vector(2) << 0, 1).finished(), Vector::Constant(2, 0.5));
  CallbackRunner again({}, 3);
  EmReport report;
  r = expectation_maximization(three, {.max_iterations = 3, .tolerance = 0}, again, &report);
  ASSERT_EQ(r.history.size(), 4u);
  EXPECT_NEAR(-4 * r.history[2], -6.948342855, 1e-9);
  EXPECT_NEAR(three.means()(0), 0.5, 1e-6);
  EXPECT_NEAR(three.means()(1), 9.5, 1e-6);
  EXPECT_EQ(report.decreases, 0);
  for (std::size_t t = 1; t < r.history.size(); ++t) EXPECT_LE(r.history[t], r.history[t - 1]);
  // Converges by the change test: |ℓ_3 − ℓ_2| is far below 1e-3.
  KnownVarianceMixture converging(x, (Vector(2) << 0, 1).finished(), Vector::Constant(2, 0.5));
  CallbackRunner third({}, 100);
  r = expectation_maximization(converging, {}, third);
  EXPECT_EQ(r.status, Status::ValueTolerance);
  EXPECT_EQ(r.iterations, 3);
}

// An "EM" whose M-step makes the fit worse at its second iteration: the loop must say so.
class WorseningModel final : public EmModel {
 public:
  Scalar e_step() override { return values_[std::min<std::size_t>(calls_++, 3)]; }
  void m_step() override {}
  Vector parameters() const override { return Vector::Zero(1); }

 private:
  std::size_t calls_ = 0;
  Scalar values_[4] = {-3.0, -2.0, -2.5, -2.5};
};

TEST(ExpectationMaximization, ADecreaseIsReportedNeverSilent) {
  WorseningModel model;
  CallbackRunner session({}, 10);
  EmReport report;
  const Result r = expectation_maximization(model, {.max_iterations = 10, .tolerance = 1e-6}, session, &report);
  EXPECT_EQ(report.decreases, 1);
  EXPECT_DOUBLE_EQ(report.largest_decrease, 0.5);
  EXPECT_THAT(r.message, HasSubstr("decreased at 1 iteration"));
  EXPECT_EQ(r.status, Status::ValueTolerance);  // ℓ_3 = ℓ_2
  EXPECT_EQ(r.iterations, 3);
}

struct IrisReference {
  CovarianceType type;
  long n_iter;
  double lower_bound;
  const double* weights;
  const double* means;
  const double* covariances;
  Index covariance_size;
  double score, bic, aic;
  const double* means_5;
  double lower_bound_5;
};

std::vector<IrisReference> iris_references() {
  using enum CovarianceType;
  return {
      {Full, ref::k_full_n_iter, ref::k_full_lower_bound, ref::k_full_weights, ref::k_full_means,
       ref::k_full_covariances, 48, ref::k_full_score, ref::k_full_bic, ref::k_full_aic, ref::k_full_means_5,
       ref::k_full_lower_bound_5},
      {Tied, ref::k_tied_n_iter, ref::k_tied_lower_bound, ref::k_tied_weights, ref::k_tied_means,
       ref::k_tied_covariances, 16, ref::k_tied_score, ref::k_tied_bic, ref::k_tied_aic, ref::k_tied_means_5,
       ref::k_tied_lower_bound_5},
      {Diagonal, ref::k_diagonal_n_iter, ref::k_diagonal_lower_bound, ref::k_diagonal_weights, ref::k_diagonal_means,
       ref::k_diagonal_covariances, 12, ref::k_diagonal_score, ref::k_diagonal_bic, ref::k_diagonal_aic,
       ref::k_diagonal_means_5, ref::k_diagonal_lower_bound_5},
      {Spherical, ref::k_spherical_n_iter, ref::k_spherical_lower_bound, ref::k_spherical_weights,
       ref::k_spherical_means, ref::k_spherical_covariances, 3, ref::k_spherical_score, ref::k_spherical_bic,
       ref::k_spherical_aic, ref::k_spherical_means_5, ref::k_spherical_lower_bound_5},
  };
}

Scalar max_relative_error(const Eigen::Ref<const Vector>& a, const double* b) {
  const Eigen::Map<const Vector> expected(b, a.size());
  return ((a - expected).array().abs() / expected.array().abs().max(1e-300)).maxCoeff();
}

Vector flat(const Tensor& t) { return Eigen::Map<const Vector>(t.data(), t.size()); }

TEST(GaussianMixture, MatchesScikitLearnOnIrisForEveryCovarianceType) {
  // gaussian_mixture_reference.h (scikit-learn 1.2.1, its docstring gives the exact calls): from the
  // means X[[0, 50, 100]] with the nearest-mean weights and covariances, reg_covar 1e-6, tol 1e-3.
  // scikit-learn's n_iter_ T is this loop's T − 1 and its lower_bound_ is ℓ of the parameters kept
  // here; those parameters are scikit-learn's with max_iter = T − 1 (see the reference script).
  const Tensor X = load_dataset("iris").features;
  Tensor m0(3, 4);
  m0 << X.row(0), X.row(50), X.row(100);
  for (const IrisReference& c : iris_references()) {
    SCOPED_TRACE(enum_name(c.type));
    GaussianMixture gm(
        {.num_components = 3, .covariance_type = c.type, .init = MixtureInit::Given, .initial_means = m0});
    gm.fit(X);
    EXPECT_TRUE(gm.converged());
    EXPECT_EQ(gm.fit_result().status, Status::ValueTolerance);
    EXPECT_EQ(gm.num_iter(), c.n_iter - 1);
    EXPECT_NEAR(gm.mean_log_likelihood(), c.lower_bound, 1e-10);
    EXPECT_NEAR(gm.score(X), c.score, 1e-10);
    EXPECT_LT(max_relative_error(gm.weights(), c.weights), 1e-9);
    EXPECT_LT(max_relative_error(flat(gm.means()), c.means), 1e-9);
    ASSERT_EQ(gm.covariances().size(), c.covariance_size);
    EXPECT_LT(max_relative_error(flat(gm.covariances()), c.covariances), 1e-8);
    EXPECT_NEAR(gm.bic(X), c.bic, 1e-8 * std::abs(c.bic));
    EXPECT_NEAR(gm.aic(X), c.aic, 1e-8 * std::abs(c.aic));
    EXPECT_EQ(gm.likelihood_decreases(), 0);
    for (std::size_t t = 1; t < gm.fit_result().history.size(); ++t)
      EXPECT_LE(gm.fit_result().history[t], gm.fit_result().history[t - 1]) << t;
    // A fixed budget: after 5 iterations the means of scikit-learn's max_iter=5, and ℓ after 4
    // iterations its lower_bound_.
    GaussianMixture five({.num_components = 3,
                          .covariance_type = c.type,
                          .init = MixtureInit::Given,
                          .initial_means = m0,
                          .max_iterations = 5,
                          .tolerance = 0});
    five.fit(X);
    EXPECT_FALSE(five.converged());
    EXPECT_EQ(five.num_iter(), 5);
    EXPECT_LT(max_relative_error(flat(five.means()), c.means_5), 1e-9);
    EXPECT_NEAR(-five.fit_result().history[4], c.lower_bound_5, 1e-10);
  }
}

TEST(GaussianMixture, PredictionsAreConsistent) {
  const Tensor X = load_dataset("iris").features;
  GaussianMixture gm({.num_components = 3, .seed = 4});
  gm.fit(X);
  const Tensor P = gm.predict_proba(X);
  EXPECT_LT((P.rowwise().sum().array() - 1).abs().maxCoeff(), 1e-12);
  const Vector labels = gm.predict(X);
  for (Index i = 0; i < X.rows(); ++i) {
    Index best = 0;
    P.row(i).maxCoeff(&best);
    EXPECT_EQ(labels(i), best);
  }
  EXPECT_NEAR(gm.score(X), gm.score_samples(X).mean(), 1e-14);
  EXPECT_NEAR(gm.score(X), gm.mean_log_likelihood(), 1e-12);
  EXPECT_EQ(gm.num_parameters(), 2 + 12 + 30);
  EXPECT_NEAR(gm.bic(X), -2 * 150 * gm.score(X) + 44 * std::log(150.0), 1e-9);
  EXPECT_NEAR(gm.aic(X), -2 * 150 * gm.score(X) + 88, 1e-9);
  EXPECT_EQ(gm.fit_predict(X), labels);
  // The density of one component, directly: log N(x; μ, Σ) for a one-component mixture.
  GaussianMixture single({.num_components = 1});
  single.fit(X);
  const Eigen::MatrixXd S = single.covariance(0);
  const Eigen::LLT<Eigen::MatrixXd> llt(S);
  const Eigen::VectorXd x = X.row(9).transpose() - single.means().row(0).transpose();
  const Scalar direct =
      -0.5 * (4 * std::log(2 * M_PI) + 2 * Eigen::MatrixXd(llt.matrixL()).diagonal().array().log().sum() +
              x.dot(llt.solve(x)));
  EXPECT_NEAR(single.score_samples(X.row(9))(0), direct, 1e-12);
  // One component: the maximum-likelihood Gaussian (1/n covariance) plus reg_covar, in one iteration.
  const Tensor centred = X.rowwise() - X.colwise().mean();
  const Tensor mle = centred.transpose() * centred / 150.0 + 1e-6 * Tensor::Identity(4, 4);
  EXPECT_TRUE(single.covariance(0).isApprox(mle, 1e-12));
}

TEST(GaussianMixture, KMeansStartAndRestarts) {
  const Tensor X = load_dataset("iris").features;
  // No iteration: the parameters are the M-step of the k-means labels, so the means are the centres
  // of restart 0's k-means run (seeded by the first word of derive_seed(seed, 0)) and the weights
  // its cluster shares.
  GaussianMixture start({.num_components = 3, .max_iterations = 0, .seed = 9});
  start.fit(X);
  EXPECT_EQ(start.num_iter(), 0);
  std::mt19937_64 rng(derive_seed(9, 0));
  KMeans km({.num_clusters = 3, .seed = rng()});
  km.fit(X);
  EXPECT_LT((start.means() - km.centers()).cwiseAbs().maxCoeff(), 1e-12);
  for (Index k = 0; k < 3; ++k)
    EXPECT_NEAR(start.weights()(k), (km.labels().array() == static_cast<Scalar>(k)).cast<Scalar>().mean(), 1e-14);
  // More restarts never end lower: restart 0 is the same run.
  for (MixtureInit init : {MixtureInit::KMeans, MixtureInit::Random}) {
    GaussianMixture one({.num_components = 3, .init = init, .seed = 5});
    GaussianMixture many({.num_components = 3, .init = init, .num_init = 4, .seed = 5});
    EXPECT_GE(many.fit(X).mean_log_likelihood(), one.fit(X).mean_log_likelihood());
    EXPECT_EQ(many.likelihood_decreases(), 0);
    EXPECT_EQ(GaussianMixture({.num_components = 3, .init = init, .seed = 5}).fit(X).to_bytes(), one.to_bytes());
  }
}

TEST(GaussianMixture, SampleFollowsTheModel) {
  const Tensor X = load_dataset("iris").features;
  GaussianMixture gm({.num_components = 2, .seed = 1});
  gm.fit(X);
  const MixtureSample s = gm.sample(40000, 7);
  EXPECT_EQ(s.X, gm.sample(40000, 7).X);  // seeded
  // Component frequencies and the mixture mean within about 4 standard errors.
  const Scalar share = (s.labels.array() == 0).cast<Scalar>().mean();
  const Scalar w = gm.weights()(0);
  EXPECT_NEAR(share, w, 4 * std::sqrt(w * (1 - w) / 40000));
  const Vector mixture_mean = gm.means().transpose() * gm.weights();
  Tensor mixture_cov = -mixture_mean * mixture_mean.transpose();
  for (Index k = 0; k < 2; ++k)
    mixture_cov += gm.weights()(k) * (gm.covariance(k) + gm.means().row(k).transpose() * gm.means().row(k));
  const Vector sample_mean = s.X.colwise().mean().transpose();
  const Vector standard_error = (mixture_cov.diagonal() / 40000.0).cwiseSqrt();
  for (Index j = 0; j < 4; ++j) EXPECT_NEAR(sample_mean(j), mixture_mean(j), 4 * standard_error(j)) << j;
  // Within component 1: its covariance.
  std::vector<Index> in;
  for (Index i = 0; i < s.X.rows(); ++i)
    if (s.labels(i) == 1) in.push_back(i);
  Tensor C(static_cast<Index>(in.size()), 4);
  for (std::size_t i = 0; i < in.size(); ++i) C.row(static_cast<Index>(i)) = s.X.row(in[i]);
  const Tensor centred = C.rowwise() - C.colwise().mean();
  const Tensor cov = centred.transpose() * centred / static_cast<Scalar>(C.rows() - 1);
  EXPECT_LT((cov - gm.covariance(1)).cwiseAbs().maxCoeff(), 0.05 * gm.covariance(1).cwiseAbs().maxCoeff());
  EXPECT_THROW(gm.sample(0), ValueError);
}

TEST(GaussianMixture, CallbacksSeeTheNegativeLogLikelihoodAndCanStop) {
  const Tensor X = load_dataset("iris").features;
  HistoryRecorder history;
  Index seen = 0;
  FunctionCallback stop([&](const IterationInfo& info) {
    seen = info.iteration;
    return info.iteration < 3;
  });
  GaussianMixture gm({.num_components = 3, .covariance_type = CovarianceType::Diagonal, .tolerance = 0, .seed = 2});
  gm.fit(X, {&history, &stop});
  EXPECT_EQ(seen, 3);
  EXPECT_EQ(gm.num_iter(), 3);
  EXPECT_EQ(gm.fit_result().status, Status::CallbackStop);
  EXPECT_FALSE(gm.converged());
  ASSERT_EQ(history.values().size(), 4u);
  for (std::size_t t = 0; t < 4; ++t) EXPECT_EQ(history.values()[t], gm.fit_result().history[t]);
  EXPECT_NEAR(history.values().back(), -gm.mean_log_likelihood(), 1e-14);
}

TEST(GaussianMixture, BadInputIsATypedErrorThatNamesTheFix) {
  const Tensor X = load_dataset("iris").features;
  // Fewer distinct points than components.
  Tensor few(12, 2);
  for (Index i = 0; i < 12; ++i) few.row(i) << static_cast<Scalar>(i % 3), 1.0;
  EXPECT_THAT([&] { GaussianMixture({.num_components = 4}).fit(few); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("at least num_components = 4 distinct points, found 3")));
  EXPECT_THAT([&] { GaussianMixture({.num_components = 20}).fit(few); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("at least num_components = 20 samples")));
  // A singular covariance: without reg_covar, a component on a constant feature.
  Tensor flat = X;
  flat.col(3).setConstant(0.2);
  EXPECT_THAT([&] { GaussianMixture({.num_components = 2, .reg_covar = 0}).fit(flat); },
              ::testing::ThrowsMessage<NumericalError>(
                  ::testing::AllOf(HasSubstr("component 0"), HasSubstr("a larger reg_covar (now 0) fixes it"))));
  EXPECT_THAT(
      [&] {
        GaussianMixture({.num_components = 2, .covariance_type = CovarianceType::Tied, .reg_covar = 0}).fit(flat);
      },
      ::testing::ThrowsMessage<NumericalError>(HasSubstr("shared (tied) covariance")));
  EXPECT_NO_THROW(GaussianMixture({.num_components = 2}).fit(flat));  // the default reg_covar fixes it
  Tensor nan = X;
  nan(3, 1) = std::numeric_limits<Scalar>::quiet_NaN();
  EXPECT_THROW(GaussianMixture().fit(nan), ValueError);
  EXPECT_THROW(GaussianMixture({.num_components = 0}), ValueError);
  EXPECT_THROW(GaussianMixture({.reg_covar = -1}), ValueError);
  EXPECT_THROW(GaussianMixture({.tolerance = -1}), ValueError);
  EXPECT_THROW(GaussianMixture({.max_iterations = -1}), ValueError);
  EXPECT_THROW(GaussianMixture({.num_components = 2, .init = MixtureInit::Given}), ValueError);
  EXPECT_THROW(GaussianMixture({.num_components = 1, .initial_means = Tensor::Zero(1, 4)}), ValueError);
  EXPECT_THROW(GaussianMixture({.num_components = 2,
                                .init = MixtureInit::Given,
                                .initial_means = Tensor::Zero(2, 4),
                                .initial_weights = Vector::Constant(2, 0.3)}),
               ValueError);
  EXPECT_THAT(
      [] {
        GaussianMixture({.num_components = 2,
                         .init = MixtureInit::Given,
                         .initial_means = Tensor::Zero(2, 1),
                         .initial_covariances = column({1, -1})});
      },
      ::testing::ThrowsMessage<ValueError>(HasSubstr("component 1")));
  EXPECT_THROW(GaussianMixture({.num_components = 2,
                                .init = MixtureInit::Given,
                                .initial_means = Tensor::Zero(2, 1),
                                .initial_covariances = column({1, 1, 1})}),
               ValueError);
  EXPECT_THROW(
      GaussianMixture({.num_components = 2, .init = MixtureInit::Given, .initial_means = Tensor::Zero(2, 3)}).fit(X),
      ShapeError);
  GaussianMixture gm;
  EXPECT_THROW(gm.predict(X), NotFittedError);
  EXPECT_THROW(gm.sample(3), NotFittedError);
}

TEST(GaussianMixture, SaveLoadRoundTrip) {
  const Tensor X = load_dataset("iris").features;
  for (CovarianceType type : kTypes) {
    GaussianMixture gm({.num_components = 3, .covariance_type = type, .seed = 3});
    gm.fit(X);
    const std::string path = (std::filesystem::temp_directory_path() / "dagml_test_gmm.model").string();
    gm.save(path);
    const GaussianMixture back = GaussianMixture::load(path);
    std::filesystem::remove(path);
    EXPECT_EQ(back.predict_proba(X), gm.predict_proba(X));
    EXPECT_EQ(back.score_samples(X), gm.score_samples(X));
    EXPECT_EQ(back.sample(5, 1).X, gm.sample(5, 1).X);
    EXPECT_EQ(back.num_iter(), gm.num_iter());
    EXPECT_EQ(back.mean_log_likelihood(), gm.mean_log_likelihood());
    EXPECT_EQ(back.to_bytes(), gm.to_bytes());
  }
}

}  // namespace
}  // namespace dagml
