// DESIGN.md: once shapes are stable, a replayed training step allocates nothing. This test
// counts calls to malloc (glibc lets a program interpose it) during replays of a small network's
// forward and backward graph. (Eigen's matrix product allocates its own packing workspace for
// products too large for its stack buffers, a few blocks per large product; the sizes here stay
// below that, so the count covers dagml's own machinery: executor, ops and gradient graph.)
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/norms.h"
#include "graph/executor.h"
#include "graph/graph.h"
#include "graph/tensor.h"

extern "C" void* __libc_malloc(std::size_t size);  // glibc's own malloc

namespace {
std::atomic<long> malloc_calls{0};
}  // namespace

extern "C" void* malloc(std::size_t size) {
  malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}

namespace dagml {
namespace {

TEST(Allocation, SteadyStateReplayOfATrainingStepAllocatesNothing) {
  Graph g;
  const Var x = g.input("x", Tensor::Random(32, 20));
  Tensor labels(32, 1);
  for (Index i = 0; i < 32; ++i) labels(i, 0) = static_cast<double>(i % 5);
  const Var y = g.input("y", labels);
  const Var w1 = g.parameter("w1", Tensor::Random(20, 16) * 0.3), b1 = g.parameter("b1", Tensor::Zero(1, 16));
  const Var w2 = g.parameter("w2", Tensor::Random(16, 5) * 0.3), b2 = g.parameter("b2", Tensor::Zero(1, 5));
  const Var h = tanh(matmul(x, w1) + b1);
  const Var loss = softmax_cross_entropy(matmul(relu(h), w2) + b2, y) + squared_l2_norm(w1) * 1e-3;
  const std::vector<Var> grads = gradients(loss, {w1, b1, w2, b2});
  std::vector<Var> outputs{loss};
  outputs.insert(outputs.end(), grads.begin(), grads.end());
  Executor step(g, outputs);
  const Tensor batch = Tensor::Random(32, 20);
  step.feed(x, batch);
  step.run();  // warm-up

  const long before = malloc_calls.load();
  for (int t = 0; t < 10; ++t) {
    step.run();
    g.parameter_value(w1) -= 0.01 * grads[0].value();
  }
  EXPECT_EQ(malloc_calls.load() - before, 0);
}

}  // namespace
}  // namespace dagml
