// Kernels with hyperparameters (Note [Kernel hyperparameters], models/kernel/kernel.h): each
// kernel's Gram matrix and its log-space hyperparameter gradient against scikit-learn 1.2.1
// (gp_kernel_reference.py beside this file prints the numbers below), the graph form equal to the
// numeric Gram matrix, first- and second-order gradchecks of the graph form with respect to the
// log-hyperparameters and to the rows (as Bayesian optimisation differentiates an acquisition),
// the free vector θ and its bounds, and the text form with bounds and composites.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/gradcheck.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "models/kernel/kernel_algebra.h"
#include "models/kernel/kernel_io.h"
#include "models/kernel/stationary_kernels.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

Tensor reference_rows() {
  Tensor X(4, 2);
  X << 0.1, -0.4, 1.2, 0.3, -0.7, 0.9, 0.5, 0.5;
  return X;
}

struct ScikitLearnCase {
  const char* kernel;
  std::vector<double> gram;      // K[0, 0..3], K[1, 2..3]
  std::vector<double> dK01;      // ∂K[0, 1]/∂θ, θ = log of the free hyperparameters
  std::vector<double> dK23;      // ∂K[2, 3]/∂θ
};

// gp_kernel_reference.py, scikit-learn 1.2.1: RBF, Matern, RationalQuadratic, ExpSineSquared,
// ConstantKernel * RBF + WhiteKernel with eval_gradient=True.
const std::vector<ScikitLearnCase>& scikit_learn_cases() {
  static const std::vector<ScikitLearnCase> cases = {
      {"rbf(length_scale=0.8)",
       {1.0, 0.2649736213568968, 0.1619751257973035, 0.4686905670637882, 0.044978867977889726, 0.660959639997449},
       {0.7038361817292569},
       {0.7162619921504753}},
      {"rbf(length_scale=[0.5, 2])",
       {1.0, 0.08363861195734912, 0.22509111571906104, 0.6562260243943002, 0.0006996012696491034, 0.373439226936661},
       {0.4048108818735697, 0.010245729964775265},
       {0.31693374752490566, 0.0022009288022562896}},
      {"matern(nu=0.5, length_scale=1.3)",
       {1.0, 0.3667942495068274, 0.3090723740073702, 0.46878809001882116, 0.21595581560033258, 0.5712042354266799},
       {0.3678778390152937},
       {0.36774299767821084}},
      {"matern(nu=1.5, length_scale=0.7)",
       {1.0, 0.1678184198639434, 0.10935640026339517, 0.30048036930729727, 0.04284874771657982, 0.46243234860591687},
       {0.4133014355842749},
       {0.4283231349958873}},
      {"matern(nu=2.5, length_scale=[0.9, 1.4])",
       {1.0, 0.35799798574584535, 0.3741886353750028, 0.6559516237684049, 0.10965466622218568, 0.650186409121364},
       {0.5136452365020149, 0.0859612895798827},
       {0.5686894917655647, 0.026113292989235128}},
      {"rational_quadratic(length_scale=1.1, alpha=0.6)",
       {1.0, 0.6280992061863568, 0.5630501196700436, 0.7356571943988045, 0.4536117147179444, 0.8296936757261097},
       {0.4065109075571598, -0.0888465750754955},  // scikit-learn lists θ by name (alpha first):
       {0.4028523966281073, -0.08399397706634115}},  // swapped here into dagml's (length_scale, alpha)
      {"periodic(length_scale=0.9, period=2.5)",
       {1.0, 0.08561880556286416, 0.11270551006484013, 0.11024221825026888, 0.41673452379167136, 0.21211375188960926},
       {0.42087641880967686, -0.04672734412744622},
       {0.41827979216682665, -0.012459656543856001}},
      {"constant(value=2) * rbf(length_scale=0.8) + white(noise=0.3)",
       {2.3, 0.5299472427137936, 0.323950251594607, 0.9373811341275764, 0.08995773595577945, 1.321919279994898},
       {0.5299472427137936, 1.4076723634585138, 0.0},
       {0.5730095937203802, 1.4325239843009505, 0.0}},
  };
  return cases;
}

// The log-hyperparameter nodes of `kernel` as parameters of g, one per free block.
std::vector<Var> log_parameters(Graph& g, const Kernel& kernel) { return kernel.log_hyperparameter_nodes(g, true); }

class ScikitLearnKernel : public ::testing::TestWithParam<ScikitLearnCase> {};

