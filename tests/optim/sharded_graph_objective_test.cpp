// ShardedGraphObjective under the in-process backend: the full-data values, and fits that are
// bitwise the same for 1, 2, 3 ranks × 1, 2 threads (Note [Sharded graph objective]).
#include "optim/sharded_graph_objective.h"

#include <gtest/gtest.h>

#include <vector>

#include "distributed/launch.h"
#include "distributed/sharded_logistic.h"

namespace dagml {
namespace {

using testing::LogisticSolver;

const std::vector<std::pair<int, int>> kShardedRanksByThreads = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 1}, {3, 2}};

// The same loss over all rows with the plain GraphObjective: the independent reference.
struct FullLogistic {
  Graph g;
  Var w, b, loss;
  std::unique_ptr<GraphObjective> objective;
  explicit FullLogistic(const testing::LogisticData& data, Scalar l2 = 1e-2) {
    const Var X = g.input("X", data.X), y = g.input("y", data.y);
    w = g.parameter("w", Tensor::Zero(data.X.cols(), 1));
    b = g.parameter("b", Tensor::Zero(1, 1));
    loss = binary_cross_entropy_with_logits(matmul(X, w) + b, y) + scale(squared_l2_norm(w), 0.5 * l2);
    objective = std::make_unique<GraphObjective>(loss, std::vector<Var>{w, b});
  }
};

TEST(ShardedGraphObjective, MatchesTheFullDataObjective) {
  const auto data = testing::synthetic_logistic_data(301, 4, 5);
  FullLogistic full(data);
  const Vector x = (Vector(5) << 0.3, -0.2, 0.05, 0.01, -0.4).finished(), v = Vector::LinSpaced(5, -1, 1);
  Vector g_full, hv_full;
  Tensor H_full;
  const Scalar f_full = full.objective->value_gradient_and_hessian(x, g_full, H_full);
  full.objective->hessian_vector_product(x, v, hv_full);
  run_in_process(3, [&](Communicator& comm) {
    const ChunkLayout layout(data.X.rows(), 8, comm.size());
    const IndexRange mine = layout.rank_rows(comm.rank());
    const Tensor X_mine = data.X.middleRows(mine.begin, mine.size()), y_mine = data.y.middleRows(mine.begin, mine.size());
    Graph g;
    const Var X = g.input("X", X_mine), y = g.input("y", y_mine);
    const Var w = g.parameter("w", Tensor::Zero(4, 1)), b = g.parameter("b", Tensor::Zero(1, 1));
    const Var loss = binary_cross_entropy_with_logits(matmul(X, w) + b, y) + scale(squared_l2_norm(w), 0.5 * 1e-2);
    ShardedGraphObjective f(comm, loss, {w, b}, {.data = {{X, X_mine}, {y, y_mine}}, .layout = layout});
    Vector g1, g2, hv;
    Tensor H1, H2;
    const Scalar f1 = f.value_and_gradient(x, g1);
    const Scalar f2 = f.value_gradient_and_hessian(x, g2, H2);
    f.hessian(x, H1);
    f.hessian_vector_product(x, v, hv);
    EXPECT_NEAR(f.value(x), f_full, 1e-13);
    EXPECT_NEAR(f1, f_full, 1e-13);
    EXPECT_EQ(f1, f2);
    EXPECT_TRUE(g1.isApprox(g_full, 1e-12));
    EXPECT_EQ(g1, g2);
    EXPECT_TRUE(H1.isApprox(H_full, 1e-12));
    EXPECT_EQ(H1, H2);
    EXPECT_TRUE(hv.isApprox(hv_full, 1e-12));
    // The caller's parameter nodes hold the last x.
    EXPECT_EQ(f.parameters_vector(), x);
  });
}

