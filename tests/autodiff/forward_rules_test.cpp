// The forward rules (Op::jvp) of the convolution, pooling, solver and decomposition ops are graph
// ops: the tangent they build differentiates again, with respect to the point and to the
// tangents, and passes gradcheck (which exercises the VJPs of the nodes those rules emit).
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "autodiff/conv.h"
#include "autodiff/decompositions.h"
#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/full_rank_sample.h"
#include "autodiff/normal_sample.h"
#include "autodiff/gradcheck.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "autodiff/solvers.h"
#include "autodiff/structure.h"
#include "graph/graph.h"
#include "graph/tensor.h"

namespace dagml {
namespace {

using ::dagml::testing::normal_sample;

struct ForwardRuleCase {
  const char* name;
  std::vector<Tensor> inputs;  // the tangents are taken with respect to the first
  std::function<Var(const std::vector<Var>&)> build;
};

// loss = Σ W ⊙ jvp(op(x), x₀, T) for two tangent directions T (a parameter too).
void expect_forward_rule_differentiates(const ForwardRuleCase& c) {
  Graph g;
  std::vector<Var> params;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) params.push_back(g.parameter(fmt::format("x{}", i), c.inputs[i]));
  const Var out = c.build(params);
  const Var T = g.parameter("T", normal_sample(2, params[0].shape().size(), 3));
  const Var tangent = jvp(out, params[0], T);
  const Var loss = sum(tangent * g.constant(normal_sample(tangent.rows(), tangent.cols(), 5)));
  params.push_back(T);
  const GradcheckResult r = gradcheck(loss, params);
  EXPECT_TRUE(r.passed) << c.name << ": " << r.message;
}

Var well_posed(Var s) { return s + identity(s.graph(), s.rows()) * 4.0; }
Var positive_definite(Var s) { return matmul(s, s, false, true) + identity(s.graph(), s.rows()) * 2.0; }

TEST(ForwardRules, DifferentiateAgain) {
  const Conv2dGeometry conv{.input = {2, 4, 4}, .filters = 3, .kernel_height = 3, .kernel_width = 3, .padding = 1};
  const std::vector<ForwardRuleCase> cases = {
      {"conv2d, tangent of the images", {normal_sample(2, 32, 1), normal_sample(3, 18, 2), normal_sample(1, 3, 4)},
       [&](const std::vector<Var>& x) { return square(conv2d(x[0], x[1], x[2], conv)); }},
      {"conv2d, tangent of the filters", {normal_sample(3, 18, 2), normal_sample(2, 32, 1)},
       [&](const std::vector<Var>& x) { return square(conv2d(x[1], x[0], conv)); }},
      {"max_pool2d", {normal_sample(2, 2 * 4 * 4, 6)},
       [](const std::vector<Var>& x) { return max_pool2d(square(x[0]), {.input = {2, 4, 4}, .window = 3, .stride = 1}); }},
      {"avg_pool2d", {normal_sample(2, 2 * 5 * 5, 7)},
       [](const std::vector<Var>& x) { return square(avg_pool2d(x[0], {.input = {2, 5, 5}, .window = 3, .stride = 2})); }},
      {"solve", {normal_sample(3, 3, 8), normal_sample(3, 2, 9)},
       [](const std::vector<Var>& x) { return solve(well_posed(x[0]), x[1]); }},
      {"cholesky_solve", {normal_sample(3, 3, 8), normal_sample(3, 2, 9)},
       [](const std::vector<Var>& x) { return cholesky_solve(positive_definite(x[0]), x[1]); }},
      {"logdet", {normal_sample(3, 3, 8)}, [](const std::vector<Var>& x) { return logdet(positive_definite(x[0])); }},
      {"gaussian_log_likelihood", {normal_sample(3, 3, 8), normal_sample(3, 2, 9)},
       [](const std::vector<Var>& x) { return gaussian_log_likelihood(positive_definite(x[0]), x[1]); }},
      {"lstsq", {normal_sample(5, 3, 10), normal_sample(5, 2, 11)},
       [](const std::vector<Var>& x) { return lstsq(x[0], x[1]); }},
      {"ridge_solve, primal", {normal_sample(6, 3, 12), normal_sample(6, 2, 13), Tensor::Constant(1, 1, 0.7)},
       [](const std::vector<Var>& x) { return ridge_solve(x[0], x[1], square(x[2])); }},
      {"ridge_solve, dual, tangent of λ", {Tensor::Constant(1, 1, 0.7), normal_sample(3, 5, 14), normal_sample(3, 2, 15)},
       [](const std::vector<Var>& x) { return ridge_solve(x[1], x[2], square(x[0])); }},
      {"inverse_gap_product, tangent of x", {normal_sample(4, 1, 16), normal_sample(4, 4, 17)},
       [](const std::vector<Var>& x) { return inverse_gap_product(x[0], x[1]); }},
      {"inverse_gap_product, tangent of M", {normal_sample(4, 4, 17), normal_sample(4, 1, 16)},
       [](const std::vector<Var>& x) { return inverse_gap_product(x[1], x[0]); }},
      {"symmetric_eigen", {testing::full_rank_sample(4, 4)}, [](const std::vector<Var>& x) {
         const SymmetricEigen e = symmetric_eigen(x[0] + transpose(x[0]));
         return concat_rows({transpose(e.values), e.vectors});
       }},
      {"svd, tall", {testing::full_rank_sample(5, 3)}, [](const std::vector<Var>& x) {
         const ThinSvd d = thin_svd(x[0]);
         return concat_rows({d.u, transpose(d.s), d.v});
       }},
      {"svd, wide", {testing::full_rank_sample(3, 5)}, [](const std::vector<Var>& x) {
         const ThinSvd d = thin_svd(x[0]);
         return concat_rows({d.u, transpose(d.s), d.v});
       }},
  };
  for (const ForwardRuleCase& c : cases) expect_forward_rule_differentiates(c);
}

}  // namespace
}  // namespace dagml
