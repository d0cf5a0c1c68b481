// Perceptron: the notes' worked cases (notes001_003.md D8), convergence on separable data,
// scikit-learn's rule, the averaged variant, the iteration limit, errors and save/load.
#include <gtest/gtest.h>

#include <filesystem>

#include "graph/error.h"
#include "models/classify/perceptron.h"
#include "models/data/datasets.h"
#include "optim/callbacks.h"
#include "discriminative_test_util.h"

namespace dagml {
namespace {

using test::rows;
using test::vec;

// Notes 001 Algorithm 4 as in D8: β₀ = y₁x̃₁, update on the lowest-index violator, strict < 0.
PerceptronOptions notes001() {
  return {.strict = true, .order = PerceptronOrder::LowestViolator, .init = PerceptronInit::FirstSample};
}

TEST(Perceptron, NotesCaseP2OneUpdate) {
  Perceptron p(notes001());
  p.fit(rows({{1, 1}, {2, -1}, {-1, 2}, {-1, -1}}), vec({1, 1, 0, 0}));
  EXPECT_EQ(p.coef(), vec({2, -1}));  // w = (2, −1, 0)
  EXPECT_EQ(p.intercept(), 0.0);
  EXPECT_EQ(p.num_updates(), 1);
  EXPECT_TRUE(p.converged());
  EXPECT_EQ(p.decision_function(rows({{1, 1}, {2, -1}, {-1, 2}, {-1, -1}})), vec({1, 5, -4, -1}));
}

// P1: the fourth point (0,0) ends exactly on the boundary: margin 0 is not a violation.
TEST(Perceptron, NotesCaseP1StopsWithAPointOnTheBoundary) {
  Perceptron p(notes001());
  const Tensor X = rows({{1, 1}, {2, -1}, {-1, 2}, {0, 0}});
  p.fit(X, vec({1, 1, 0, 0}));
  EXPECT_EQ(p.coef(), vec({2, -1}));
  EXPECT_EQ(p.num_updates(), 1);
  EXPECT_EQ(p.decision_function(X)(3), 0.0);
  // f = 0: class 1 by default (scikit-learn), class 0 under notes 001's f ≤ 0 rule.
  EXPECT_EQ(p.predict(X)(3), 1.0);
  PerceptronOptions o = notes001();
  o.zero = ZeroScore::Negative;
  EXPECT_EQ(Perceptron(o).fit(X, vec({1, 1, 0, 0})).predict(X)(3), 0.0);
}

TEST(Perceptron, NotesCaseP3TwoUpdates) {
  Perceptron p(notes001());
  p.fit(rows({{0, 2}, {2, 0}, {3, 3}, {-1, -1}, {0, -1}}), vec({0, 1, 1, 0, 0}));
  EXPECT_EQ(p.coef(), vec({2, -1}));  // w = (2, −1, −1)
  EXPECT_EQ(p.intercept(), -1.0);
  EXPECT_EQ(p.num_updates(), 2);
}

// Cyclic order, β₀ = 0, update when y f ≤ 0, on P2 (worked by hand): the iterates after each
// visit are (1,1,1), (1,1,1), (2,−1,0), (2,−1,0), then 4 × (2,−1,0) in a clean second epoch, so
// the averaged β is (14, −4, 2)/8.
TEST(Perceptron, CyclicAndAveraged) {
  const Tensor X = rows({{1, 1}, {2, -1}, {-1, 2}, {-1, -1}});
  const Vector y = vec({1, 1, 0, 0});
  Perceptron p;
  p.fit(X, y);
  EXPECT_EQ(p.coef(), vec({2, -1}));
  EXPECT_EQ(p.intercept(), 0.0);
  EXPECT_EQ(p.num_epochs(), 2);
  EXPECT_EQ(p.num_updates(), 2);
  Perceptron a({.averaged = true});
  a.fit(X, y);
  EXPECT_EQ(a.coef(), vec({1.75, -0.5}));
  EXPECT_EQ(a.intercept(), 0.25);
  // With the notes' strict rule β = 0 never moves (notes 004 §2.4.3's pitfall).
  Perceptron stuck({.max_epochs = 5, .strict = true});
  stuck.fit(X, y);
  EXPECT_EQ(stuck.num_updates(), 0);
  EXPECT_TRUE(stuck.coef().isZero());
}

// Reference: scikit-learn 1.2.1, Perceptron(shuffle=False, tol=None, max_iter=100,
// eta0=1.0).fit(X, y) on iris rows 0..99 (setosa vs versicolor, linearly separable):
// coef_ = [−1.3, −4.1, 5.2, 2.2], intercept_ = −1, training accuracy 1.
TEST(Perceptron, ConvergesOnSeparableIrisLikeScikitLearn) {
  const Dataset iris = load_dataset("iris");
  const Tensor X = iris.features.topRows(100);
  const Vector y = iris.target.head(100);
  Perceptron p;
  p.fit(X, y);
  EXPECT_TRUE(p.converged());
  EXPECT_TRUE(p.coef().isApprox(vec({-1.3, -4.1, 5.2, 2.2}), 1e-12));
  EXPECT_NEAR(p.intercept(), -1.0, 1e-12);
  EXPECT_EQ(p.score(X, y), 1.0);
  for (auto order : {PerceptronOrder::Cyclic, PerceptronOrder::LowestViolator}) {
    Perceptron q({.order = order, .shuffle = order == PerceptronOrder::Cyclic, .seed = 7});
    q.fit(X, y);
    EXPECT_TRUE(q.converged());
    EXPECT_EQ(q.score(X, y), 1.0);
  }
}

TEST(Perceptron, NonSeparableDataStopsAtTheLimit) {
  Perceptron p({.max_epochs = 20});
  p.fit(rows({{0}, {1}, {2}, {3}}), vec({0, 1, 0, 1}));
  EXPECT_FALSE(p.converged());
  EXPECT_EQ(p.num_epochs(), 20);
  Perceptron q({.max_epochs = 3, .order = PerceptronOrder::LowestViolator});
  q.fit(rows({{0}, {1}, {2}, {3}}), vec({0, 1, 0, 1}));
  EXPECT_FALSE(q.converged());
  EXPECT_EQ(q.num_updates(), 12);
}

TEST(Perceptron, SameSeedSameModel) {
  const Dataset iris = load_dataset("iris");
  const Tensor X = iris.features.topRows(100);
  const Vector y = iris.target.head(100);
  Perceptron a({.shuffle = true, .seed = 3, .averaged = true}), b({.shuffle = true, .seed = 3, .averaged = true});
  EXPECT_EQ(a.fit(X, y).coef(), b.fit(X, y).coef());
}

TEST(Perceptron, BadInputAndSaveLoad) {
  EXPECT_THROW(Perceptron({.learning_rate = 0}), ValueError);
  EXPECT_THROW(Perceptron({.max_epochs = 0}), ValueError);
  Perceptron p;
  EXPECT_THROW(p.predict(rows({{1}})), NotFittedError);
  EXPECT_THROW(p.fit(rows({{0}, {1}}), vec({1, 1})), ValueError);
  EXPECT_THROW(p.fit(rows({{0}, {1}, {2}}), vec({0, 1, 2})), ValueError);  // 3 classes
  EXPECT_THROW(p.fit(rows({{0}, {1}}), vec({0, -1})), ValueError);
  EXPECT_THROW(p.fit(rows({{0}, {std::nan("")}}), vec({0, 1})), ValueError);
  EXPECT_THROW(p.fit(rows({{0}, {1}}), vec({0, 1, 1})), ShapeError);
  p.fit(rows({{1, 1}, {2, -1}, {-1, 2}, {-1, -1}}), vec({1, 1, 0, 0}));
  EXPECT_THROW(p.predict(rows({{1}})), ShapeError);
  const std::string path = (std::filesystem::temp_directory_path() / "dagml_perceptron_test.model").string();
  p.save(path);
  const Perceptron back = Perceptron::load(path);
  std::filesystem::remove(path);
  EXPECT_EQ(back.coef(), p.coef());
  EXPECT_EQ(back.intercept(), p.intercept());
}

// The callback protocol (optim/callbacks.h): one call per epoch (Cyclic) or pass of n updates
// (LowestViolator) with the mistakes as the value and the β fit() would return as x; a Stop after
// epoch k leaves exactly the model of max_epochs = k, reported as CallbackStop.
TEST(Perceptron, CallbackStopsAfterTheEpochItAskedFor) {
  const Tensor X = rows({{0}, {1}, {2}, {3}});  // not separable: never converges
  const Vector y = vec({0, 1, 0, 1});
  for (const PerceptronOrder order : {PerceptronOrder::Cyclic, PerceptronOrder::LowestViolator}) {
    for (const bool averaged : {false, true}) {
      const PerceptronOptions o{.order = order, .averaged = averaged};
      std::vector<Index> seen;
      std::vector<Scalar> values;
      Vector last_x;
      FunctionCallback stop_at_3([&](const IterationInfo& info) {
        seen.push_back(info.iteration);
        values.push_back(info.value);
        last_x = *info.x;
        return info.iteration < 3;
      });
      Perceptron stopped(o);
      stopped.fit(X, y, {&stop_at_3});
      PerceptronOptions three = o;
      three.max_epochs = 3;
      Perceptron capped(three);
      capped.fit(X, y);
      EXPECT_EQ(seen, (std::vector<Index>{1, 2, 3}));
      EXPECT_EQ(stopped.fit_result().status, Status::CallbackStop);
      EXPECT_EQ(capped.fit_result().status, Status::MaxIterations);
      EXPECT_FALSE(stopped.converged());
      EXPECT_EQ(stopped.num_epochs(), 3);
      EXPECT_EQ(stopped.num_updates(), capped.num_updates());
      EXPECT_EQ(stopped.coef(), capped.coef());
      EXPECT_EQ(stopped.intercept(), capped.intercept());
      EXPECT_EQ(last_x, vec({stopped.coef()(0), stopped.intercept()}));
      for (const Scalar v : values) EXPECT_GE(v, 1);  // every epoch (pass) leaves a mistake
      EXPECT_EQ(stopped.fit_result().history.size(), 4u);
    }
  }
  // Cyclic: the value is the epoch's mistakes, so their sum is the number of updates.
  Index mistakes = 0;
  FunctionCallback count([&](const IterationInfo& info) {
    mistakes += static_cast<Index>(info.value);
    return true;
  });
  Perceptron p({.max_epochs = 7});
  p.fit(X, y, {&count});
  EXPECT_EQ(mistakes, p.num_updates());
}

}  // namespace
}  // namespace dagml