// Softmax regression, whose cross-entropy nodes keep their softmax for the gradient: each chunk's
// replica is a copy of the caller's graph and must differentiate its own.
TEST(ShardedGraphObjective, SoftmaxRegressionMatchesTheFullDataObjective) {
  const auto data = testing::synthetic_logistic_data(211, 4, 9);
  Tensor labels = data.y;
  for (Index i = 0; i < labels.rows(); ++i) labels(i, 0) += static_cast<Scalar>(i % 2);  // classes 0, 1, 2
  const auto softmax_loss = [](Var X, Var y, Var W) {
    return softmax_cross_entropy(matmul(X, W), y) + scale(squared_l2_norm(W), 0.5e-2);
  };
  Graph full;
  const Var W_full = full.parameter("W", Tensor::Zero(4, 3));
  GraphObjective reference(softmax_loss(full.input("X", data.X), full.input("y", labels), W_full), {W_full});
  const Vector x = Vector::LinSpaced(12, -0.3, 0.4);
  Vector g_full;
  Tensor H_full;
  const Scalar f_full = reference.value_gradient_and_hessian(x, g_full, H_full);
  run_in_process(2, [&](Communicator& comm) {
    const ChunkLayout layout(data.X.rows(), 5, comm.size());
    const IndexRange mine = layout.rank_rows(comm.rank());
    const Tensor X_mine = data.X.middleRows(mine.begin, mine.size()),
                 y_mine = labels.middleRows(mine.begin, mine.size());
    Graph g;
    const Var X = g.input("X", X_mine), y = g.input("y", y_mine), W = g.parameter("W", Tensor::Zero(4, 3));
    ShardedGraphObjective f(comm, softmax_loss(X, y, W), {W}, {.data = {{X, X_mine}, {y, y_mine}}, .layout = layout});
    Vector gradient;
    Tensor H;
    EXPECT_NEAR(f.value_gradient_and_hessian(x, gradient, H), f_full, 1e-13);
    EXPECT_TRUE(gradient.isApprox(g_full, 1e-12));
    EXPECT_TRUE(H.isApprox(H_full, 1e-12));
  });
}

TEST(ShardedGraphObjective, FitsAreBitwiseEqualForAnyRanksAndThreads) {
  const auto data = testing::synthetic_logistic_data(500, 6, 11);
  for (const LogisticSolver solver : {LogisticSolver::Lbfgs, LogisticSolver::NewtonCg}) {
    SingleProcessCommunicator single;
    const Result reference = testing::fit_sharded_logistic(single, data, 8, solver);
    EXPECT_TRUE(reference.converged()) << reference.message;
    // The same optimum as the full-data objective, to the optimizer's tolerance.
    FullLogistic full(data);
    const Result full_fit = minimize(*full.objective, Vector::Zero(7), LbfgsOptions{.stop = {.gradient_tolerance = 1e-10}});
    EXPECT_TRUE(reference.x.isApprox(full_fit.x, 1e-6));
    for (const auto& [p, threads] : kShardedRanksByThreads) {
      std::vector<Result> fits(static_cast<std::size_t>(p));
      run_in_process(
          p, [&](Communicator& comm) { fits[static_cast<std::size_t>(comm.rank())] = testing::fit_sharded_logistic(comm, data, 8, solver); },
          {.threads_per_rank = threads});
      for (int r = 0; r < p; ++r) {
        SCOPED_TRACE(::testing::Message() << p << " ranks × " << threads << " threads, rank " << r);
        const Result& fit = fits[static_cast<std::size_t>(r)];
        EXPECT_EQ(bitwise_checksum(fit.x), bitwise_checksum(reference.x));
        EXPECT_EQ(fit.value, reference.value);
        EXPECT_EQ(fit.iterations, reference.iterations);
      }
    }
  }
}

TEST(ShardedGraphObjective, RejectsShardsThatDoNotFitTheLayout) {
  const auto data = testing::synthetic_logistic_data(20, 2, 1);
  Graph g;
  const Var X = g.input("X", data.X), y = g.input("y", data.y);
  const Var w = g.parameter("w", Tensor::Zero(2, 1));
  const Var loss = binary_cross_entropy_with_logits(matmul(X, w), y);
  SingleProcessCommunicator single;
  // Rank 0 of 1 holds all 20 rows, not 10.
  EXPECT_THROW(ShardedGraphObjective(single, loss, {w},
                                     {.data = {{X, data.X.topRows(10)}, {y, data.y.topRows(10)}}, .layout = ChunkLayout(20, 4, 1)}),
               ValueError);
  EXPECT_THROW(ShardedGraphObjective(single, loss, {w}, {.data = {{X, data.X}, {y, data.y}}, .layout = ChunkLayout(20, 4, 2)}),
               ValueError);
  EXPECT_THROW(ShardedGraphObjective(single, loss, {w}, {.layout = ChunkLayout(20, 4, 1)}), ValueError);
}

}  // namespace
}  // namespace dagml
