// Matching pursuit and OMP: exact recovery of a sparse w, the residual properties of notes 000
// §2.6, scikit-learn's OMP on standardised diabetes, errors and save/load.
#include <gtest/gtest.h>

#include <Eigen/QR>
#include <algorithm>
#include <filesystem>

#include "models/linear/matching_pursuit.h"
#include "models/linear/regression_data.h"

namespace dagml {
namespace {

using testing::gaussian_matrix;
using testing::gaussian_vector;
using testing::vec;

TEST(MatchingPursuit, OmpRecoversASparseVector) {
  const Tensor X = gaussian_matrix(50, 12, 1);
  Vector w = Vector::Zero(12);
  w(2) = 3;
  w(7) = -2;
  w(10) = 1;
  const Vector y = (X * w).array() + 4;
  MatchingPursuit omp({.num_nonzero = 3});
  omp.fit(X, y);
  EXPECT_TRUE(omp.coef().isApprox(w, 1e-10));
  EXPECT_NEAR(omp.intercept(), 4, 1e-10);
  std::vector<Index> support = omp.support();
  std::sort(support.begin(), support.end());
  EXPECT_EQ(support, (std::vector<Index>{2, 7, 10}));
}

TEST(MatchingPursuit, OmpResidualIsOrthogonalToTheSupport) {
  const Tensor X = gaussian_matrix(40, 8, 2);
  const Vector y = gaussian_vector(40, 3);
  MatchingPursuit omp({.num_nonzero = 4, .fit_intercept = false});
  omp.fit(X, y);
  const Vector r = y - omp.predict(X);
  for (Index j : omp.support()) EXPECT_NEAR(X.col(j).dot(r), 0, 1e-10) << j;
  EXPECT_EQ(omp.support().size(), 4u);
  EXPECT_EQ((omp.coef().array() != 0).count(), 4);
  const auto& h = omp.residual_history();
  for (std::size_t t = 1; t < h.size(); ++t) EXPECT_LE(h[t], h[t - 1]);
}

TEST(MatchingPursuit, PlainMpResidualNeverGrows) {
  const Tensor X = gaussian_matrix(30, 6, 4);
  const Vector y = gaussian_vector(30, 5);
  MatchingPursuit mp({.num_nonzero = 5, .orthogonal = false, .fit_intercept = false});
  mp.fit(X, y);
  const auto& h = mp.residual_history();
  ASSERT_GE(h.size(), 6u);
  for (std::size_t t = 1; t < h.size(); ++t) EXPECT_LE(h[t], h[t - 1] * (1 + 1e-14));
  EXPECT_LE(mp.support().size(), 5u);
  EXPECT_NEAR((y - mp.predict(X)).squaredNorm(), h.back(), 1e-10);
  // The first step is the one-column least-squares fit of the best column.
  MatchingPursuit one({.num_nonzero = 1, .orthogonal = false, .fit_intercept = false});
  one.fit(X, y);
  const Index i = one.support()[0];
  EXPECT_NEAR(one.coef()(i), X.col(i).dot(y) / X.col(i).squaredNorm(), 1e-12);
  // With orthogonal columns MP and OMP coincide.
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr{Eigen::MatrixXd(X)};
  const Tensor Q = Eigen::MatrixXd(qr.householderQ()).leftCols(6);
  MatchingPursuit mp3({.num_nonzero = 3, .orthogonal = false, .fit_intercept = false});
  MatchingPursuit omp3({.num_nonzero = 3, .fit_intercept = false});
  mp3.fit(Q, y);
  omp3.fit(Q, y);
  EXPECT_TRUE(mp3.coef().isApprox(omp3.coef(), 1e-12));
}

TEST(MatchingPursuit, MatchesScikitLearnOmpOnDiabetes) {
  // scikit-learn 1.2.1: OrthogonalMatchingPursuit(n_nonzero_coefs=3).fit(Z, y) with
  // Z = StandardScaler().fit_transform(X) (equal column norms, so scikit-learn's unnormalised
  // selection rule picks the same columns as the notes' normalised one).
  const auto data = testing::load_diabetes();
  MatchingPursuit omp({.num_nonzero = 3});
  omp.fit(data.Z, data.y);
  const Vector expected = vec({0, 0, 28.685512179469505, 12.475007001083021, 0, 0, 0, 0, 25.869315169277588, 0});
  for (Index j = 0; j < 10; ++j) EXPECT_NEAR(omp.coef()(j), expected(j), 1e-9) << j;
  EXPECT_NEAR(omp.intercept(), 152.13348416289602, 1e-9);
  EXPECT_EQ(omp.support(), (std::vector<Index>{2, 8, 3}));
}

TEST(MatchingPursuit, BadInputIsAClearError) {
  EXPECT_THROW(MatchingPursuit({.num_nonzero = 0}), ValueError);
  EXPECT_THROW(MatchingPursuit({.max_iterations = 0}), ValueError);
  MatchingPursuit omp({.num_nonzero = 5});
  EXPECT_THROW(omp.fit(gaussian_matrix(10, 3, 1), gaussian_vector(10, 2)), ValueError);  // k > d
  EXPECT_THROW(omp.support(), NotFittedError);
}

TEST(MatchingPursuit, SaveLoadRoundTrip) {
  const Tensor X = gaussian_matrix(20, 5, 5);
  MatchingPursuit omp({.num_nonzero = 2});
  omp.fit(X, gaussian_vector(20, 6));
  const auto path = std::filesystem::temp_directory_path() / "dagml_omp_test.model";
  omp.save(path.string());
  const auto back = MatchingPursuit::load(path.string());
  EXPECT_EQ(back.predict(X), omp.predict(X));
  EXPECT_EQ(back.support(), omp.support());
  EXPECT_EQ(back.residual_history(), omp.residual_history());
  EXPECT_EQ(back.options().num_nonzero, 2);
  EXPECT_EQ(back.to_bytes(), omp.to_bytes());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace dagml
