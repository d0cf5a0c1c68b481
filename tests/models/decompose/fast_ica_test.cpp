// Tests for FastICA: scikit-learn 1.2.1's parallel FastICA from the same initial unmixing
// (fast_ica_reference.py: iris and a synthetic mixture, the logcosh, exp and cube contrasts),
// recovery of seeded and deterministic sources up to sign and order, unit-variance sources, the
// truthful convergence flag, bad input and model files.
#include "models/decompose/fast_ica.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "fast_ica_reference.h"
#include "graph/error.h"
#include "literals.h"
#include "relative_gap.h"
#include "models/data/datasets.h"

namespace dagml {
namespace {

namespace ica_ref = fast_ica_reference;
using ::testing::HasSubstr;
using testing::kNaN;
using testing::max_relative_gap;
using testing::reference_rows;

// The noiseless mixture of fast_ica_reference.py: n = 1000 points of three deterministic sources.
struct IcaMixture {
  Tensor X, S;
};
IcaMixture ica_mixture() {
  const Index n = 1000;
  IcaMixture m{Tensor(n, 3), Tensor(n, 3)};
  for (Index i = 0; i < n; ++i) {
    const Scalar t = 40.0 * static_cast<Scalar>(i) / static_cast<Scalar>(n - 1);
    const Scalar square = std::sin(3 * t);
    m.S.row(i) << std::sin(2 * t), square > 0 ? 1.0 : (square < 0 ? -1.0 : 0.0), 2 * std::fmod(t, 1.3) / 1.3 - 1;
  }
  const Tensor A = testing::rows({{1, 1, 1}, {0.5, 2, 1}, {1.5, 1, 2}});
  m.X = m.S * A.transpose();
  return m;
}

// For each true source (column of S), the largest |correlation| with a recovered one.
Vector best_abs_correlations(const Tensor& recovered, const Tensor& S) {
  const auto standardise = [](const Tensor& M) {
    Tensor C = M.rowwise() - M.colwise().mean();
    C.array().rowwise() /= C.colwise().norm().array();
    return C;
  };
  const Tensor corr = standardise(S).transpose() * standardise(recovered);
  return corr.cwiseAbs().rowwise().maxCoeff();
}

struct IcaReferenceCase {
  const char* name;
  Tensor X;
  FastICAContrast contrast;
  Tensor initial, components, mixing, sources_head;
  Index num_iter;
};

TEST(FastICA, MatchesScikitLearnFromTheSameStart) {
  // fast_ica_reference.h: FastICA(n_components=3, algorithm='parallel', whiten='unit-variance',
  // fun=…, w_init=W0), scikit-learn 1.2.1; dagml starts from W0 D (the same start in its whitening).
  const Tensor iris = load_dataset("iris").features;
  const Tensor mixture = ica_mixture().X;
  const IcaReferenceCase cases[] = {
      {"iris logcosh", iris, FastICAContrast::LogCosh, reference_rows(ica_ref::k_iris_initial_unmixing, 3),
       reference_rows(ica_ref::k_iris_components, 3), reference_rows(ica_ref::k_iris_mixing, 4),
       reference_rows(ica_ref::k_iris_sources_head, 3), ica_ref::k_iris_num_iter},
      {"mixture logcosh", mixture, FastICAContrast::LogCosh, reference_rows(ica_ref::k_mixture_initial_unmixing, 3),
       reference_rows(ica_ref::k_mixture_components, 3), reference_rows(ica_ref::k_mixture_mixing, 3),
       reference_rows(ica_ref::k_mixture_sources_head, 3), ica_ref::k_mixture_num_iter},
      {"mixture exp", mixture, FastICAContrast::Exp, reference_rows(ica_ref::k_mixture_exp_initial_unmixing, 3),
       reference_rows(ica_ref::k_mixture_exp_components, 3), reference_rows(ica_ref::k_mixture_exp_mixing, 3),
       reference_rows(ica_ref::k_mixture_exp_sources_head, 3), ica_ref::k_mixture_exp_num_iter},
      {"mixture cube", mixture, FastICAContrast::Cube, reference_rows(ica_ref::k_mixture_cube_initial_unmixing, 3),
       reference_rows(ica_ref::k_mixture_cube_components, 3), reference_rows(ica_ref::k_mixture_cube_mixing, 3),
       reference_rows(ica_ref::k_mixture_cube_sources_head, 3), ica_ref::k_mixture_cube_num_iter},
  };
  for (const IcaReferenceCase& c : cases) {
    SCOPED_TRACE(c.name);
    FastICA ica({.num_components = 3, .contrast = c.contrast, .initial_unmixing = c.initial});
    const Tensor sources = ica.fit_transform(c.X);
    EXPECT_EQ(ica.num_iter(), c.num_iter);
    EXPECT_TRUE(ica.converged());
    EXPECT_EQ(ica.fit_result().status, Status::StepTolerance);
    EXPECT_LT(max_relative_gap(ica.components(), c.components), 1e-7) << ica.components();
    EXPECT_LT(max_relative_gap(ica.mixing(), c.mixing), 1e-7) << ica.mixing();
    EXPECT_LT(max_relative_gap(Tensor(sources.topRows(3)), c.sources_head), 1e-7) << sources.topRows(3);
    // The whitening has dagml's signs (largest-magnitude entry of each row positive).
    for (Index j = 0; j < 3; ++j) {
      Index top = 0;
      ica.whitening().row(j).cwiseAbs().maxCoeff(&top);
      EXPECT_GT(ica.whitening()(j, top), 0);
    }
  }
}

TEST(FastICA, RecoversTheSourcesOfANoiselessMixture) {
  // Up to order and sign; scikit-learn's run from its W0 reaches the same |correlations|
  // (fast_ica_reference.h). Here W₀ comes from dagml's seed. The sources have unit variance and
  // are uncorrelated, and with k = d the mixing inverts the transform exactly.
  const IcaMixture m = ica_mixture();
  for (const FastICAContrast contrast : {FastICAContrast::LogCosh, FastICAContrast::Exp, FastICAContrast::Cube}) {
    SCOPED_TRACE(enum_name(contrast));
    FastICA ica({.contrast = contrast, .seed = 7});
    const Tensor sources = ica.fit_transform(m.X);
    ASSERT_EQ(ica.num_components(), 3);
    EXPECT_TRUE(ica.converged());
    EXPECT_GT(best_abs_correlations(sources, m.S).minCoeff(), 0.9999) << best_abs_correlations(sources, m.S);
    const Tensor covariance = sources.transpose() * sources / static_cast<Scalar>(sources.rows());
    EXPECT_LT((covariance - Tensor::Identity(3, 3)).cwiseAbs().maxCoeff(), 1e-10) << covariance;
    EXPECT_LT((ica.inverse_transform(sources) - m.X).cwiseAbs().maxCoeff(), 1e-10);
    EXPECT_LT((ica.components() * ica.mixing() - Tensor::Identity(3, 3)).cwiseAbs().maxCoeff(), 1e-10);
  }
  const Vector sklearn_recovery = Eigen::Map<const Vector>(ica_ref::k_mixture_best_abs_correlation, 3);
  EXPECT_GT(sklearn_recovery.minCoeff(), 0.9999);
}

TEST(FastICA, RecoversSeededNonGaussianSources) {
  // Laplace, uniform, two-point and Gaussian sources (n = 4000, seeded) mixed by a fixed 4×4
  // matrix: with at most one Gaussian source, all four are identifiable.
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<Scalar> uniform(-1, 1);
  std::exponential_distribution<Scalar> exponential(1);
  std::normal_distribution<Scalar> normal;
  const Index n = 4000;
  Tensor S(n, 4);
  for (Index i = 0; i < n; ++i) {
    S(i, 0) = (uniform(rng) > 0 ? 1 : -1) * exponential(rng);  // Laplace
    S(i, 1) = uniform(rng);
    S(i, 2) = uniform(rng) > 0 ? 1 : -1;
    S(i, 3) = normal(rng);
  }
  const Tensor A = testing::rows({{1, 0.5, 0, 2}, {0.3, 1, 1, 0}, {0, -1, 2, 0.5}, {1, 1, 1, 1}});
  const Tensor X = S * A.transpose();
  FastICA ica({.seed = 3});
  const Tensor recovered = ica.fit_transform(X);
  EXPECT_TRUE(ica.converged());
  EXPECT_GT(best_abs_correlations(recovered, S).minCoeff(), 0.99) << best_abs_correlations(recovered, S);
  // The same seed, the same model.
  EXPECT_EQ(FastICA({.seed = 3}).fit(X).to_bytes(), ica.to_bytes());
}

TEST(FastICA, ConvergedIsTruthful) {
  const Tensor X = load_dataset("iris").features;
  FastICA short_run({.max_iterations = 2, .tolerance = 1e-12, .seed = 1});
  short_run.fit(X);
  EXPECT_FALSE(short_run.converged());
  EXPECT_EQ(short_run.num_iter(), 2);
  EXPECT_EQ(short_run.fit_result().status, Status::MaxIterations);
  FastICA full({.max_iterations = 1000, .tolerance = 1e-10, .seed = 1});
  full.fit(X);
  EXPECT_TRUE(full.converged());
  EXPECT_LT(full.num_iter(), 1000);
  EXPECT_THAT(full.fit_result().message, HasSubstr("tolerance"));
  // The contrast history has one entry per iteration after the start.
  EXPECT_EQ(static_cast<Index>(full.fit_result().history.size()), full.num_iter() + 1);
}

TEST(FastICA, BadInputGivesClearErrors) {
  const Tensor iris = load_dataset("iris").features;
  EXPECT_THAT([] { FastICA({.num_components = -1}); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("≥ 0")));
  EXPECT_THAT([] { FastICA({.alpha = 0.5}); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("alpha in [1, 2]")));
  EXPECT_THAT([] { FastICA({.max_iterations = 0}); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("≥ 1")));
  EXPECT_THAT([] { FastICA({.tolerance = 0}); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("tolerance > 0")));
  EXPECT_THAT([] { FastICA({.initial_unmixing = Tensor::Ones(2, 3)}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("square initial_unmixing")));
  EXPECT_THAT([] { FastICA({.num_components = 3, .initial_unmixing = Tensor::Identity(2, 2)}); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("initial_unmixing 3×3")));
  // A duplicated column: rank 2 of 3.
  Tensor X(150, 3);
  X << iris.leftCols(2), iris.col(0);
  EXPECT_THAT([&] { FastICA({.num_components = 3}).fit(X); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("rank of the centred data, 2, found 3")));
  EXPECT_EQ(FastICA().fit(X).num_components(), 2);
  EXPECT_THAT([&] { FastICA({.initial_unmixing = Tensor::Identity(3, 3)}).fit(iris.leftCols(2)); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("rank of the centred data, 2, found 3")));
  Tensor bad = iris;
  bad(3, 2) = kNaN;
  EXPECT_THROW(FastICA().fit(bad), ValueError);
  EXPECT_THROW(FastICA().fit(iris.topRows(1)), ValueError);
  EXPECT_THROW(FastICA().fit(Tensor::Ones(5, 2)), ValueError);
  FastICA ica({.num_components = 2});
  EXPECT_THROW(ica.transform(iris), NotFittedError);
  EXPECT_THROW(ica.inverse_transform(Tensor::Zero(2, 2)), NotFittedError);
  ica.fit(iris);
  EXPECT_THROW(ica.transform(iris.leftCols(3)), ShapeError);
  EXPECT_THROW(ica.inverse_transform(Tensor::Zero(2, 3)), ShapeError);
  EXPECT_THROW(ica.inverse_transform(testing::rows({{1, kNaN}})), ValueError);
}

TEST(FastICA, SaveAndLoadKeepTheModel) {
  const Tensor X = ica_mixture().X;
  FastICA ica({.contrast = FastICAContrast::Exp, .seed = 5});
  ica.fit(X);
  const std::string path = (std::filesystem::temp_directory_path() / "dagml_fast_ica_test.dagml").string();
  ica.save(path);
  const FastICA back = FastICA::load(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.to_bytes(), ica.to_bytes());
  EXPECT_EQ(back.transform(X), ica.transform(X));
  EXPECT_EQ(back.inverse_transform(ica.transform(X)), ica.inverse_transform(ica.transform(X)));
  EXPECT_EQ(back.num_iter(), ica.num_iter());
  EXPECT_EQ(back.converged(), ica.converged());
}

}  // namespace
}  // namespace dagml
