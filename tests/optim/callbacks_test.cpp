#include "optim/callbacks.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "optim/gradient_descent.h"
#include "optim/lbfgs.h"
#include "optim/test_problems.h"

namespace dagml {
namespace {

TEST(Callbacks, HistoryRecorderMatchesResultAndWritesCsv) {
  FunctionObjective f = testing::rosenbrock();
  HistoryRecorder history;
  const Result r = minimize(f, (Vector(2) << -1.2, 1).finished(), LbfgsOptions{}, history);
  EXPECT_EQ(history.values(), r.history);
  EXPECT_EQ(history.gradient_norms().size(), r.history.size());
  EXPECT_EQ(history.gradient_norms().back(), r.gradient_norm);
  const std::string path = ::testing::TempDir() + "optim_history.csv";
  history.write_csv(path);
  std::ifstream in(path);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "iteration,value,gradient_norm,seconds");
  // The start has no gradient norm: an empty field, never "nan"; later rows carry the number.
  std::string first, second;
  std::getline(in, first);
  std::getline(in, second);
  EXPECT_EQ(first.substr(0, 2), "0,");
  EXPECT_NE(first.find(",,"), std::string::npos) << first;
  EXPECT_EQ(first.find("nan"), std::string::npos) << first;
  EXPECT_EQ(second.find(",,"), std::string::npos) << second;
  int lines = 2;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, static_cast<int>(r.history.size()));
  EXPECT_THROW(history.write_csv("/nonexistent-dir/x.csv"), IoError);
}

TEST(Callbacks, EarlyStoppingRestoresTheBestIterate) {
  // Minimise ½‖x‖² from (4, 4); the "validation score" ‖x − (1, 1)‖² is best near (1, 1).
  FunctionObjective f = testing::quadratic(Tensor::Identity(2, 2), Vector::Zero(2));
  EarlyStopping early([](const Vector& x) { return (x - Vector::Ones(2)).squaredNorm(); }, {.patience = 3});
  const Result r =
      minimize(f, Vector::Constant(2, 4), GradientStep({.schedule = StepSchedule::constant(0.1)}), {}, early);
  EXPECT_EQ(r.status, Status::CallbackStop);
  EXPECT_NE(r.message.find("early stopping"), std::string::npos);
  // x_t = 4·0.9ᵗ; the score is best at t = 13 (x = 1.016…), then 3 iterations without improvement.
  EXPECT_EQ(early.best_iteration(), 13);
  EXPECT_EQ(r.iterations, 16);
  EXPECT_NEAR(r.x[0], 4 * std::pow(0.9, 13), 1e-12);
  EXPECT_NEAR(r.value, r.x.squaredNorm() / 2, 1e-12);
  EXPECT_THROW(EarlyStopping(nullptr), ValueError);
  EXPECT_THROW(EarlyStopping([](const Vector&) { return 0.0; }, {.patience = 0}), ValueError);
}

TEST(Callbacks, TimeLimitLossPrinterAndFunctionCallback) {
  FunctionObjective f = testing::quadratic(testing::ill_conditioned_A(), testing::ill_conditioned_b());
  TimeLimit limit(1e-9);
  Result r = minimize(f, Vector::Zero(10), GradientStep({.schedule = StepSchedule::constant(1e-4)}), {}, limit);
  EXPECT_EQ(r.status, Status::CallbackStop);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_NE(r.message.find("time limit"), std::string::npos);
  EXPECT_THROW(TimeLimit(0), ValueError);

  std::FILE* out = std::tmpfile();
  LossPrinter printer(2, out);
  ProgressBar bar;  // silent: the test's stdout is not a terminal
  int calls = 0;
  FunctionCallback count([&](const IterationInfo&) { return ++calls < 5; });
  r = minimize(f, Vector::Zero(10), GradientStep({.schedule = StepSchedule::constant(1e-4)}), {}, printer, bar, count);
  EXPECT_EQ(r.iterations, 5);
  std::rewind(out);
  char buf[4096] = {};
  const std::size_t n = std::fread(buf, 1, sizeof(buf) - 1, out);
  std::fclose(out);
  const std::string text(buf, n);
  EXPECT_NE(text.find("iter      2"), std::string::npos);
  EXPECT_NE(text.find("iter      4"), std::string::npos);
  EXPECT_EQ(text.find("iter      3"), std::string::npos);
  EXPECT_THROW(LossPrinter(0), ValueError);
}

}  // namespace
}  // namespace dagml