TEST_P(ScikitLearnKernel, GramMatrixAndLogHyperparameterGradientMatch) {
  const ScikitLearnCase& c = GetParam();
  const KernelPtr kernel = parse_kernel(c.kernel);
  const Tensor X = reference_rows();
  const Tensor K = kernel->gram(X);
  const std::vector<double> got = {K(0, 0), K(0, 1), K(0, 2), K(0, 3), K(1, 2), K(1, 3)};
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], c.gram[i], 1e-14) << c.kernel << " entry " << i;

  Graph g;
  const std::vector<Var> theta = log_parameters(g, *kernel);
  const Var A = g.constant(X);
  const Var Kg = kernel->gram_graph({A, A, true}, theta);
  EXPECT_TRUE(Kg.value().isApprox(K, 1e-14)) << c.kernel << "\n" << Kg.value() << "\nvs\n" << K;
  for (const auto& [i, j, expected] : {std::tuple{0, 1, &c.dK01}, std::tuple{2, 3, &c.dK23}}) {
    Tensor unit = Tensor::Zero(4, 4);
    unit(i, j) = 1;
    const std::vector<Var> grads = gradients(sum(Kg * g.constant(unit)), theta);
    std::vector<double> flat;
    for (const Var& d : grads)
      for (Index k = 0; k < d.value().size(); ++k) flat.push_back(d.value().data()[k]);
    // scikit-learn's gradient also lists fixed-free-only entries; the white kernel's ∂K₀₁ is 0.
    ASSERT_EQ(flat.size(), expected->size()) << c.kernel;
    for (std::size_t k = 0; k < flat.size(); ++k)
      EXPECT_NEAR(flat[k], (*expected)[k], 1e-12) << c.kernel << " ∂K[" << i << "," << j << "]/∂θ" << k;
  }
}

INSTANTIATE_TEST_SUITE_P(GpKernels, ScikitLearnKernel, ::testing::ValuesIn(scikit_learn_cases()),
                         [](const auto& info) { return "case_" + std::to_string(info.index); });

// Every built-in kernel: the graph form equals the numeric Gram matrix on training and cross
// rows, and passes first- and second-order gradchecks in θ and in the rows.
const std::vector<std::string> kGraphKernels = {
    "linear",
    "polynomial(degree=3, gamma=0.5, coef0=1)",
    "rbf(gamma=0.7)",
    "rbf(length_scale=[0.5, 2, 1])",
    "matern(nu=0.5, length_scale=1.3)",
    "matern(nu=1.5, length_scale=[0.7, 1, 2])",
    "matern(nu=2.5, length_scale=0.9)",
    "rational_quadratic(length_scale=1.1, alpha=0.6)",
    "periodic(length_scale=0.9, period=2.5)",
    "constant(value=2) * matern(nu=2.5, length_scale=1) + white(noise=0.1)",
    "(rbf(length_scale=1) + linear) * constant(value=0.5, value_bounds=fixed)",
};

class GraphKernel : public ::testing::TestWithParam<std::string> {};

Tensor random_rows(Index n, Index d, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Tensor X(n, d);
  for (Index k = 0; k < X.size(); ++k) X.data()[k] = normal(rng);
  return X;
}

TEST_P(GraphKernel, EqualsTheNumericGramMatrix) {
  const KernelPtr kernel = parse_kernel(GetParam());
  const Tensor A = random_rows(5, 3, 1), B = random_rows(4, 3, 2);
  Graph g;
  const std::vector<Var> theta = log_parameters(g, *kernel);
  const Var a = g.constant(A), b = g.constant(B);
  EXPECT_TRUE(kernel->gram_graph({a, a, true}, theta).value().isApprox(kernel->gram(A), 1e-13));
  EXPECT_TRUE(kernel->gram_graph({a, b, false}, theta).value().isApprox(kernel->gram(A, B), 1e-13));
  // Rows as parameters take the differentiable distance path: the same values.
  const Var p = g.parameter("A", A);
  EXPECT_TRUE(kernel->gram_graph({p, b, false}, theta).value().isApprox(kernel->gram(A, B), 1e-12));
}

// k(x, z) entry by entry equals the Gram matrix, on rows of three features: an isotropic length
// scale divides every coordinate (the model-file fuzz harness found k(x, z) dividing a 3-vector
// by the one-entry length-scale vector, an Eigen size assertion, in its first 30 s).
TEST_P(GraphKernel, EntryByEntryEqualsTheGramMatrix) {
  const KernelPtr kernel = parse_kernel(GetParam());
  const Tensor A = random_rows(3, 3, 11), B = random_rows(2, 3, 12);
  const Tensor K = kernel->gram(A, B);
  for (Index i = 0; i < 3; ++i)
    for (Index j = 0; j < 2; ++j) EXPECT_NEAR((*kernel)(A.row(i).transpose(), B.row(j).transpose()), K(i, j), 1e-13);
}

TEST_P(GraphKernel, PassesGradcheckInTheLogHyperparameters) {
  const KernelPtr kernel = parse_kernel(GetParam());
  if (kernel->num_free_blocks() == 0) GTEST_SKIP() << "no free hyperparameters";
  Graph g;
  const std::vector<Var> theta = log_parameters(g, *kernel);
  const Var a = g.constant(random_rows(5, 3, 3));
  const Var weights = g.constant(random_rows(5, 5, 4));
  const Var loss = sum(kernel->gram_graph({a, a, true}, theta) * weights);
  for (int order : {1, 2}) {
    const GradcheckResult r = gradcheck(loss, theta, {.relative_tolerance = 1e-4, .order = order});
    EXPECT_TRUE(r.passed) << "order " << order << ": " << r.message;
  }
}

