// Tests for MetricMDS and the stress of mds_stress.h: the notes' worked stress example,
// scikit-learn 1.2.1's SMACOF from the same start (metric_mds_reference.py), SMACOF's monotone
// stress, SMACOF against L-BFGS on the stress graph, exact recovery of 2-D Euclidean distances,
// restarts, the placement of new objects, callbacks and bad input.
#include "models/decompose/metric_mds.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "autodiff/derivatives.h"
#include "graph/error.h"
#include "graph/graph.h"
#include "graph/random.h"
#include "graph/threads.h"
#include "literals.h"
#include "models/data/datasets.h"
#include "models/decompose/classical_mds.h"
#include "models/decompose/dissimilarity.h"
#include "models/decompose/mds_stress.h"
#include "models/decompose/metric_mds_reference.h"

namespace dagml {
namespace {

using ::testing::HasSubstr;
using testing::kNaN;
using testing::rows;
namespace mds_ref = metric_mds_reference;

// The reference start of metric_mds_reference.py: Z0[i, c] = sin(0.7 (i + 1) (c + 1)).
Tensor reference_start(Index n) {
  Tensor Z0(n, 2);
  for (Index i = 0; i < n; ++i)
    for (Index c = 0; c < 2; ++c) Z0(i, c) = std::sin(0.7 * static_cast<double>((i + 1) * (c + 1)));
  return Z0;
}

Tensor reference_embedding(const double* values, Index n) { return Eigen::Map<const Tensor>(values, n, 2); }

Tensor first_rows(const char* dataset, Index n) { return load_dataset(dataset).features.topRows(n); }

// The largest entry of |a − b| relative to the largest of |b|.
double relative_difference(const Tensor& a, const Tensor& b) {
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

TEST(MdsStress, WorkedExampleOfTheNotes) {
  // Notes 002 §2.2: codes (0,0), (3,0), (0,4) at distances 3, 4, 5 against δ = 3, 4, 6:
  // σ = 0 + 0 + 1, R = 1 with N = 1; stress-1 = (1 / (9 + 16 + 36))^{1/2}.
  const Tensor Z = rows({{0, 0}, {3, 0}, {0, 4}});
  const Tensor delta = rows({{0, 3, 4}, {3, 0, 6}, {4, 6, 0}});
  EXPECT_DOUBLE_EQ(mds_raw_stress(Z, delta), 1.0);
  EXPECT_DOUBLE_EQ(mds_stress(Z, delta), 1.0);
  EXPECT_DOUBLE_EQ(mds_stress(Z, delta, 4.0), 0.5);
  EXPECT_DOUBLE_EQ(kruskal_stress_1(Z, delta), 1 / std::sqrt(61.0));
  EXPECT_DOUBLE_EQ(dissimilarity_sum_of_squares(delta), 61.0);
  Graph g;
  const Var codes = g.parameter("Z", Z);
  const Var stress = mds_raw_stress(codes, delta);
  EXPECT_DOUBLE_EQ(stress.value()(0, 0), 1.0);
  // ∇σ = 2 Σ_j (1 − δ_ij/d_ij)(z_i − z_j): only the pair (1, 2) is off, with 1 − 6/5 = −1/5, so
  // ∇_{z_1} = −(2/5)(3, −4), ∇_{z_2} = −(2/5)(−3, 4), ∇_{z_0} = 0 (by hand).
  const Tensor gradient = gradients(stress, {codes})[0].value();
  const Tensor expected = rows({{0, 0}, {-1.2, 1.6}, {1.2, -1.6}});
  EXPECT_LT((gradient - expected).cwiseAbs().maxCoeff(), 1e-15);
  // The gradient is 2 (V Z − B(Z) Z), with V Z = n Z − 1 1ᵀ Z and B(Z) Z = n times the Guttman
  // transform; the same pass gives σ(Z).
  const GuttmanPass pass = guttman_pass(Z, delta);
  const Tensor VZ = 3 * Z - Tensor::Ones(3, 3) * Z;
  EXPECT_LT((gradient - 2 * (VZ - 3 * pass.transform)).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_DOUBLE_EQ(pass.stress, 1.0);
}

TEST(MdsStress, CoincidentCodesHaveTheMinimumNormSubgradient) {
  // z_0 = z_1 with δ_01 = 2: the pair's term has no gradient (Note [Coincident points]); the
  // value is exact, (0 − 2)² + …, and nothing is NaN. By hand with z_2 = (3, 4), δ_02 = δ_12 = 5
  // (exact): σ = 4 and ∇ = 0; with δ_12 = 4 instead: σ = 4 + 1, ∇_{z_1} = 2(1 − 4/5)(−3, −4).
  const Tensor Z = rows({{0, 0}, {0, 0}, {3, 4}});
  Graph g;
  const Var codes = g.parameter("Z", Z);
  const Var exact = mds_raw_stress(codes, rows({{0, 2, 5}, {2, 0, 5}, {5, 5, 0}}));
  EXPECT_DOUBLE_EQ(exact.value()(0, 0), 4.0);
  // SMACOF's pass: the same σ, and b_01 = 0 keeps the transform finite; here B(Z) Z = V Z (∇ = 0),
  // so the transform is Z − mean(Z) = Z − (1, 4/3).
  const GuttmanPass pass = guttman_pass(Z, rows({{0, 2, 5}, {2, 0, 5}, {5, 5, 0}}));
  EXPECT_DOUBLE_EQ(pass.stress, 4.0);
  EXPECT_LT((pass.transform - rows({{-1, -4.0 / 3}, {-1, -4.0 / 3}, {2, 8.0 / 3}})).cwiseAbs().maxCoeff(), 1e-15);
  const Tensor gradient_exact = gradients(exact, {codes})[0].value();
  EXPECT_TRUE(gradient_exact.allFinite());
  EXPECT_EQ(gradient_exact.cwiseAbs().maxCoeff(), 0.0);
  const Var off = mds_raw_stress(codes, rows({{0, 2, 5}, {2, 0, 4}, {5, 4, 0}}));
  EXPECT_DOUBLE_EQ(off.value()(0, 0), 5.0);
  const Tensor gradient_off = gradients(off, {codes})[0].value();
  const Tensor expected = rows({{0, 0}, {-1.2, -1.6}, {1.2, 1.6}});
  EXPECT_LT((gradient_off - expected).cwiseAbs().maxCoeff(), 1e-15);
}

// scikit-learn's smacof from Z0 for exactly 25 transforms (tolerance off): the same embedding, the
// same stress of it, and history[24] is scikit-learn's stress_ (the iterate before the last, σ
// summed over i < j).
void expect_fixed_run_matches(const MetricMDSOptions& options, const Tensor& X, Index n, const double* embedding,
                              double raw_stress, double sklearn_stress) {
  MetricMDS mds(options);
  const Tensor Z = mds.fit_transform(X);
  EXPECT_EQ(mds.num_iter(), 25);
  EXPECT_FALSE(mds.converged());
  EXPECT_EQ(mds.fit_result().status, Status::MaxIterations);
  EXPECT_LT(relative_difference(Z, reference_embedding(embedding, n)), 1e-10);
  EXPECT_NEAR(mds.raw_stress(), raw_stress, 1e-10 * raw_stress);
  ASSERT_EQ(mds.fit_result().history.size(), 26u);
  EXPECT_NEAR(mds.fit_result().history[24], sklearn_stress, 1e-10 * sklearn_stress);
}

TEST(MetricMDS, MatchesScikitLearnSmacofForTheSameIterations) {
  const Index n_iris = 60, n_digits = 40;
  expect_fixed_run_matches({.init = MetricMDSInit::Given,
                            .initial_embedding = reference_start(n_iris),
                            .max_iterations = 25,
                            .tolerance = 0},
                           first_rows("iris", n_iris), n_iris, mds_ref::k_iris_fixed_embedding,
                           mds_ref::k_iris_fixed_raw_stress, mds_ref::k_iris_fixed_sklearn_stress);
  const Tensor digits = first_rows("digits", n_digits);
  expect_fixed_run_matches({.dissimilarity = Dissimilarity::Precomputed,
                            .init = MetricMDSInit::Given,
                            .initial_embedding = reference_start(n_digits),
                            .max_iterations = 25,
                            .tolerance = 0},
                           euclidean_distances(digits, digits), n_digits, mds_ref::k_digits_fixed_embedding,
                           mds_ref::k_digits_fixed_raw_stress, mds_ref::k_digits_fixed_sklearn_stress);
}

TEST(MetricMDS, StopsWhereScikitLearnsRuleStops) {
  // eps = 1e-3 (the default tolerance) and max_iter = 300: scikit-learn stops after 123 (iris)
  // and 241 (digits) transforms; so does dagml, with the same embedding.
  for (const auto& [name, n, iterations, embedding, raw_stress] :
       {std::tuple{"iris", Index{60}, mds_ref::k_iris_rule_iterations, mds_ref::k_iris_rule_embedding,
                   mds_ref::k_iris_rule_raw_stress},
        std::tuple{"digits", Index{40}, mds_ref::k_digits_rule_iterations, mds_ref::k_digits_rule_embedding,
                   mds_ref::k_digits_rule_raw_stress}}) {
    MetricMDS mds({.init = MetricMDSInit::Given, .initial_embedding = reference_start(n)});
    mds.fit(first_rows(name, n));
    EXPECT_EQ(mds.num_iter(), iterations) << name;
    EXPECT_TRUE(mds.converged()) << name;
    EXPECT_EQ(mds.fit_result().status, Status::ValueTolerance) << name;
    EXPECT_LT(relative_difference(mds.embedding(), reference_embedding(embedding, n)), 1e-9) << name;
    EXPECT_NEAR(mds.raw_stress(), raw_stress, 1e-9 * raw_stress) << name;
  }
}

TEST(MetricMDS, SmacofStressNeverIncreases) {
  // Checked at every iteration through a callback, from the classical and from random starts.
  const Tensor X = first_rows("iris", 60);
  for (MetricMDSInit init : {MetricMDSInit::Classical, MetricMDSInit::Random}) {
    Scalar previous = std::numeric_limits<Scalar>::infinity();
    Index seen = 0, increases = 0;
    FunctionCallback monotone([&](const IterationInfo& info) {
      if (info.value > previous * (1 + 1e-13)) ++increases;
      previous = info.value;
      ++seen;
      return true;
    });
    MetricMDS mds({.init = init, .max_iterations = 400, .tolerance = 0, .seed = 3});
    mds.fit(X, {&monotone});
    EXPECT_EQ(seen, 400);
    EXPECT_EQ(increases, 0) << enum_name(init);
    const std::vector<Scalar>& history = mds.fit_result().history;
    EXPECT_LT(history.back(), history.front());
  }
}

TEST(MetricMDS, SmacofAndGradientAgreeFromTheSameStart) {
  // Iris rows 0..59 and digits rows 0..39 from the classical start: SMACOF run to a standstill and
  // L-BFGS on the stress graph reach the same minimum (σ within 1e-6 relative, the same pairwise
  // distances, since each embedding is defined up to a rotation).
  for (const auto& [name, n] : {std::pair{"iris", Index{60}}, std::pair{"digits", Index{40}}}) {
    const Tensor X = first_rows(name, n);
    MetricMDS smacof({.max_iterations = 3000, .tolerance = 0});
    // ‖∇σ‖ ≤ 1e-8 ‖δ‖: near 1e-9 ‖δ‖ the line search's steps round to no change on digits (the
    // run then stalls, truthfully, at ‖∇σ‖ ≈ 7e-9 ‖δ‖).
    MetricMDS gradient({.solver = MetricMDSSolver::Gradient, .max_iterations = 5000, .gradient_tolerance = 1e-8});
    const Tensor Zs = smacof.fit_transform(X);
    const Tensor Zg = gradient.fit_transform(X);
    EXPECT_TRUE(gradient.converged()) << name << ": " << gradient.fit_result().message;
    EXPECT_NEAR(gradient.raw_stress(), smacof.raw_stress(), 1e-6 * smacof.raw_stress()) << name;
    EXPECT_LT(relative_difference(euclidean_distances(Zg, Zg), euclidean_distances(Zs, Zs)), 1e-4) << name;
    EXPECT_LT(Zg.colwise().mean().cwiseAbs().maxCoeff(), 1e-9 * Zg.cwiseAbs().maxCoeff()) << name;
    EXPECT_LT(Zs.colwise().mean().cwiseAbs().maxCoeff(), 1e-9 * Zs.cwiseAbs().maxCoeff()) << name;
    // The stress the model reports is that of its embedding, in the three normalisations.
    const Tensor delta = euclidean_distances(X, X);
    EXPECT_NEAR(gradient.raw_stress(), mds_raw_stress(Zg, delta), 1e-10 * gradient.raw_stress());
    EXPECT_NEAR(smacof.stress(), mds_stress(Zs, delta), 1e-10 * smacof.stress());
    EXPECT_NEAR(smacof.kruskal_stress(), kruskal_stress_1(Zs, delta), 1e-10 * smacof.kruskal_stress());
  }
}

TEST(MetricMDS, ReproducesTheDistancesOfPointsInThePlane) {
  // δ = Euclidean distances of 30 points in 2-D: a perfect embedding exists (σ = 0). Both solvers
  // reach it from random starts (the best of 4) and reproduce every distance.
  std::mt19937_64 rng(11);
  Tensor P(30, 2);
  for (Index i = 0; i < P.size(); ++i) P.data()[i] = 4 * standard_normal(rng);
  const Tensor delta = euclidean_distances(P, P);
  for (MetricMDSSolver solver : {MetricMDSSolver::Smacof, MetricMDSSolver::Gradient}) {
    MetricMDS mds({.dissimilarity = Dissimilarity::Precomputed,
                   .solver = solver,
                   .init = MetricMDSInit::Random,
                   .num_init = 4,
                   .max_iterations = 3000,
                   .tolerance = 0,
                   .gradient_tolerance = 1e-12,
                   .seed = 5});
    const Tensor Z = mds.fit_transform(delta);
    EXPECT_LT(mds.kruskal_stress(), 1e-7) << enum_name(solver);
    EXPECT_LT((euclidean_distances(Z, Z) - delta).cwiseAbs().maxCoeff(), 1e-6 * delta.maxCoeff()) << enum_name(solver);
  }
}

TEST(MetricMDS, RestartsKeepTheLowestStressWhateverTheThreadCount) {
  // Restart 0 of num_init = 4 is the run of num_init = 1 (same seed), so the best of four is no
  // worse; one and two threads give the same embedding, bit for bit.
  const Tensor X = first_rows("iris", 50);
  const MetricMDSOptions one{.init = MetricMDSInit::Random, .max_iterations = 100, .seed = 9};
  MetricMDSOptions four = one;
  four.num_init = 4;
  const Scalar single = MetricMDS(one).fit(X).raw_stress();
  const int before = num_threads();
  set_num_threads(1);
  MetricMDS serial(four);
  serial.fit(X);
  set_num_threads(2);
  MetricMDS parallel(four);
  parallel.fit(X);
  set_num_threads(before);
  EXPECT_LE(serial.raw_stress(), single);
  EXPECT_EQ(serial.to_bytes(), parallel.to_bytes());
  // With a callback attached the restarts run one after another in one session: the same result.
  HistoryRecorder history;
  MetricMDS watched(four);
  watched.fit(X, {&history});
  EXPECT_EQ(watched.to_bytes(), serial.to_bytes());
  EXPECT_GT(history.values().size(), 4u);
}

TEST(MetricMDS, PlacesNewObjectsAgainstTheTrainingEmbedding) {
  // Fitted to a standstill, each training object is a fixed point of the placement (Note [Placing
  // new objects]); the precomputed fit places rows of dissimilarities the same way; a new object
  // lands where its stress against the embedding is no larger than at its nearest neighbour's code.
  const Tensor X = first_rows("iris", 40);
  MetricMDS euclidean({.max_iterations = 3000, .tolerance = 0});
  euclidean.fit(X);
  EXPECT_LT(relative_difference(euclidean.transform(X), euclidean.embedding()), 1e-6);
  const Tensor delta = euclidean_distances(X, X);
  MetricMDS precomputed({.dissimilarity = Dissimilarity::Precomputed, .max_iterations = 3000, .tolerance = 0});
  precomputed.fit(delta);
  EXPECT_LT(relative_difference(precomputed.embedding(), euclidean.embedding()), 1e-12);
  const Tensor X_new = load_dataset("iris").features.middleRows(100, 5);
  const Tensor placed = euclidean.transform(X_new);
  const Tensor d_new = euclidean_distances(X_new, X);
  EXPECT_LT(relative_difference(precomputed.transform(d_new), placed), 1e-12);
  const Tensor& Y = euclidean.embedding();
  for (Index i = 0; i < X_new.rows(); ++i) {
    auto f = [&](const Tensor& z) {
      return ((euclidean_distances(z, Y).row(0) - d_new.row(i)).array().square()).sum();
    };
    Index nearest = 0;
    d_new.row(i).minCoeff(&nearest);
    EXPECT_LE(f(placed.row(i)), f(Y.row(nearest)));
  }
}

TEST(MetricMDS, CallbacksCanStopTheFit) {
  FunctionCallback stop_at_three([](const IterationInfo& info) { return info.iteration < 3; });
  for (MetricMDSSolver solver : {MetricMDSSolver::Smacof, MetricMDSSolver::Gradient}) {
    MetricMDS mds({.solver = solver});
    mds.fit(first_rows("iris", 30), {&stop_at_three});
    EXPECT_EQ(mds.num_iter(), 3) << enum_name(solver);
    EXPECT_FALSE(mds.converged());
    EXPECT_EQ(mds.fit_result().status, Status::CallbackStop);
  }
}

TEST(MetricMDS, RejectsBadInput) {
  EXPECT_THROW(MetricMDS({.num_components = 0}), ValueError);
  EXPECT_THROW(MetricMDS({.num_init = 2}), ValueError);  // classical start: one run
  EXPECT_THROW(MetricMDS({.max_iterations = 0}), ValueError);
  EXPECT_THROW(MetricMDS({.tolerance = -1}), ValueError);
  EXPECT_THROW(MetricMDS({.gradient_tolerance = kNaN}), ValueError);
  EXPECT_THROW(MetricMDS({.initial_embedding = rows({{0, 1}, {1, 0}})}), ValueError);  // not init = given
  EXPECT_THROW(MetricMDS({.init = MetricMDSInit::Given}), ValueError);                 // none given
  EXPECT_THROW(MetricMDS({.init = MetricMDSInit::Given, .initial_embedding = rows({{1, 1}, {1, 1}})}), ValueError);
  EXPECT_THROW(MetricMDS({.init = MetricMDSInit::Given, .initial_embedding = rows({{0, kNaN}, {1, 0}})}),
               ValueError);
  EXPECT_THROW(MetricMDS({.init = MetricMDSInit::Given, .initial_embedding = rows({{0, 1}, {1, 0}})})
                   .fit(rows({{0, 0}, {1, 0}, {0, 1}})),
               ShapeError);  // 2 rows for 3 objects

  const MetricMDSOptions precomputed{.num_components = 1, .dissimilarity = Dissimilarity::Precomputed};
  EXPECT_THAT([&] { MetricMDS(precomputed).fit(rows({{0, 1}, {2, 0}})); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("symmetric non-negative")));
  EXPECT_THAT([&] { MetricMDS(precomputed).fit(rows({{0, -1}, {-1, 0}})); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("symmetric non-negative")));
  EXPECT_THROW(MetricMDS(precomputed).fit(rows({{1, 1}, {1, 0}})), ValueError);        // diagonal
  EXPECT_THROW(MetricMDS(precomputed).fit(rows({{0, 1, 2}, {1, 0, 1}})), ShapeError);  // not square
  EXPECT_THROW(MetricMDS(precomputed).fit(rows({{0, kNaN}, {kNaN, 0}})), ValueError);
  EXPECT_THAT([&] { MetricMDS(precomputed).fit(rows({{0, 0}, {0, 0}})); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("dissimilarity > 0")));
  EXPECT_THROW(MetricMDS().fit(rows({{1, kNaN}, {1, 2}, {0, 0}})), ValueError);
  EXPECT_THAT([] { MetricMDS().fit(rows({{1, 2}})); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("at least 2 objects, found 1")));
  EXPECT_THAT([] { MetricMDS({.num_components = 3}).fit(rows({{0, 0}, {1, 0}, {0, 1}})); },
              ::testing::ThrowsMessage<ValueError>(HasSubstr("expected num_components < n = 3")));
  // Collinear points have one positive eigenvalue: no classical start in 2-D; a random one works.
  const Tensor line = rows({{0, 0}, {1, 1}, {2, 2}, {4, 4}});
  EXPECT_THAT([&] { MetricMDS().fit(line); }, ::testing::ThrowsMessage<ValueError>(HasSubstr("init = random")));
  EXPECT_NO_THROW(MetricMDS({.init = MetricMDSInit::Random}).fit(line));

  MetricMDS mds({.num_components = 1});
  EXPECT_THROW(mds.transform(rows({{1, 2}})), NotFittedError);
  EXPECT_THROW(mds.embedding(), NotFittedError);
  mds.fit(rows({{0, 0}, {1, 0}, {0, 2}}));
  EXPECT_THROW(mds.transform(rows({{1, 2, 3}})), ShapeError);
  MetricMDS fitted_precomputed(precomputed);
  fitted_precomputed.fit(rows({{0, 1, 2}, {1, 0, 1}, {2, 1, 0}}));
  EXPECT_THROW(fitted_precomputed.transform(rows({{1, -1, 2}})), ValueError);
}

}  // namespace
}  // namespace dagml
