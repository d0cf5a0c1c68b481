// Nyström features: the notes' worked example (notes 004, x = [0, 1, 2], z = {0}), the exact Gram
// matrix when every training row is a landmark, scikit-learn 1.2.1's Nystroem on the same
// landmark rows (kernel_approximation_reference.py), the random landmark subset, errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "graph/error.h"
#include "kernel_approximation_reference.h"
#include "models/data/datasets.h"
#include "models/kernel/kernel_algebra.h"
#include "models/kernel/nystroem.h"
#include "models/kernel/stationary_kernels.h"

namespace dagml {
namespace {

namespace ref = kernel_approximation_reference;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

Tensor nystroem_line_points() { return Tensor{{0.0}, {1.0}, {2.0}}; }

TEST(Nystroem, NotesWorkedExampleOneLandmark) {
  // x = [0, 1, 2], z = {0}, RBF exp(−‖x − z‖²/2): Q = k_x / √k(0, 0) = k_x and K̃ = k_x k_xᵀ with
  // k_x = (1, e^{−1/2}, e^{−2}) = (1, 0.6065306597, 0.1353352832) (notes 004 worked numbers).
  Nystroem nystroem({.kernel = std::make_shared<RbfKernel>(0.5), .num_components = 1, .landmark_rows = {0}});
  const Tensor Q = nystroem.fit_transform(nystroem_line_points());
  ASSERT_EQ(Q.rows(), 3);
  ASSERT_EQ(Q.cols(), 1);
  EXPECT_NEAR(Q(0, 0), 1, 1e-12);
  EXPECT_NEAR(Q(1, 0), 0.6065306597, 1e-10);
  EXPECT_NEAR(Q(2, 0), 0.1353352832, 1e-10);
  const Tensor K_approx = Q * Q.transpose();
  EXPECT_NEAR(K_approx(1, 2), 0.6065306597 * 0.1353352832, 1e-10);
  EXPECT_EQ(nystroem.landmark_indices(), std::vector<Index>{0});
}

TEST(Nystroem, EveryRowALandmarkReproducesTheGramMatrix) {
  // m = n: K K⁻¹ K = K, whatever the kernel and the landmark order.
  const Tensor X = load_dataset("wine").features.topRows(60);
  Tensor scaled = X;
  for (Index j = 0; j < X.cols(); ++j) {
    const Scalar mean = X.col(j).mean();
    const Scalar sd = std::sqrt((X.col(j).array() - mean).square().mean());
    scaled.col(j) = (X.col(j).array() - mean) / sd;
  }
  const KernelPtr kernels[] = {
      std::make_shared<RbfKernel>(0.05), std::make_shared<MaternKernel>(1.5, 3.0),
      constant(2.0) * std::make_shared<MaternKernel>(0.5, 4.0) + std::make_shared<PolynomialKernel>(2, 0.1)};
  for (const KernelPtr& kernel : kernels) {
    SCOPED_TRACE(kernel->name());
    Nystroem nystroem({.kernel = kernel, .num_components = 60, .seed = 2});
    const Tensor Q = nystroem.fit_transform(scaled);
    const Tensor K = kernel->gram(scaled);
    EXPECT_LT((Q * Q.transpose() - K).cwiseAbs().maxCoeff(), 1e-8 * K.cwiseAbs().maxCoeff());
  }
}

TEST(Nystroem, MatchesScikitLearnOnTheSameLandmarks) {
  const Tensor X = load_dataset("iris").features;
  std::vector<Index> rows;
  for (Index r = 0; r < 150; r += 15) rows.push_back(r);
  const KernelPtr kernel = std::make_shared<RbfKernel>(0.2);
  Nystroem nystroem({.kernel = kernel, .num_components = 10, .landmark_rows = rows});
  const Tensor Q = nystroem.fit_transform(X);
  ASSERT_EQ(Q.rows(), 150);
  ASSERT_EQ(Q.cols(), 10);
  for (Index j = 0; j < 10; ++j) {
    EXPECT_NEAR(Q(0, j), ref::nystroem_features_row_0[j], 1e-9) << j;
    EXPECT_NEAR(Q(75, j), ref::nystroem_features_row_75[j], 1e-9) << j;
    EXPECT_NEAR(Q(149, j), ref::nystroem_features_row_149[j], 1e-9) << j;
  }
  EXPECT_NEAR(Q.norm(), ref::nystroem_features_norm, 1e-9);
  const Tensor K = kernel->gram(X);
  EXPECT_NEAR((K - Q * Q.transpose()).norm() / K.norm(), ref::nystroem_relative_error, 1e-9);
  EXPECT_EQ(nystroem.landmarks().row(3), X.row(45));
}

TEST(Nystroem, RandomLandmarksAreDistinctTrainingRowsFixedByTheSeed) {
  const Tensor X = load_dataset("iris").features;
  Nystroem a({.kernel = std::make_shared<RbfKernel>(0.2), .num_components = 30, .seed = 4});
  a.fit(X);
  const auto& indices = a.landmark_indices();
  ASSERT_EQ(indices.size(), 30u);
  EXPECT_EQ(std::set<Index>(indices.begin(), indices.end()).size(), 30u);
  for (std::size_t j = 0; j < indices.size(); ++j) {
    ASSERT_GE(indices[j], 0);
    ASSERT_LT(indices[j], 150);
    EXPECT_EQ(a.landmarks().row(static_cast<Index>(j)), X.row(indices[j]));
  }
  Nystroem b({.kernel = std::make_shared<RbfKernel>(0.2), .num_components = 30, .seed = 4});
  b.fit(X);
  EXPECT_EQ(b.landmark_indices(), indices);
  Nystroem c({.kernel = std::make_shared<RbfKernel>(0.2), .num_components = 30, .seed = 5});
  c.fit(X);
  EXPECT_NE(c.landmark_indices(), indices);
  // More landmarks, a better approximation (K̃ ≼ K; the residual shrinks as Z grows).
  const Tensor K = std::make_shared<RbfKernel>(0.2)->gram(X);
  const Tensor Q = a.transform(X);
  const Tensor Q_all = Nystroem({.kernel = std::make_shared<RbfKernel>(0.2), .num_components = 150}).fit_transform(X);
  EXPECT_LT((K - Q_all * Q_all.transpose()).norm(), 1e-8 * K.norm());
  EXPECT_LT((K - Q * Q.transpose()).norm(), 0.05 * K.norm());
}

TEST(Nystroem, DuplicateLandmarksStayFinite) {
  // A singular K_zz: the eigenvalue floor (Note [Nyström inverse square root]) keeps the features
  // finite, and K̃ still equals K on the rows.
  const Tensor X{{0.0, 1.0}, {0.0, 1.0}, {1.0, 0.0}};
  Nystroem nystroem({.kernel = std::make_shared<RbfKernel>(1.0), .num_components = 3});
  const Tensor Q = nystroem.fit_transform(X);
  EXPECT_TRUE(Q.allFinite());
  EXPECT_LT((Q * Q.transpose() - std::make_shared<RbfKernel>(1.0)->gram(X)).cwiseAbs().maxCoeff(), 1e-8);
}

TEST(Nystroem, RejectsBadOptionsAndInput) {
  EXPECT_THAT([] { Nystroem({.num_components = 0}); },
              ThrowsMessage<ValueError>(HasSubstr("expected num_components ≥ 1, found 0")));
  EXPECT_THAT([] { Nystroem({.kernel = nullptr}); }, ThrowsMessage<ValueError>(HasSubstr("null")));
  EXPECT_THAT(
      [] {
        Nystroem({.num_components = 2, .landmark_rows = {1, 2, 3}});
      },
      ThrowsMessage<ValueError>(HasSubstr("expected num_components = 3 (the number of landmark_rows), found 2")));
  EXPECT_THAT(
      [] {
        Nystroem({.num_components = 2, .landmark_rows = {1, 1}});
      },
      ThrowsMessage<ValueError>(HasSubstr("distinct")));
  EXPECT_THAT([] { Nystroem({.num_components = 1, .landmark_rows = {-1}}); },
              ThrowsMessage<ValueError>(HasSubstr("landmark_rows ≥ 0")));
  Nystroem too_many({.num_components = 5});
  EXPECT_THAT([&] { too_many.fit(Tensor::Ones(4, 2)); },
              ThrowsMessage<ValueError>(HasSubstr("expected num_components ≤ n = 4")));
  Nystroem out_of_range({.num_components = 1, .landmark_rows = {4}});
  EXPECT_THAT([&] { out_of_range.fit(Tensor::Ones(4, 2)); }, ThrowsMessage<ValueError>(HasSubstr("below n = 4")));
  Nystroem nystroem({.num_components = 2});
  EXPECT_THROW(nystroem.transform(Tensor::Zero(2, 3)), NotFittedError);
  Tensor X = Tensor::Random(5, 3);
  X(2, 1) = std::nan("");
  EXPECT_THROW(nystroem.fit(X), ValueError);
  nystroem.fit(Tensor::Random(5, 3));
  EXPECT_THROW(nystroem.transform(Tensor::Ones(2, 4)), ShapeError);
  Tensor Y = Tensor::Ones(2, 3);
  Y(1, 0) = std::nan("");
  EXPECT_THROW(nystroem.transform(Y), ValueError);
}

}  // namespace
}  // namespace dagml
