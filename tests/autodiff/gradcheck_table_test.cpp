// One table runs first- and second-order gradcheck over every op. Each entry names the file in
// autodiff/ops/ that defines the op; an op file without an entry fails OpTable.CoversEveryOpFile.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>
#include <set>

#include "autodiff/conv.h"
#include "autodiff/decompositions.h"
#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/gradcheck.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/norms.h"
#include "autodiff/op_files.h"
#include "autodiff/ops/argmax_source.h"
#include "autodiff/reduce.h"
#include "autodiff/softmax.h"
#include "autodiff/solvers.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "graph/tensor.h"

namespace dagml {
namespace {

enum class Init {
  Normal,    // N(0, 1): kinks at 0 are hit with probability ~0 at the finite-difference step
  Positive,  // U(0.5, 2): for log, sqrt, pow, division
  // N(0, 1) rounded to quarters, and so the loss weights and directions: for the float32
  // products, whose arithmetic is then exact (a few bits per number), so that they may be held to
  // the tolerances of the others. Their finite-difference step is 2⁻⁶·max(1, |x|), which keeps
  // the perturbed entries exact in float too (central differences of a bilinear loss are exact
  // at any step).
  Dyadic,
};

// x rounded to quarters when the case is Init::Dyadic.
double in_case_grid(Init init, double x) { return init == Init::Dyadic ? std::round(4 * x) / 4 : x; }

struct OpCase {
  std::string file;  // the op's file stem in autodiff/ops/
  std::string label;
  std::vector<Shape> shapes;
  std::function<Var(Graph&, const std::vector<Var>&)> build;
  Init init = Init::Normal;
};

Tensor constant_labels(std::initializer_list<double> v) {
  Tensor t(static_cast<Index>(v.size()), 1);
  Index i = 0;
  for (double x : v) t(i++, 0) = x;
  return t;
}

// A well-conditioned square matrix and an SPD matrix built from free parameters, so that
// finite differences may perturb every entry.
Var well_conditioned(Var s) { return s + identity(s.graph(), s.rows()) * 4.0; }
Var spd(Var s) { return matmul(s, s, false, true) + identity(s.graph(), s.rows()) * 2.0; }
// The forward-mode Jacobian of f at x, as a node: a case built on it differentiates the forward
// rules' own graph ops (reverse over forward, and forward over forward).
Var forward_jacobian(Var y, Var x) { return jacobian(y, x, JacobianMode::Forward); }

using V = const std::vector<Var>&;
std::vector<OpCase> op_cases() {
  return {
      {"add", "same shape", {{3, 4}, {3, 4}}, [](Graph&, V x) { return x[0] + x[1]; }},
      {"add", "row broadcast", {{3, 4}, {1, 4}}, [](Graph&, V x) { return x[0] + x[1]; }},
      {"add", "column broadcast", {{3, 1}, {3, 4}}, [](Graph&, V x) { return x[0] + x[1]; }},
      {"add", "scalar broadcast", {{1, 1}, {3, 4}}, [](Graph&, V x) { return x[0] + x[1]; }},
      {"add_n",
       "",
       {{2, 3}, {2, 3}},
       [](Graph&, V x) {
         return add_n({x[0], x[1], x[0] * x[1]});
       }},
      {"sub", "row broadcast", {{3, 4}, {1, 4}}, [](Graph&, V x) { return x[0] - x[1]; }},
      {"mul", "column broadcast", {{3, 4}, {3, 1}}, [](Graph&, V x) { return x[0] * x[1]; }},
      {"mul", "scalar broadcast", {{3, 4}, {1, 1}}, [](Graph&, V x) { return x[0] * x[1]; }},
      {"div", "row broadcast", {{3, 4}, {1, 4}}, [](Graph&, V x) { return x[0] / x[1]; }, Init::Positive},
      {"maximum", "", {{3, 4}, {3, 4}}, [](Graph&, V x) { return maximum(x[0], x[1]); }},
      {"minimum", "", {{3, 4}, {1, 4}}, [](Graph&, V x) { return minimum(x[0], x[1]); }},
      {"pow_tensor", "same shape", {{3, 4}, {3, 4}}, [](Graph&, V x) { return pow(x[0], x[1]); }, Init::Positive},
      {"pow_tensor",
       "row exponent",
       {{3, 4}, {1, 4}},
       [](Graph&, V x) { return pow(x[0], x[1] * 2.0 - 1.5); },
       Init::Positive},
      {"pow_tensor", "scalar base", {{1, 1}, {3, 4}}, [](Graph&, V x) { return pow(x[0], x[1]); }, Init::Positive},
      {"pow_tensor", "column exponent", {{3, 4}, {3, 1}}, [](Graph&, V x) { return pow(x[0], x[1]); }, Init::Positive},
      // atan2 on operands in [0.5, 2] up to sign: one quadrant per case, away from the origin and
      // from the jump across the negative x axis.
      {"atan2",
       "same shape, first quadrant",
       {{3, 4}, {3, 4}},
       [](Graph&, V x) { return atan2(x[0], x[1]); },
       Init::Positive},
      {"atan2",
       "row broadcast, second quadrant",
       {{3, 4}, {1, 4}},
       [](Graph&, V x) { return atan2(x[0], -x[1]); },
       Init::Positive},
      {"atan2",
       "column broadcast, third quadrant",
       {{3, 1}, {3, 4}},
       [](Graph&, V x) { return atan2(-x[0], -x[1]); },
       Init::Positive},
      {"atan2",
       "scalar broadcast, fourth quadrant",
       {{1, 1}, {3, 4}},
       [](Graph&, V x) { return atan2(-x[0], x[1]); },
       Init::Positive},
      {"neg", "", {{2, 3}}, [](Graph&, V x) { return -x[0]; }},
      {"scale", "", {{2, 3}}, [](Graph&, V x) { return x[0] * 2.5; }},
      {"add_scalar", "", {{2, 3}}, [](Graph&, V x) { return x[0] + 1.5; }},
      {"pow", "", {{2, 3}}, [](Graph&, V x) { return pow(x[0], 2.7); }, Init::Positive},
      {"square", "", {{2, 3}}, [](Graph&, V x) { return square(x[0]); }},
      {"sqrt", "", {{2, 3}}, [](Graph&, V x) { return sqrt(x[0]); }, Init::Positive},
      {"exp", "", {{2, 3}}, [](Graph&, V x) { return exp(x[0]); }},
      {"log", "", {{2, 3}}, [](Graph&, V x) { return log(x[0]); }, Init::Positive},
      {"log1p", "", {{2, 3}}, [](Graph&, V x) { return log1p(x[0]); }, Init::Positive},
      {"expm1", "", {{2, 3}}, [](Graph&, V x) { return expm1(x[0]); }},
      {"abs", "", {{2, 3}}, [](Graph&, V x) { return abs(x[0]); }},
      {"sign", "zero gradient", {{2, 3}}, [](Graph&, V x) { return sign(x[0]) * x[0]; }},
      {"sin", "", {{2, 3}}, [](Graph&, V x) { return sin(x[0]); }},
      {"cos", "", {{2, 3}}, [](Graph&, V x) { return cos(x[0]); }},
      {"tanh", "", {{2, 3}}, [](Graph&, V x) { return tanh(x[0]); }},
      {"atan", "", {{2, 3}}, [](Graph&, V x) { return atan(x[0] * 2.0); }},
      {"erf", "", {{2, 3}}, [](Graph&, V x) { return erf(x[0]); }},
      {"erfc", "", {{2, 3}}, [](Graph&, V x) { return erfc(x[0]); }},
      {"lgamma", "positive", {{2, 3}}, [](Graph&, V x) { return lgamma(x[0]); }, Init::Positive},
      {"lgamma",
       "negative, between the poles 0 and −1",
       {{2, 3}},
       [](Graph&, V x) { return lgamma(x[0] * -0.4 - 0.1); },
       Init::Positive},
      {"polygamma", "digamma", {{2, 3}}, [](Graph&, V x) { return digamma(x[0]); }, Init::Positive},
      {"polygamma",
       "digamma, between the poles −1 and −2",
       {{2, 3}},
       [](Graph&, V x) { return digamma(x[0] * -0.4 - 1.1); },
       Init::Positive},
      {"polygamma", "trigamma", {{2, 3}}, [](Graph&, V x) { return polygamma(1, x[0]); }, Init::Positive},
      {"polygamma", "n = 2", {{2, 3}}, [](Graph&, V x) { return polygamma(2, x[0] + 1.0); }, Init::Positive},
      {"sigmoid", "", {{2, 3}}, [](Graph&, V x) { return sigmoid(x[0] * 3.0); }},
      {"relu", "", {{2, 3}}, [](Graph&, V x) { return relu(x[0]) * x[0]; }},
      {"softplus", "", {{2, 3}}, [](Graph&, V x) { return softplus(x[0] * 3.0); }},
      {"step", "zero gradient", {{2, 3}}, [](Graph&, V x) { return step(x[0]) * square(x[0]); }},
      {"clamp", "", {{2, 3}}, [](Graph&, V x) { return clamp(x[0], -0.5, 0.5) * x[0]; }},
      {"matmul", "A B", {{3, 4}, {4, 2}}, [](Graph&, V x) { return matmul(x[0], x[1]); }},
      {"matmul", "Aᵀ B", {{4, 3}, {4, 2}}, [](Graph&, V x) { return matmul(x[0], x[1], true, false); }},
      {"matmul", "A Bᵀ", {{3, 4}, {2, 4}}, [](Graph&, V x) { return matmul(x[0], x[1], false, true); }},
      {"matmul", "Aᵀ Bᵀ", {{4, 3}, {2, 4}}, [](Graph&, V x) { return matmul(x[0], x[1], true, true); }},
      {"matmul", "outer", {{3, 1}, {2, 1}}, [](Graph&, V x) { return outer(x[0], x[1]); }},
      {"matmul",
       "float32 A B",
       {{3, 4}, {4, 2}},
       [](Graph&, V x) { return matmul(x[0], x[1], Precision::Float32); },
       Init::Dyadic},
      {"matmul",
       "float32 Aᵀ B",
       {{4, 3}, {4, 2}},
       [](Graph&, V x) { return matmul(x[0], x[1], Precision::Float32, true, false); },
       Init::Dyadic},
      {"matmul",
       "float32 A Bᵀ",
       {{3, 4}, {2, 4}},
       [](Graph&, V x) { return matmul(x[0], x[1], Precision::Float32, false, true); },
       Init::Dyadic},
      {"matmul",
       "float32 Aᵀ Bᵀ",
       {{4, 3}, {2, 4}},
       [](Graph&, V x) { return matmul(x[0], x[1], Precision::Float32, true, true); },
       Init::Dyadic},
      {"transpose", "", {{3, 2}}, [](Graph&, V x) { return transpose(x[0]) * transpose(x[0]); }},
      {"dot", "", {{3, 2}, {3, 2}}, [](Graph&, V x) { return dot(x[0], x[1]) * dot(x[0], x[0]); }},
      {"diag", "column", {{3, 1}}, [](Graph&, V x) { return square(diag(x[0])); }},
      {"diag", "row", {{1, 3}}, [](Graph&, V x) { return square(diag(x[0])); }},
      {"diag_part", "", {{3, 3}}, [](Graph&, V x) { return square(diag_part(x[0])); }},
      {"trace", "", {{3, 3}}, [](Graph&, V x) { return square(trace(x[0])); }},
      {"sum", "all", {{3, 4}}, [](Graph&, V x) { return square(sum(x[0])); }},
      {"sum", "per row", {{3, 4}}, [](Graph&, V x) { return square(row_sums(x[0])); }},
      {"sum", "per column", {{3, 4}}, [](Graph&, V x) { return square(col_sums(x[0])); }},
      {"sum", "mean", {{3, 4}}, [](Graph&, V x) { return square(mean(x[0])); }},
      {"sum", "row means", {{3, 4}}, [](Graph&, V x) { return square(row_means(x[0])); }},
      {"sum", "column means", {{3, 4}}, [](Graph&, V x) { return square(col_means(x[0])); }},
      {"broadcast_like",
       "",
       {{3, 1}},
       [](Graph& g, V x) { return square(broadcast_like(x[0], g.constant(Tensor::Zero(3, 4)), Axis::PerRow, true)); }},
      {"max", "all", {{3, 4}}, [](Graph&, V x) { return square(max(x[0])); }},
      {"max", "per row", {{3, 4}}, [](Graph&, V x) { return square(row_max(x[0])); }},
      {"logsumexp", "all", {{3, 4}}, [](Graph&, V x) { return square(logsumexp(x[0])); }},
      {"logsumexp", "per row", {{3, 4}}, [](Graph&, V x) { return square(row_logsumexp(x[0])); }},
      {"softmax", "", {{3, 4}}, [](Graph&, V x) { return softmax(x[0]); }},
      {"log_softmax", "", {{3, 4}}, [](Graph&, V x) { return log_softmax(x[0]); }},
      {"slice", "rows", {{5, 3}}, [](Graph&, V x) { return square(slice_rows(x[0], 1, 3)); }},
      {"slice", "columns", {{3, 5}}, [](Graph&, V x) { return square(slice_cols(x[0], 2, 2)); }},
      {"concat",
       "rows",
       {{2, 3}, {1, 3}},
       [](Graph&, V x) {
         return square(concat_rows({x[0], x[1], x[0]}));
       }},
      {"concat",
       "columns",
       {{2, 3}, {2, 1}},
       [](Graph&, V x) {
         return square(concat_cols({x[0], x[1]}));
       }},
      {"gather_rows",
       "repeated indices",
       {{4, 3}},
       [](Graph& g, V x) {
         return square(gather_rows(x[0], g.constant(constant_labels({2, 0, 2, 3}))));
       }},
      {"gather_rows",
       "forward Jacobian",
       {{4, 3}},
       [](Graph& g, V x) {
         return forward_jacobian(square(gather_rows(square(x[0]), g.constant(constant_labels({2, 0, 2})))), x[0]);
       }},
      {"transpose_blocks",
       "2×4 grid of 1×2 blocks",
       {{2, 8}},
       [](Graph&, V x) { return square(transpose_blocks(x[0], 4)) * transpose_blocks(x[0], 4); }},
      {"reshape", "", {{2, 6}}, [](Graph&, V x) { return square(reshape(x[0], 3, -1)); }},
      {"reshape",
       "like",
       {{2, 6}},
       [](Graph& g, V x) { return square(reshape_like(x[0], g.constant(Tensor::Zero(4, 3)))); }},
      {"one_hot",
       "zero gradient",
       {{3, 2}},
       [](Graph& g, V x) {
         return matmul(one_hot(g.constant(constant_labels({1, 0, 1})), 2), square(x[0]), true, false);
       }},
      {"binary_cross_entropy",
       "",
       {{3, 2}, {3, 2}},
       [](Graph&, V x) { return binary_cross_entropy_with_logits_elementwise(x[0] * 2.0, sigmoid(x[1])); }},
      {"softmax_cross_entropy",
       "",
       {{4, 3}},
       [](Graph& g, V x) {
         return softmax_cross_entropy_rows(x[0], g.constant(constant_labels({0, 2, 1, 2})));
       }},
      {"softmax_cross_entropy",
       "rows weighted by a parameter: the gradient node's derivatives in its weights too",
       {{4, 3}, {4, 1}},
       [](Graph& g, V x) {
         return softmax_cross_entropy_rows(x[0], g.constant(constant_labels({1, 0, 2, 2}))) * x[1];
       }},
      {"l2_norm", "", {{3, 2}}, [](Graph&, V x) { return square(l2_norm(x[0])) + l2_norm(x[0]); }},
      {"l2_norm", "forward Jacobian", {{3, 2}}, [](Graph&, V x) { return forward_jacobian(l2_norm(x[0]), x[0]); }},
      {"argmax_routing", "via max and second order", {{2, 3}}, [](Graph&, V x) { return square(row_max(x[0])); }},
      {"argmax_routing",
       "gather at the argmax",
       {{2, 3}},
       [](Graph&, V x) { return detail::argmax_gather(square(x[0]), row_max(x[0])); }},
      {"argmax_routing",
       "rows variants, through a forward Jacobian of max",
       {{2, 3}},
       [](Graph&, V x) { return forward_jacobian(row_max(square(x[0])), x[0]); }},
      {"conv2d",
       "bias, stride 1, padding 1",
       {{2, 2 * 4 * 4}, {3, 2 * 3 * 3}, {1, 3}},
       [](Graph&, V x) {
         return conv2d(x[0], x[1], x[2], {.input = {2, 4, 4}, .filters = 3, .kernel_height = 3, .kernel_width = 3,
                                          .stride = 1, .padding = 1});
       }},
      {"conv2d",
       "stride 2, 1×2 kernel",
       {{3, 1 * 5 * 4}, {2, 1 * 1 * 2}},
       [](Graph&, V x) {
         return conv2d(x[0], x[1], {.input = {1, 5, 4}, .filters = 2, .kernel_height = 1, .kernel_width = 2,
                                    .stride = 2});
       }},
      {"conv2d",
       "float32, bias, stride 1, padding 1",
       {{2, 2 * 4 * 4}, {3, 2 * 3 * 3}, {1, 3}},
       [](Graph&, V x) {
         return conv2d(x[0], x[1], x[2],
                       {.input = {2, 4, 4},
                        .filters = 3,
                        .kernel_height = 3,
                        .kernel_width = 3,
                        .stride = 1,
                        .padding = 1,
                        .products = Precision::Float32});
       },
       Init::Dyadic},
      {"max_pool2d",
       "2×2",
       {{2, 2 * 4 * 4}},
       [](Graph&, V x) {
         return square(max_pool2d(x[0], {.input = {2, 4, 4}, .window = 2}));
       }},
      {"max_pool2d",
       "overlapping",
       {{1, 1 * 5 * 5}},
       [](Graph&, V x) {
         return square(max_pool2d(x[0], {.input = {1, 5, 5}, .window = 3, .stride = 1}));
       }},
      {"avg_pool2d",
       "overlapping",
       {{2, 2 * 5 * 5}},
       [](Graph&, V x) {
         return square(avg_pool2d(x[0], {.input = {2, 5, 5}, .window = 3, .stride = 2}));
       }},
      {"solve", "", {{3, 3}, {3, 2}}, [](Graph&, V x) { return solve(well_conditioned(x[0]), x[1]); }},
      {"cholesky_solve", "", {{3, 3}, {3, 2}}, [](Graph&, V x) { return cholesky_solve(spd(x[0]), x[1]); }},
      {"logdet", "", {{3, 3}}, [](Graph&, V x) { return logdet(spd(x[0])); }},
      {"gaussian_log_likelihood",
       "one column",
       {{3, 3}, {3, 1}},
       [](Graph&, V x) { return gaussian_log_likelihood(spd(x[0]), x[1]); }},
      {"gaussian_log_likelihood",
       "two columns",
       {{3, 3}, {3, 2}},
       [](Graph&, V x) { return gaussian_log_likelihood(spd(x[0]), x[1]); }},
      {"ridge_solve",
       "primal",
       {{6, 3}, {6, 2}, {1, 1}},
       [](Graph&, V x) { return ridge_solve(x[0], x[1], square(x[2]) + 0.5); }},
      {"ridge_solve",
       "primal, unpenalized column",
       {{6, 3}, {6, 1}, {1, 1}},
       [](Graph&, V x) { return ridge_solve(x[0], x[1], square(x[2]) + 0.5, {.unpenalized_column = 0}); }},
      {"ridge_solve",
       "dual",
       {{3, 5}, {3, 2}, {1, 1}},
       [](Graph&, V x) { return ridge_solve(x[0], x[1], square(x[2]) + 0.5); }},
      {"inverse_gap_product", "", {{4, 1}, {4, 4}}, [](Graph&, V x) { return inverse_gap_product(x[0], x[1]); }},
      {"symmetric_eigen",
       "values and vectors",
       {{4, 4}},
       [](Graph&, V x) {
         const SymmetricEigen e = symmetric_eigen(x[0] + transpose(x[0]));
         return concat_rows({transpose(e.values), e.vectors});
       }},
      {"svd",
       "tall",
       {{5, 3}},
       [](Graph&, V x) {
         const ThinSvd d = thin_svd(x[0]);
         return concat_rows({d.u, transpose(d.s), d.v});
       }},
      {"svd",
       "wide",
       {{3, 5}},
       [](Graph&, V x) {
         const ThinSvd d = thin_svd(x[0]);
         return concat_rows({d.u, transpose(d.s), d.v});
       }},
      {"lstsq", "", {{6, 3}, {6, 2}}, [](Graph&, V x) { return lstsq(x[0], x[1]); }},
  };
}

void PrintTo(const OpCase& c, std::ostream* os) { *os << c.file << " (" << c.label << ")"; }

class OpTable : public ::testing::TestWithParam<OpCase> {};

// The case's output op(x), for parameters x drawn from the case's distribution.
Var case_output(const OpCase& c, Graph& g, std::vector<Var>& params, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> positive(0.5, 2.0);
  for (std::size_t i = 0; i < c.shapes.size(); ++i) {
    Tensor v(c.shapes[i].rows, c.shapes[i].cols);
    for (Index k = 0; k < v.size(); ++k)
      v.data()[k] = c.init == Init::Positive ? positive(rng) : in_case_grid(c.init, normal(rng));
    params.push_back(g.parameter(fmt::format("x{}", i), v));
  }
  return c.build(g, params);
}

// The loss Σ W ⊙ op(x) with fixed random weights W touches every output entry.
Var weighted_loss(const OpCase& c, Graph& g, std::vector<Var>& params) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  const Var out = case_output(c, g, params, rng);
  Tensor w(out.rows(), out.cols());
  for (Index k = 0; k < w.size(); ++k) w.data()[k] = in_case_grid(c.init, normal(rng));
  return sum(out * g.constant(w));
}

// The options with the case's finite-difference step (Init::Dyadic's).
GradcheckOptions step_for(const OpCase& c, GradcheckOptions options) {
  if (c.init == Init::Dyadic) options.relative_step = 1.0 / 64;
  return options;
}

TEST_P(OpTable, FirstOrder) {
  Graph g;
  std::vector<Var> params;
  const Var loss = weighted_loss(GetParam(), g, params);
  const GradcheckResult r = gradcheck(loss, params, step_for(GetParam(), {}));
  EXPECT_TRUE(r.passed) << r.message;
}

TEST_P(OpTable, SecondOrder) {
  Graph g;
  std::vector<Var> params;
  const Var loss = weighted_loss(GetParam(), g, params);
  const GradcheckResult r = gradcheck(loss, params, step_for(GetParam(), {.relative_tolerance = 1e-4, .order = 2}));
  EXPECT_TRUE(r.passed) << r.message;
}

// jacobian() pushes all output entries back in one batched sweep (Op::batched_vjp); row s must
// equal the gradient of output entry s, built with the ordinary one-cotangent VJPs.
TEST_P(OpTable, BatchedJacobianMatchesOneGradientPerEntry) {
  Graph g;
  std::vector<Var> params;
  std::mt19937_64 rng(7);
  const Var out = case_output(GetParam(), g, params, rng);
  for (const Var& p : params) {
    const Tensor J = jacobian(out, p, JacobianMode::Reverse).value();
    ASSERT_EQ(J.rows(), out.shape().size());
    ASSERT_EQ(J.cols(), p.shape().size());
    for (Index s = 0; s < J.rows(); ++s) {
      Tensor unit = Tensor::Zero(out.rows(), out.cols());
      unit.data()[s] = 1;
      const Tensor row = gradient(sum(out * g.constant(unit)), p).value();
      const Eigen::Map<const Vector> expected(row.data(), row.size());
      EXPECT_TRUE(J.row(s).transpose().isApprox(expected, 1e-10) || (J.row(s).norm() + expected.norm()) < 1e-12)
          << p.name() << " row " << s << ": " << J.row(s) << " vs " << expected.transpose();
    }
  }
}

// The same for second derivatives: hessian() is the batched Jacobian of the gradient graph, so
// every VJP an op emits is batched too; column s must equal the Hessian-vector product with eₛ.
TEST_P(OpTable, BatchedHessianMatchesHessianVectorProducts) {
  Graph g;
  std::vector<Var> params;
  const Var loss = weighted_loss(GetParam(), g, params);
  for (const Var& p : params) {
    const Tensor H = hessian(loss, p).value();
    for (Index s = 0; s < H.cols(); ++s) {
      Tensor unit = Tensor::Zero(p.rows(), p.cols());
      unit.data()[s] = 1;
      const Tensor column = hvp(loss, p, g.constant(unit)).value();
      const Eigen::Map<const Vector> expected(column.data(), column.size());
      EXPECT_TRUE(H.col(s).isApprox(expected, 1e-9) || (H.col(s).norm() + expected.norm()) < 1e-12)
          << p.name() << " column " << s << ": " << H.col(s).transpose() << " vs " << expected.transpose();
    }
  }
}

// Forward mode (Note [Forward-mode Jacobian] in autodiff/derivatives.cpp): p tangents pushed
// through each op's forward rule (its own Op::jvp, or its transposed VJP) must give the same m×p
// Jacobian as m cotangents pulled back through the VJPs.
TEST_P(OpTable, ForwardJacobianMatchesReverse) {
  Graph g;
  std::vector<Var> params;
  std::mt19937_64 rng(7);
  const Var out = case_output(GetParam(), g, params, rng);
  for (const Var& p : params) {
    const Tensor forward = jacobian(out, p, JacobianMode::Forward).value();
    const Tensor reverse = jacobian(out, p, JacobianMode::Reverse).value();
    ASSERT_EQ(forward.rows(), reverse.rows());
    ASSERT_EQ(forward.cols(), reverse.cols());
    EXPECT_TRUE(forward.isApprox(reverse, 1e-10) || (forward - reverse).norm() < 1e-12)
        << p.name() << ":\n" << forward << "\nvs reverse\n" << reverse;
  }
}

// Forward over reverse: the gradient graph's tangent along v equals the reverse-over-reverse
// Hessian-vector product, for every op (the forward rules of the VJP nodes are exercised here).
TEST_P(OpTable, ForwardOverReverseHessianVectorProducts) {
  Graph g;
  std::vector<Var> params;
  const Var loss = weighted_loss(GetParam(), g, params);
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  for (const Var& p : params) {
    Tensor v(p.rows(), p.cols());
    for (Index k = 0; k < v.size(); ++k) v.data()[k] = in_case_grid(GetParam().init, normal(rng));
    const Var direction = g.constant(v);
    const Tensor forward = hvp(loss, p, direction, HvpMode::ForwardOverReverse).value();
    const Tensor reverse = hvp(loss, p, direction).value();
    ASSERT_EQ(shape_of(forward), shape_of(reverse));
    EXPECT_TRUE(forward.isApprox(reverse, 1e-9) || (forward - reverse).norm() < 1e-12)
        << p.name() << ": " << forward << " vs " << reverse;
  }
}

INSTANTIATE_TEST_SUITE_P(AllOps, OpTable, ::testing::ValuesIn(op_cases()), [](const auto& info) {
  std::string name = info.param.file + "_" + std::to_string(info.index);
  return name;
});

// The op files whose ops have a forward rule of their own (Op::jvp returns a value; the others
// fall back to Note [Forward rule by transposition]), each with the names of the ops it defines
// when they differ from the file's. Every node of such an op in a case's graph, its gradient
// graph included (the adjoint ops a VJP creates), must have a native rule, and each op named must
// occur in some case of its file.
// Every op has a forward rule of its own (Op::jvp answers with a value, not the transposition
// fallback): every op node of every case, and of its gradient graph (the adjoint ops the VJPs
// create), is asked for one. An op without a rule fails here, naming it.
TEST(OpTableCoverage, EveryOpHasAForwardRuleOfItsOwn) {
  std::set<std::string> checked;
  for (const OpCase& c : op_cases()) {
    Graph g;
    std::vector<Var> params;
    const Var loss = weighted_loss(c, g, params);
    gradients(loss, params);
    const int built = g.size();  // jvp below adds nodes; only the case's own are checked
    for (int id = 0; id < built; ++id) {
      const Node& node = g.node(id);
      if (node.kind != NodeKind::Op) continue;
      const std::span<const int> inputs = g.inputs_of(id);
      std::vector<Var> in, tangents;
      for (int input : std::vector<int>(inputs.begin(), inputs.end())) {
        in.push_back(g.var(input));
        tangents.push_back(g.constant(Tensor::Ones(2, g.node(input).value.size())));
      }
      const std::shared_ptr<Op> op = g.node(id).op;  // g.node may move as nodes are added
      EXPECT_TRUE(op->jvp(JvpArgs{in, g.var(id), tangents}).has_value())
          << c.file << " (" << c.label << "): " << op->name() << " " << op->attributes() << " has no rule of its own";
      checked.insert(op->name());
    }
  }
  EXPECT_GT(checked.size(), 60u);  // the cases reach every op and most adjoint ops
}

TEST(OpTableCoverage, CoversEveryOpFile) {
  std::set<std::string> covered;
  for (const OpCase& c : op_cases()) covered.insert(c.file);
  for (std::string_view file : generated::kOpFiles)
    EXPECT_TRUE(covered.count(std::string(file))) << "autodiff/ops/" << file << ".cpp has no gradcheck table entry";
  for (const std::string& file : covered) {
    bool exists = false;
    for (std::string_view f : generated::kOpFiles) exists |= f == file;
    EXPECT_TRUE(exists) << "table entry for a missing op file: " << file;
  }
}

}  // namespace
}  // namespace dagml
