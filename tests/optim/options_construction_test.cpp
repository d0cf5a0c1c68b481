// Every optimizer and update rule of optim/ is constructible as X(), X({}), X({.field = v}) and
// X(XOptions{.field = v}), and stores the options it was given (Note [Constructing from options]
// in optim/options.h). The second half compiles and runs every snippet of docs/optim.md that
// constructs options or optimizers, so that the page and the code cannot drift apart: when one of
// these stops compiling, fix the page together with the code.
#include "optim/options.h"

#include <gtest/gtest.h>

#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdio>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "autodiff/norms.h"
#include "graph/error.h"
#include "optim/adam.h"
#include "optim/callbacks.h"
#include "optim/coordinate_descent.h"
#include "optim/gauss_newton.h"
#include "optim/gradient_descent.h"
#include "optim/graph_objective.h"
#include "optim/iteration_loop.h"
#include "optim/lbfgs.h"
#include "optim/levenberg_marquardt.h"
#include "optim/line_search_descent.h"
#include "optim/momentum.h"
#include "optim/nesterov.h"
#include "optim/newton.h"
#include "optim/newton_cg.h"
#include "optim/trust_region_newton.h"
#include "optim/projected_gradient.h"
#include "optim/test_problems.h"
#include "optim/update_rule.h"

