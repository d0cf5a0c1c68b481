// k-fold cross-validation of any estimator, folds run in parallel (TBB).
//
//   Vector scores = cross_val_score(Ridge({.lambda = 1}), X, y, KFold(X.rows(), {.k = 5, .shuffle = true}));
//
// Note [Deterministic model selection]
// Every (configuration, fold) pair is an independent task: a fresh copy of the estimator is fitted
// on the fold's training rows and scored on its test rows, and the score is written to its own
// slot. Nothing is reduced across tasks while they run, so the result is bitwise identical for
// any thread count, and to a serial loop. Estimators must therefore be copyable and must not share
// mutable state between copies.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <concepts>
#include <functional>
#include <vector>

#include "graph/chunked_sum.h"
#include "graph/communicator.h"
#include "graph/error.h"
#include "graph/tensor.h"
#include "models/data/folds.h"
#include "models/data/split.h"

namespace dagml {

// What model selection needs of an estimator: copyable, fit(X, y), and score(X, y) (higher is
// better: R² for regressors, accuracy for classifiers).
template <class E>
concept SupervisedEstimator = std::copy_constructible<E> && requires(E e, const E ce, const Tensor& X, const Vector& y) {
  e.fit(X, y);
  { ce.score(X, y) } -> std::convertible_to<Scalar>;
};

// Fits `model` on the fold's training rows and returns its score on the test rows (and, when
// train_score is given, writes its score on the training rows there).
template <class Model>
Scalar fold_score(Model& model, const Tensor& X, const Vector& y, const Fold& fold, Scalar* train_score = nullptr) {
  const Tensor X_train = take_rows(X, fold.train);
  const Vector y_train = take_rows(y, fold.train);
  model.fit(X_train, y_train);
  if (train_score != nullptr) *train_score = model.score(X_train, y_train);
  return model.score(take_rows(X, fold.test), take_rows(y, fold.test));
}

namespace detail {

struct GridScores {
  Tensor validation;  // configurations × folds
  Tensor train;       // the same, filled only when asked for
};

// Fits make(c) on the training rows of every fold for every configuration c in [0, count) and
// scores it on the test rows (and on the training rows when with_train). Parallel over the
// count × k pairs (Note [Deterministic model selection]). Over the ranks of `comm` (null: this
// process alone), pair t = c·k + f goes to the rank whose block of the pairs (cut into
// comm.size() consecutive blocks) holds t; each rank fits its pairs in parallel and one allgather
// gives every rank every score. Each score is computed on its own, so the scores are bitwise the
// same for any ranks × threads.
template <class Make>
GridScores evaluate_grid(Index count, Make make, const Tensor& X, const Vector& y, const Folds& folds, bool with_train,
                         const char* who, Communicator* comm = nullptr) {
  if (folds.num_samples() != X.rows() || y.size() != X.rows()) {
    throw ShapeError(fmt::format("{}: expected X ({} rows), y ({}) and the folds ({} samples) to agree", who, X.rows(),
                                 y.size(), folds.num_samples()));
  }
  if (count < 1) throw ValueError(fmt::format("{}: expected at least one configuration, found none", who));
  SingleProcessCommunicator single;
  Communicator& world = comm != nullptr ? *comm : single;
  const Index k = folds.num_folds(), pairs = count * k, width = with_train ? 2 : 1;
  std::vector<Fold> parts;
  for (const Fold& f : folds) parts.push_back(f);
  // This rank's pairs, each as [validation score, training score when with_train].
  const IndexRange mine = even_split(pairs, world.size(), world.rank());
  std::vector<double> local(static_cast<std::size_t>(mine.size() * width));
  tbb::parallel_for(tbb::blocked_range<Index>(mine.begin, mine.end, 1), [&](const tbb::blocked_range<Index>& range) {
    for (Index t = range.begin(); t < range.end(); ++t) {
      auto model = make(t / k);
      double* slot = local.data() + (t - mine.begin) * width;
      slot[0] = fold_score(model, X, y, parts[static_cast<std::size_t>(t % k)], with_train ? slot + 1 : nullptr);
    }
  });
  std::vector<Index> counts;
  for (int r = 0; r < world.size(); ++r) counts.push_back(even_split(pairs, world.size(), r).size() * width);
  std::vector<double> all(static_cast<std::size_t>(pairs * width));
  world.allgather(local, counts, all);
  GridScores out;
  out.validation.resize(count, k);
  if (with_train) out.train.resize(count, k);
  for (Index t = 0; t < pairs; ++t) {
    out.validation(t / k, t % k) = all[static_cast<std::size_t>(t * width)];
    if (with_train) out.train(t / k, t % k) = all[static_cast<std::size_t>(t * width + 1)];
  }
  return out;
}

}  // namespace detail

// The score of `estimator` (copied, then fitted) on each test fold, in fold order: length k.
// Throws ShapeError when X, y and the folds disagree on the number of samples; whatever the
// estimator's fit or score throws is rethrown.
template <SupervisedEstimator E>
Vector cross_val_score(const E& estimator, const Tensor& X, const Vector& y, const Folds& folds) {
  const auto scores = detail::evaluate_grid(
      1, [&](Index) { return estimator; }, X, y, folds, false, "cross_val_score");
  return scores.validation.row(0).transpose();
}

// The same with KFold(X.rows(), options).
template <SupervisedEstimator E>
Vector cross_val_score(const E& estimator, const Tensor& X, const Vector& y, const KFoldOptions& options = {}) {
  return cross_val_score(estimator, X, y, KFold(X.rows(), options));
}

// The same with the folds spread over the ranks of `comm` (detail::evaluate_grid): the same scores,
// bit for bit, on every rank. Every rank passes the same arguments and holds X and y (the folds
// need every row).
template <SupervisedEstimator E>
Vector cross_val_score(Communicator& comm, const E& estimator, const Tensor& X, const Vector& y, const Folds& folds) {
  const auto scores = detail::evaluate_grid(
      1, [&](Index) { return estimator; }, X, y, folds, false, "cross_val_score", &comm);
  return scores.validation.row(0).transpose();
}

}  // namespace dagml
