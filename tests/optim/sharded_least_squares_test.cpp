// ShardedGraphObjective::least_squares under the in-process backend (Note [Sharded least
// squares]): the compressed residual system against the full one, every NIST StRD run solved by
// Levenberg–Marquardt on data spread over ranks, and fits bitwise the same for 1, 2, 3 ranks × 1,
// 2 threads.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "distributed/launch.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "distributed/sharded_nist.h"
#include "optim/graph_objective.h"

namespace dagml {
namespace {

using testing::LeastSquaresSolver;

TEST(ShardedLeastSquares, HasTheNormAndNormalEquationsOfTheFullSystem) {
  // Hahn1: 236 rows, 7 parameters, Jacobian columns from 1 to 1e10 (x up to 900, x³ terms).
  const NistProblem p = load_nist_problem("Hahn1");
  const Vector b0 = p.starts[0];
  Graph g;
  const Var b = g.parameter("b", b0);
  auto full = GraphObjective::least_squares(nist_model(p.name, b, g.constant(p.x)) - g.constant(p.y), {b});
  Vector r;
  Tensor J;
  full->residuals(b0, r, &J);
  const Tensor JtJ = J.transpose() * J;
  const Vector Jtr = J.transpose() * r;
  run_in_process(3, [&](Communicator& comm) {
    const ChunkLayout layout(p.x.rows(), 7, comm.size());
    testing::ShardedNistGraph sharded(p, b0, layout.rank_rows(comm.rank()));
    auto objective = sharded.objective(comm, layout);
    ASSERT_TRUE(objective->has_residuals());
    Vector r_small, gradient;
    Tensor J_small;
    objective->residuals(b0, r_small, &J_small);
    ASSERT_EQ(r_small.size(), 8);  // p + 1 rows, whatever the 236 residuals
    ASSERT_EQ(J_small.rows(), 8);
    ASSERT_EQ(J_small.cols(), 7);
    EXPECT_NEAR(r_small.norm(), r.norm(), 1e-12 * r.norm());
    EXPECT_TRUE((J_small.transpose() * J_small).isApprox(JtJ, 1e-12));
    EXPECT_TRUE((J_small.transpose() * r_small).isApprox(Jtr, 1e-11));
    for (Index j = 0; j < 7; ++j) EXPECT_NEAR(J_small.col(j).norm(), J.col(j).norm(), 1e-12 * J.col(j).norm());
    // f = Σ_c ½‖r_c‖² and its gradient Σ_c J_cᵀ r_c, each chunk with weight 1.
    EXPECT_NEAR(objective->value_and_gradient(b0, gradient), 0.5 * r.squaredNorm(), 1e-12 * r.squaredNorm());
    EXPECT_TRUE(gradient.isApprox(Jtr, 1e-12));
  });
}

// The NIST problems whose data spread over 2 ranks in 4 chunks (BoxBOD's 6 rows included): the
// default Levenberg–Marquardt on the rotated system solves every run as it does on the full one
// (tests/optim/nist_test.cpp), to a log relative error ≥ 4 of NIST's certified values.
TEST(ShardedLeastSquares, LevenbergMarquardtSolvesEveryNistRunOnTwoRanks) {
  for (const std::string& name : nist_problem_names()) {
    const NistProblem p = load_nist_problem(name);
    for (int start = 0; start < 2; ++start) {
      SCOPED_TRACE(::testing::Message() << name << " start " << start + 1);
      std::vector<Result> fits(2);
      run_in_process(2, [&](Communicator& comm) {
        fits[static_cast<std::size_t>(comm.rank())] =
            testing::fit_sharded_nist(comm, p, p.starts[static_cast<std::size_t>(start)], 4,
                                      LeastSquaresSolver::LevenbergMarquardt);
      });
      EXPECT_TRUE(fits[0].converged()) << fits[0].message;
      EXPECT_GE(log_relative_error(fits[0].x, p.certified), 4) << fits[0].x.transpose();
      EXPECT_LE(2 * fits[0].value, p.certified_rss * (1 + 1e-6));
      EXPECT_EQ(bitwise_checksum(fits[1].x), bitwise_checksum(fits[0].x));
    }
  }
}

TEST(ShardedLeastSquares, FitsAreBitwiseEqualForAnyRanksAndThreads) {
  const std::vector<std::pair<int, int>> ranks_by_threads = {{1, 2}, {2, 1}, {2, 2}, {3, 1}, {3, 2}};
  // Gauss1 (250 rows) by Gauss–Newton from start 2; Hahn1 (236 rows) by Levenberg–Marquardt from start 1.
  for (const auto& [name, start, solver] :
       {std::tuple{"Gauss1", 1, LeastSquaresSolver::GaussNewton}, std::tuple{"Hahn1", 0, LeastSquaresSolver::LevenbergMarquardt}}) {
    const NistProblem p = load_nist_problem(name);
    const Vector& b0 = p.starts[static_cast<std::size_t>(start)];
    SingleProcessCommunicator single;
    const Result reference = testing::fit_sharded_nist(single, p, b0, 9, solver);
    EXPECT_TRUE(reference.converged()) << name << ": " << reference.message;
    EXPECT_GE(log_relative_error(reference.x, p.certified), 6) << name;
    for (const auto& [ranks, threads] : ranks_by_threads) {
      std::vector<Result> fits(static_cast<std::size_t>(ranks));
      run_in_process(ranks,
                     // solver copied into the lambda: Clang 14 cannot capture a structured binding.
                     [&, solver = solver](Communicator& comm) {
                       fits[static_cast<std::size_t>(comm.rank())] = testing::fit_sharded_nist(comm, p, b0, 9, solver);
                     },
                     {.threads_per_rank = threads});
      for (int r = 0; r < ranks; ++r) {
        SCOPED_TRACE(::testing::Message() << name << ", " << ranks << " ranks × " << threads << " threads, rank " << r);
        const Result& fit = fits[static_cast<std::size_t>(r)];
        EXPECT_EQ(bitwise_checksum(fit.x), bitwise_checksum(reference.x));
        EXPECT_EQ(fit.value, reference.value);
        EXPECT_EQ(fit.iterations, reference.iterations);
      }
    }
  }
}

TEST(ShardedLeastSquares, RefusesWhatTheRotatedSystemCannotGive) {
  const NistProblem p = load_nist_problem("Misra1a");
  SingleProcessCommunicator single;
  const ChunkLayout layout(p.x.rows(), 3, 1);
  testing::ShardedNistGraph sharded(p, p.starts[0], layout.rank_rows(0));
  auto objective = sharded.objective(single, layout);
  Vector r;
  EXPECT_THROW(objective->residuals(p.starts[0], r, nullptr), ValueError);
  // Geodesic acceleration compares residuals at two points.
  EXPECT_THROW(minimize(*objective, p.starts[0], LevenbergMarquardtOptions{.geodesic_acceleration = true}), ValueError);
  // A mean loss has no residuals.
  Graph g;
  const Var x = g.input("x", sharded.x_mine), w = g.parameter("w", Tensor::Ones(1, 1));
  ShardedGraphObjective mean_loss(single, sum(matmul(x, w)), {w}, {.data = {{x, sharded.x_mine}}, .layout = layout});
  EXPECT_FALSE(mean_loss.has_residuals());
  Tensor J;
  EXPECT_THROW(mean_loss.residuals(Vector::Ones(1), r, &J), ValueError);
}

}  // namespace
}  // namespace dagml