namespace dagml {
namespace {

// ---- Compile-time: every form, for every class ------------------------------------------------

// X(), X({}), X(XOptions{}) and X(DefaultOptions{}) compile; the options constructor stays
// explicit; and nothing but {} reaches the DefaultOptions constructor (no X(0), no X(nullptr)).
// clang-format off
template <class X, class Options>
concept ConstructibleFromOptions =
    std::is_aggregate_v<Options> && std::default_initializable<Options> && std::is_default_constructible_v<X> &&
    std::is_constructible_v<X, Options> && std::is_constructible_v<X, const Options&> &&
    std::is_constructible_v<X, DefaultOptions> && requires {
      X();
      X({});
      X(Options{});
      X(DefaultOptions{});
    } && !std::is_convertible_v<Options, X> && !std::is_convertible_v<DefaultOptions, X> &&
    !std::is_constructible_v<X, int> && !std::is_constructible_v<X, std::nullptr_t>;
// clang-format on

static_assert(ConstructibleFromOptions<GradientStep, GradientStepOptions>);
static_assert(ConstructibleFromOptions<Momentum, MomentumOptions>);
static_assert(ConstructibleFromOptions<Nesterov, NesterovOptions>);
static_assert(ConstructibleFromOptions<Adam, AdamOptions>);
static_assert(ConstructibleFromOptions<Newton, NewtonOptions>);
static_assert(ConstructibleFromOptions<NewtonCg, NewtonCgOptions>);
static_assert(ConstructibleFromOptions<TrustRegionNewton, TrustRegionNewtonOptions>);
static_assert(ConstructibleFromOptions<Lbfgs, LbfgsOptions>);
static_assert(ConstructibleFromOptions<GaussNewton, GaussNewtonOptions>);
static_assert(ConstructibleFromOptions<LevenbergMarquardt, LevenbergMarquardtOptions>);
static_assert(ConstructibleFromOptions<ProjectedGradient, ProjectedGradientOptions>);
static_assert(ConstructibleFromOptions<CoordinateDescent, CoordinateDescentOptions>);
static_assert(ConstructibleFromOptions<LineSearchDescent, LineSearchDescentOptions>);

// Why the DefaultOptions constructor exists: without it X({}) is ambiguous between the options
// constructor and X's own copy and move constructors (fed by X's default constructor).
struct WithoutDefaultOptionsCtorOptions {
  int value = 1;
};
struct WithoutDefaultOptionsCtor {
  explicit WithoutDefaultOptionsCtor(WithoutDefaultOptionsCtorOptions options = {}) : options(options) {}
  WithoutDefaultOptionsCtorOptions options;
};
template <class X>
concept BracesCompile = requires {
  X({});
};
#if defined(__GNUC__) && !defined(__clang__)
// GCC rejects it as ambiguous; Clang 14 picks the options constructor. Either way, with the
// DefaultOptions constructor X({}) compiles under both.
static_assert(!BracesCompile<WithoutDefaultOptionsCtor>);
#endif
static_assert(BracesCompile<Adam>);

// The classes that take their options after another argument have no such ambiguity; their
// forms compile as well (the runtime checks below construct them).
static_assert(std::is_constructible_v<GradientDescent, const UpdateRule&>);
static_assert(std::is_constructible_v<GradientDescent, const UpdateRule&, FirstOrderOptions>);
static_assert(std::is_aggregate_v<FirstOrderOptions> && std::is_aggregate_v<EarlyStoppingOptions> &&
              std::is_aggregate_v<GraphObjectiveOptions> && std::is_aggregate_v<StopOptions> &&
              std::is_aggregate_v<LineSearchOptions> && std::is_aggregate_v<IterationLoopOptions>);

// ---- Runtime: the options given are the options stored ---------------------------------------

// X(), X({}) and X(DefaultOptions{}) hold the defaults of XOptions{}, as read by `field`.
template <class X, class Options, class Field>
void expect_default_options_stored(Field field) {
  const Options defaults{};
  EXPECT_EQ(field(X().options()), field(defaults));
  EXPECT_EQ(field(X({}).options()), field(defaults));
  EXPECT_EQ(field(X(DefaultOptions{}).options()), field(defaults));
}

TEST(OptionsConstruction, GradientStep) {
  expect_default_options_stored<GradientStep, GradientStepOptions>(
      [](const GradientStepOptions& o) { return o.schedule.at(1); });
  EXPECT_EQ(GradientStep({.schedule = StepSchedule::constant(0.5)}).options().schedule.at(1), 0.5);
  EXPECT_EQ(GradientStep(GradientStepOptions{.schedule = StepSchedule::inverse_time(0.5)}).options().schedule.at(2),
            0.25);
  const GradientStepOptions options{.schedule = StepSchedule::constant(0.25)};
  EXPECT_EQ(GradientStep(options).options().schedule.at(1), 0.25);
}

TEST(OptionsConstruction, Momentum) {
  expect_default_options_stored<Momentum, MomentumOptions>([](const MomentumOptions& o) { return o.beta.at(1); });
  expect_default_options_stored<Momentum, MomentumOptions>([](const MomentumOptions& o) { return o.form; });
  EXPECT_EQ(Momentum({.form = MomentumForm::Averaging}).options().form, MomentumForm::Averaging);
  EXPECT_EQ(Momentum({.beta = 0.5}).options().beta.at(7), 0.5);
  EXPECT_EQ(Momentum(MomentumOptions{.beta = MomentumCoefficient::convex()}).options().beta.at(2), 0.25);
}

TEST(OptionsConstruction, Nesterov) {
  expect_default_options_stored<Nesterov, NesterovOptions>([](const NesterovOptions& o) { return o.beta.at(1); });
  expect_default_options_stored<Nesterov, NesterovOptions>([](const NesterovOptions& o) { return o.schedule.at(1); });
  EXPECT_EQ(Nesterov({.schedule = StepSchedule::constant(0.1), .beta = 0.5}).options().beta.at(1), 0.5);
  EXPECT_EQ(Nesterov(NesterovOptions{.schedule = StepSchedule::constant(0.1)}).options().schedule.at(1), 0.1);
}

TEST(OptionsConstruction, Adam) {
  expect_default_options_stored<Adam, AdamOptions>([](const AdamOptions& o) { return o.beta1; });
  expect_default_options_stored<Adam, AdamOptions>([](const AdamOptions& o) { return o.epsilon; });
  EXPECT_EQ(Adam({.beta1 = 0.99}).options().beta1, 0.99);
  EXPECT_EQ(Adam({.beta1 = 0.99}).options().beta2, AdamOptions{}.beta2);
  EXPECT_EQ(Adam(AdamOptions{.beta2 = 0.9}).options().beta2, 0.9);
  // The options reach the validating constructor in every form.
  EXPECT_THROW(Adam({.beta1 = 1}), ValueError);
  EXPECT_THROW(Adam(AdamOptions{.epsilon = 0}), ValueError);
}

TEST(OptionsConstruction, Newton) {
  expect_default_options_stored<Newton, NewtonOptions>([](const NewtonOptions& o) { return o.step; });
  expect_default_options_stored<Newton, NewtonOptions>([](const NewtonOptions& o) { return o.stop.max_iterations; });
  EXPECT_EQ(Newton({.step = 0.5}).options().step, 0.5);
  EXPECT_EQ(Newton({.stop = {.max_iterations = 7}}).options().stop.max_iterations, 7);
  EXPECT_EQ(Newton(NewtonOptions{.regularization = 1e-6}).options().regularization, 1e-6);
  EXPECT_THROW(Newton({.step = 0}), ValueError);
}

TEST(OptionsConstruction, TrustRegionNewton) {
  expect_default_options_stored<TrustRegionNewton, TrustRegionNewtonOptions>(
      [](const TrustRegionNewtonOptions& o) { return o.initial_radius; });
  EXPECT_EQ(TrustRegionNewton({.initial_radius = 0.5}).options().initial_radius, 0.5);
  EXPECT_THROW(TrustRegionNewton({.initial_radius = 0}), ValueError);
  EXPECT_THROW(TrustRegionNewton({.initial_radius = 2, .max_radius = 1}), ValueError);
}

TEST(OptionsConstruction, NewtonCg) {
  expect_default_options_stored<NewtonCg, NewtonCgOptions>(
      [](const NewtonCgOptions& o) { return o.max_cg_iterations; });
  EXPECT_EQ(NewtonCg({.max_cg_iterations = 5}).options().max_cg_iterations, 5);
  EXPECT_EQ(NewtonCg(NewtonCgOptions{.stop = {.max_iterations = 9}}).options().stop.max_iterations, 9);
}

TEST(OptionsConstruction, Lbfgs) {
  expect_default_options_stored<Lbfgs, LbfgsOptions>([](const LbfgsOptions& o) { return o.memory; });
  expect_default_options_stored<Lbfgs, LbfgsOptions>([](const LbfgsOptions& o) { return o.line_search.kind; });
  EXPECT_EQ(Lbfgs({.memory = 3}).options().memory, 3);
  EXPECT_EQ(Lbfgs(LbfgsOptions{.memory = 4}).options().memory, 4);
  EXPECT_THROW(Lbfgs({.memory = 0}), ValueError);
}

TEST(OptionsConstruction, GaussNewton) {
  expect_default_options_stored<GaussNewton, GaussNewtonOptions>([](const GaussNewtonOptions& o) { return o.step; });
  EXPECT_EQ(GaussNewton({.step = 0.5}).options().step, 0.5);
  EXPECT_EQ(GaussNewton(GaussNewtonOptions{.step = 0.25}).options().step, 0.25);
}

TEST(OptionsConstruction, LevenbergMarquardt) {
  expect_default_options_stored<LevenbergMarquardt, LevenbergMarquardtOptions>(
      [](const LevenbergMarquardtOptions& o) { return o.initial_damping; });
  expect_default_options_stored<LevenbergMarquardt, LevenbergMarquardtOptions>(
      [](const LevenbergMarquardtOptions& o) { return o.stop.gradient_tolerance; });
  EXPECT_EQ(LevenbergMarquardt({.initial_damping = 1e-2}).options().initial_damping, 1e-2);
  EXPECT_FALSE(LevenbergMarquardt(LevenbergMarquardtOptions{.scale_by_diagonal = false}).options().scale_by_diagonal);
}

TEST(OptionsConstruction, ProjectedGradient) {
  expect_default_options_stored<ProjectedGradient, ProjectedGradientOptions>(
      [](const ProjectedGradientOptions& o) { return o.c1; });
  expect_default_options_stored<ProjectedGradient, ProjectedGradientOptions>(
      [](const ProjectedGradientOptions& o) { return o.box.lower.size(); });
  EXPECT_EQ(ProjectedGradient({.box = Box::nonnegative(3)}).options().box.lower.size(), 3);
  EXPECT_EQ(ProjectedGradient(ProjectedGradientOptions{.c1 = 1e-3}).options().c1, 1e-3);
  EXPECT_TRUE(ProjectedGradient({.schedule = StepSchedule::constant(0.1)}).options().schedule.has_value());
}

TEST(OptionsConstruction, CoordinateDescent) {
  expect_default_options_stored<CoordinateDescent, CoordinateDescentOptions>(
      [](const CoordinateDescentOptions& o) { return o.order; });
  EXPECT_EQ(CoordinateDescent({.order = CoordinateOrder::Random, .seed = 3}).options().seed, 3u);
  EXPECT_EQ(CoordinateDescent(CoordinateDescentOptions{.search_radius = 2}).options().search_radius, 2);
}

TEST(OptionsConstruction, LineSearchDescent) {
  expect_default_options_stored<LineSearchDescent, LineSearchDescentOptions>(
      [](const LineSearchDescentOptions& o) { return o.direction; });
  EXPECT_EQ(LineSearchDescent({.direction = DescentDirection::Coordinate}).options().direction,
            DescentDirection::Coordinate);
  EXPECT_EQ(LineSearchDescent(LineSearchDescentOptions{.seed = 5}).options().seed, 5u);
}

TEST(OptionsConstruction, ClassesTakingOptionsAfterAnotherArgument) {
  const Adam rule({.beta1 = 0.99});
  EXPECT_EQ(GradientDescent(rule).options().batch_size, 0);
  EXPECT_EQ(GradientDescent(rule, {}).options().batch_size, 0);
  EXPECT_EQ(GradientDescent(rule, {.batch_size = 4}).options().batch_size, 4);
  EXPECT_TRUE(GradientDescent(Nesterov({}), FirstOrderOptions{.keep_best = true}).options().keep_best);
  const auto score = [](const Vector& x) { return x.squaredNorm(); };
  EarlyStopping a(score), b(score, {}), c(score, {.patience = 3}), d(score, EarlyStoppingOptions{.min_delta = 0.1});
  EXPECT_THROW(EarlyStopping(score, {.patience = 0}), ValueError);
}

// ---- docs/optim.md, section by section ----------------------------------------------------------
// Each block is the page's snippet, with its placeholders (…) filled in.

// A quadratic with the minimiser A⁻¹b, for the snippets that say `objective`.
struct DocsQuadratic {
  Tensor A = testing::convex_A();
  Vector b = testing::convex_b();
  FunctionObjective objective = testing::quadratic(A, b);
  Vector x0 = Vector::Zero(3);
  Vector solution() const { return A.llt().solve(b); }
};

// docs/optim.md, "The shape of every call", on the logistic regression of test_problems.h (an
// objective with a Hessian and minibatches).
TEST(OptimDocSnippets, TheShapeOfEveryCall) {
  auto problem = testing::logistic();
  GraphObjective& objective = *problem->objective;
  const Vector x0 = Vector::Zero(2);
  const Vector w_star = (Vector(2) << testing::kLogisticW0, testing::kLogisticW1).finished();
  HistoryRecorder history;
  EarlyStopping early_stopping([&](const Vector& x) { return (x - w_star).norm(); });
  // clang-format off
  {
    Result r = minimize(objective, x0, NewtonOptions{.stop = {.gradient_tolerance = 1e-10}});
    EXPECT_TRUE(r.converged());
    EXPECT_LT((r.x - w_star).norm(), 1e-8);
  }
  {
    Result r = minimize(objective, x0, LbfgsOptions{}, history, early_stopping);   // callbacks last
    EXPECT_TRUE(r.converged());
    EXPECT_FALSE(history.values().empty());
  }
  {
    Result r = minimize(objective, x0, Adam({.schedule = StepSchedule::constant(1e-3)}),
                        FirstOrderOptions{.batch_size = 32, .seed = 1});            // first-order: rule, then options
    EXPECT_LT(r.value, objective.value(x0));
  }
  // "e.g. `Newton newton({.step = 0.5}); newton.minimize(objective, x0);`"
  Newton newton({.step = 0.5}); newton.minimize(objective, x0);
  // clang-format on
  EXPECT_EQ(newton.options().step, 0.5);
}

// docs/optim.md, "Objectives from a graph": a small logistic regression (y: n×1 of 0/1).
struct DocsLogisticData {
  Index n = 40, d = 2;
  Scalar l2 = 0.1;
  Tensor X_train, y_train;
  DocsLogisticData() : X_train(n, d), y_train(n, 1) {
    for (Index i = 0; i < n; ++i) {
      const Scalar t = static_cast<Scalar>(i) / static_cast<Scalar>(n - 1);
      X_train(i, 0) = t;
      X_train(i, 1) = std::sin(7.0 * t);
      y_train(i, 0) = (t + 0.3 * std::sin(13.0 * t) > 0.5) ? 1 : 0;
    }
  }
};

TEST(OptimDocSnippets, ObjectivesFromAGraph) {
  const DocsLogisticData data;
  const Index d = data.d;
  const Scalar l2 = data.l2;
  const Tensor& X_train = data.X_train;
  const Tensor& y_train = data.y_train;
  {
    // clang-format off
    Graph g;
    Var X = g.input("X", X_train), y = g.input("y", y_train);         // y: n×1 of 0/1
    Var w = g.parameter("w", Tensor::Zero(d, 1)), b = g.parameter("b", Tensor::Zero(1, 1));
    Var loss = binary_cross_entropy_with_logits(matmul(X, w) + b, y) + (0.5 * l2) * squared_l2_norm(w);
    GraphObjective objective(loss, {w, b}, {.data = {{X, X_train}, {y, y_train}}});
    Result r = minimize(objective, objective.parameters_vector(), NewtonOptions{});
    objective.set_parameters(r.x);     // w and b now hold the solution
    // clang-format on
    EXPECT_TRUE(r.converged());
    EXPECT_EQ(g.parameter_value(w)(0, 0), r.x[0]);
  }
  // "The one-call forms for models"
  Graph g;
  Var X = g.input("X", X_train), y = g.input("y", y_train);
  Var w = g.parameter("w", Tensor::Zero(d, 1)), b = g.parameter("b", Tensor::Zero(1, 1));
  Var loss = binary_cross_entropy_with_logits(matmul(X, w) + b, y) + (0.5 * l2) * squared_l2_norm(w);
  {
    // clang-format off
    Result r = minimize_graph(loss, {w, b}, LbfgsOptions{});                       // any method's options
    // clang-format on
    EXPECT_TRUE(r.converged());
  }
  {
    g.parameter_value(w).setZero();
    g.parameter_value(b).setZero();
    const Scalar f0 = GraphObjective(loss, {w, b}).value(Vector::Zero(d + 1));
    // clang-format off
    Result r = minimize_graph(loss, {w, b}, Adam({}), FirstOrderOptions{.batch_size = 32},
                              {.data = {{X, X_train}, {y, y_train}}});             // minibatches
    // clang-format on
    EXPECT_LT(r.value, f0);
  }
  {
    Result r = minimize_residuals(matmul(X, w) - y, {w}, LevenbergMarquardtOptions{});
    EXPECT_TRUE(r.converged());
  }
  // "`FunctionObjective({.dimension = p, .value_and_gradient = …, .hessian = …, .residuals = …,
  // .num_samples = n, .batch_value_and_gradient = …})`": f(x) = ½ Σᵢ (xᵢ − i)², n = 1.
  const Index p = 2, n = 1;
  FunctionObjective f({.dimension = p,
                       .value_and_gradient =
                           [](const Vector& x, Vector& grad) {
                             grad = x - Vector::LinSpaced(2, 0, 1);
                             return 0.5 * grad.squaredNorm();
                           },
                       .hessian = [](const Vector&, Tensor& H) { H = Tensor::Identity(2, 2); },
                       .residuals =
                           [](const Vector& x, Vector& r, Tensor* J) {
                             r = x - Vector::LinSpaced(2, 0, 1);
                             if (J != nullptr) *J = Tensor::Identity(2, 2);
                           },
                       .num_samples = n,
                       .batch_value_and_gradient =
                           [](const Vector& x, std::span<const Index>, Vector& grad) {
                             grad = x - Vector::LinSpaced(2, 0, 1);
                             return 0.5 * grad.squaredNorm();
                           }});
  EXPECT_TRUE(minimize(f, Vector::Zero(p), GaussNewtonOptions{}).converged());
}

// docs/optim.md, "First-order methods: one loop, update rules as objects".
TEST(OptimDocSnippets, FirstOrderMethods) {
  Graph graph;
  Var w = graph.parameter("w", Tensor::Zero(2, 1));
  const Tensor G = (Tensor(2, 1) << 0.5, -2).finished();  // the trainer's gradient of w
  // clang-format off
  Adam adam({.schedule = StepSchedule::constant(1e-3)});
  for (int step = 0; step < 3; ++step) {
    Tensor& W = graph.parameter_value(w);                 // update the tensor where it lives
    adam.step(Eigen::Map<Vector>(W.data(), W.size()), Eigen::Map<const Vector>(G.data(), G.size()));
  }
  // Adam's steps are ≈ α·sign(g) for a constant gradient.
  EXPECT_NEAR(graph.parameter_value(w)(0, 0), -3e-3, 1e-9);
  EXPECT_NEAR(graph.parameter_value(w)(1, 0), 3e-3, 1e-9);
  EXPECT_EQ(adam.steps(), 3);
  adam.reset();                                           // forget moments and step count
  // clang-format on
  EXPECT_EQ(adam.steps(), 0);

  // The options the section names: `.beta = 0.9`, `MomentumCoefficient::convex()`,
  // `MomentumForm::Averaging`, `.beta1 = 0.99`, the step schedules and FirstOrderOptions' fields.
  const Momentum velocity({.schedule = StepSchedule::constant(0.1), .beta = 0.9});
  const Momentum averaging(
      {.schedule = StepSchedule::constant(0.1 / (1 - 0.9)), .beta = 0.9, .form = MomentumForm::Averaging});
  const Nesterov nesterov({.schedule = StepSchedule::constant(0.1), .beta = MomentumCoefficient::convex()});
  const Adam notes_adam({.beta1 = 0.99});
  const GradientStep subgradient({.schedule = StepSchedule::inverse_sqrt(0.1)});
  for (const StepSchedule& s :
       {StepSchedule::constant(0.1), StepSchedule::inverse_time(0.1), StepSchedule::inverse_sqrt(0.1),
        StepSchedule::step_decay(0.1, 0.5, 10), StepSchedule::lipschitz(1, 2), StepSchedule::strongly_convex(2)}) {
    EXPECT_GT(GradientStep({.schedule = s}).options().schedule.at(1), 0);
  }
  const FirstOrderOptions options{
      .stop = {.max_iterations = 50}, .batch_size = 1, .shuffle = false, .seed = 3, .keep_best = true};
  DocsQuadratic q;
  for (const UpdateRule* rule :
       std::vector<const UpdateRule*>{&velocity, &averaging, &nesterov, &notes_adam, &subgradient}) {
    EXPECT_LT(minimize(q.objective, q.x0, *rule, {.stop = {.max_iterations = 50}}).value, 0) << rule->name();
  }
  EXPECT_TRUE(GradientDescent(notes_adam, options).options().keep_best);
}

// docs/optim.md, "Second-order methods": the options the section names.
TEST(OptimDocSnippets, SecondOrderMethods) {
  DocsQuadratic q;
  const NewtonOptions damped{.stop = {.max_iterations = 200, .gradient_tolerance = 1e-10},
                             .step = 0.5,
                             .line_search = {.kind = LineSearchKind::None},
                             .regularization = 1e-8};
  EXPECT_TRUE(Newton(damped).minimize(q.objective, q.x0).converged());
  EXPECT_TRUE(
      Newton({.step = 1, .line_search = {.kind = LineSearchKind::None}}).minimize(q.objective, q.x0).converged());
  EXPECT_TRUE(Newton({.fused_evaluations = false}).minimize(q.objective, q.x0).converged());
  EXPECT_TRUE(NewtonCg().minimize(q.objective, q.x0).converged());
  EXPECT_TRUE(Lbfgs({.memory = 10}).minimize(q.objective, q.x0).converged());
}

// docs/optim.md, "Nonlinear least squares".
TEST(OptimDocSnippets, NonlinearLeastSquares) {
  const Tensor sensors = (Tensor(4, 2) << 0, 0, 4, 0, 0, 5, 3, 4).finished();
  Tensor distances(4, 1);
  for (Index i = 0; i < 4; ++i) distances(i, 0) = (sensors.row(i) - (Tensor(1, 2) << 1, 2).finished()).norm();
  const Vector x0 = (Vector(2) << 0.5, 0.5).finished();

  Graph g;
  // clang-format off
  Var S = g.constant(sensors), d = g.constant(distances), w = g.parameter("w", Tensor::Zero(1, 2));
  auto f = GraphObjective::least_squares(sqrt(row_sums(square(S - w))) - d, {w});   // notes 000 §4.1
  Result r = minimize(*f, x0, LevenbergMarquardtOptions{});
  // clang-format on
  EXPECT_TRUE(r.converged());
  EXPECT_NEAR(r.x[0], 1, 1e-8);
  EXPECT_NEAR(r.x[1], 2, 1e-8);

  EXPECT_TRUE(minimize(*f, x0, LevenbergMarquardtOptions{.scale_by_diagonal = false}).converged());
  EXPECT_TRUE(minimize(*f, x0, GaussNewtonOptions{}).converged());
}

// docs/optim.md, "Line searches, coordinate descent, projected gradient".
TEST(OptimDocSnippets, LineSearchesCoordinateDescentProjectedGradient) {
  DocsQuadratic q;
  for (LineSearchKind kind :
       {LineSearchKind::Armijo, LineSearchKind::StrongWolfe, LineSearchKind::Exact, LineSearchKind::Grid}) {
    EXPECT_LT(minimize(q.objective, q.x0, LbfgsOptions{.line_search = {.kind = kind, .max_step = 10}}).value, 0);
  }
  const Result steepest = minimize(
      q.objective, q.x0,
      LineSearchDescentOptions{.stop = {.gradient_tolerance = 1e-6}, .direction = DescentDirection::Coordinate});
  EXPECT_TRUE(steepest.converged());
  EXPECT_TRUE(
      LineSearchDescent({.direction = DescentDirection::RandomDirection, .seed = 1}).minimize(q.objective, q.x0).value <
      0);

  // `.coordinate_minimizer = [](const Vector& x, Index j) { … }`: exact x_j for ½xᵀAx − bᵀx.
  const Tensor A = q.A;
  const Vector b = q.b;
  const Result cd =
      minimize(q.objective, q.x0, CoordinateDescentOptions{.coordinate_minimizer = [A, b](const Vector& x, Index j) {
                 return (b[j] - A.row(j).dot(x) + A(j, j) * x[j]) / A(j, j);
               }});
  EXPECT_TRUE(cd.converged());
  EXPECT_LT((cd.x - q.solution()).norm(), 1e-8);
  EXPECT_TRUE(CoordinateDescent({.order = CoordinateOrder::Random, .seed = 1}).minimize(q.objective, q.x0).converged());

  // `.box = Box::nonnegative(p)` or `Box{lower, upper}`; a fixed `.schedule`.
  const Index p = 3;
  const Result pg = minimize(q.objective, q.x0, ProjectedGradientOptions{.box = Box::nonnegative(p)});
  EXPECT_TRUE(pg.converged());
  EXPECT_GE(pg.x.minCoeff(), 0);
  const Vector lower = Vector::Constant(p, -0.1), upper = Vector::Constant(p, 0.5);
  const Result boxed = minimize(q.objective, q.x0, ProjectedGradientOptions{.box = Box{lower, upper}});
  EXPECT_LE(boxed.x.maxCoeff(), 0.5);
  EXPECT_GE(boxed.x.minCoeff(), -0.1);
  EXPECT_LE(ProjectedGradient({.box = Box{lower, upper}, .schedule = StepSchedule::constant(0.1)})
                .minimize(q.objective, q.x0)
                .x.maxCoeff(),
            0.5);
}

// docs/optim.md, "Callbacks".
TEST(OptimDocSnippets, Callbacks) {
  DocsQuadratic q;
  FunctionObjective& f = q.objective;
  const Vector& x0 = q.x0;
  const LbfgsOptions options{};
  const auto score = [&](const Vector& x) { return (x - q.solution()).norm(); };
  HistoryRecorder history;
  EarlyStopping early(score, {.patience = 5, .min_delta = 0, .restore_best = true});
  TimeLimit limit(60);
  Result r = minimize(f, x0, options, history, early, limit);
  EXPECT_TRUE(r.converged());
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  LossPrinter printer(1, out);
  FunctionCallback stop_at_two([](const IterationInfo& info) { return info.iteration < 2; });
  EXPECT_EQ(minimize(f, x0, GradientStep({}), {}, printer, stop_at_two).status, Status::CallbackStop);
  std::fclose(out);
}

// docs/optim.md, "Writing an iterative fitter: `IterationLoop`": gradient descent with α = 0.2.
Result docs_iteration_loop_fitter(Objective& objective, Vector x, const StopOptions& stop,
                                  const CallbackList& callbacks) {
  Vector g;
  Scalar f = objective.value_and_gradient(x, g);
  Index evaluations = 1;
  // clang-format off
  IterationLoop loop(stop, callbacks);                  // StopOptions; or (stop, shared CallbackRunner&)
  if (loop.guard("f or gradient", f, g) && loop.start(x, f, g.norm())) {
    for (;;) {
      const Vector x_prev = x;
      const Scalar f_prev = f;
      x -= 0.2 * g;
      f = objective.value_and_gradient(x, g);
      ++evaluations;
      if (!loop.guard("f or gradient", f, g, x)) { x = x_prev; f = f_prev; break; }   // NaN guard
      if (loop.next(f_prev, f, x_prev, x, g.norm())) break;    // history, callbacks, Note [Stopping rules]
    }
  }
  Result r;  r.x = x;  r.value = f;  r.evaluations = evaluations;
  return loop.finish(std::move(r));                      // count, status, message, history, on_end
  // clang-format on
}

TEST(OptimDocSnippets, IterationLoop) {
  DocsQuadratic q;
  HistoryRecorder history;
  const Result r =
      docs_iteration_loop_fitter(q.objective, q.x0, {.max_iterations = 500, .gradient_tolerance = 1e-9}, {&history});
  EXPECT_EQ(r.status, Status::GradientTolerance);
  EXPECT_LT((r.x - q.solution()).norm(), 1e-8);
  EXPECT_EQ(static_cast<Index>(history.values().size()), r.iterations + 1);
}

}  // namespace
}  // namespace dagml