TEST_P(GraphKernel, PassesGradcheckInTheRows) {
  const KernelPtr kernel = parse_kernel(GetParam());
  Graph g;
  const std::vector<Var> theta = log_parameters(g, *kernel);
  const Var x = g.parameter("x", random_rows(2, 3, 5));
  const Var b = g.constant(random_rows(4, 3, 6));
  const Var loss = sum(kernel->gram_graph({x, b, false}, theta) * g.constant(random_rows(2, 4, 7)));
  const GradcheckResult r = gradcheck(loss, {x}, {.relative_tolerance = 1e-4});
  EXPECT_TRUE(r.passed) << r.message;
}

TEST_P(GraphKernel, TextFormRoundTripsExactly) {
  const KernelPtr kernel = parse_kernel(GetParam());
  const KernelPtr back = parse_kernel(kernel->name());
  EXPECT_EQ(back->name(), kernel->name());
  const Tensor A = random_rows(4, 3, 8);
  EXPECT_EQ(back->gram(A), kernel->gram(A));
}

INSTANTIATE_TEST_SUITE_P(AllKernels, GraphKernel, ::testing::ValuesIn(kGraphKernels),
                         [](const auto& info) { return "kernel_" + std::to_string(info.index); });

TEST(KernelHyperparameters, FreeVectorBoundsAndCopiesFollowTheBlocks) {
  const KernelPtr k = parse_kernel(
      "constant(value=2, value_bounds=(0.1, 10)) * rbf(length_scale=[0.5, 2]) + white(noise=0.3, noise_bounds=fixed)");
  const Vector theta = k->free_log_hyperparameters();
  ASSERT_EQ(theta.size(), 3);
  EXPECT_DOUBLE_EQ(theta[0], std::log(2.0));
  EXPECT_DOUBLE_EQ(theta[2], std::log(2.0));
  const auto [lower, upper] = k->free_log_bounds();
  EXPECT_DOUBLE_EQ(lower[0], std::log(0.1));
  EXPECT_DOUBLE_EQ(upper[0], std::log(10.0));
  EXPECT_DOUBLE_EQ(lower[1], std::log(1e-5));
  const Vector moved = Vector::LinSpaced(3, -1, 1);
  const KernelPtr copy = k->with_log_hyperparameters(std::span<const Scalar>(moved.data(), 3));
  EXPECT_TRUE(copy->free_log_hyperparameters().isApprox(moved, 1e-15));
  EXPECT_THAT(copy->name(), HasSubstr("noise=0.3, noise_bounds=fixed"));
  EXPECT_THAT(copy->name(), HasSubstr("value_bounds=(0.1, 10)"));
  EXPECT_THROW(k->with_log_hyperparameters(std::span<const Scalar>(moved.data(), 2)), ShapeError);
}

TEST(KernelHyperparameters, WhiteNoiseIsOnTheTrainingDiagonalOnly) {
  const KernelPtr k = parse_kernel("rbf(gamma=1) + white(noise=0.5)");
  const Tensor A = random_rows(3, 2, 9);
  const Tensor K = k->gram(A), cross = k->gram(A, A);
  EXPECT_TRUE((K - cross).isApprox(0.5 * Tensor::Identity(3, 3), 1e-15));
}

TEST(KernelHyperparameters, BadValuesAndTextsAreRefusedWithTheReason) {
  EXPECT_THAT([] { MaternKernel(2.0, 1.0); }, ThrowsMessage<ValueError>(HasSubstr("nu = 0.5, 1.5 or 2.5")));
  EXPECT_THAT([] { SquaredExponentialKernel(-1.0); }, ThrowsMessage<ValueError>(HasSubstr("length_scale > 0")));
  EXPECT_THAT([] { parse_kernel("rbf(length_scale=1, length_scale_bounds=(2))"); },
              ThrowsMessage<ValueError>(HasSubstr("fixed or (lower, upper)")));
  EXPECT_THAT([] { parse_kernel("rbf(length_scale=1) +"); }, ThrowsMessage<ValueError>(HasSubstr("kernel name")));
  EXPECT_THAT([] { parse_kernel("(rbf(gamma=1)"); }, ThrowsMessage<ValueError>(HasSubstr("expected ')'")));
  EXPECT_THAT([] { parse_kernel("white(noise=1, sigma=2)"); }, ThrowsMessage<ValueError>(HasSubstr("unknown parameter sigma")));
  EXPECT_THAT([] { parse_kernel("rbf(length_scale=[1, 2])")->gram(Tensor::Ones(2, 3)); },
              ThrowsMessage<ShapeError>(HasSubstr("expected 2 features")));
  const auto custom = std::make_shared<CustomKernel>("mine", [](auto x, auto z) { return x.dot(z); });
  Graph g;
  const Var a = g.constant(Tensor::Ones(2, 2));
  EXPECT_THAT([&] { custom->gram_graph({a, a, true}, {}); }, ThrowsMessage<ValueError>(HasSubstr("no graph form")));
}

}  // namespace
}  // namespace dagml
