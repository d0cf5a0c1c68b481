#include "models/ensemble/gradient_boosting.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/split.h"
#include "models/data/validate.h"
#include "optim/iteration_loop.h"

namespace dagml::boosting {

void validate_options(const BoostingOptions& o, const char* who) {
  auto fail = [who](std::string_view what, auto found) {
    throw ValueError(fmt::format("{}: expected {}, found {}", who, what, found));
  };
  auto finite_at_least = [&](Scalar v, Scalar low, std::string_view what) {
    if (!(v >= low) || !std::isfinite(v)) fail(what, v);
  };
  if (o.max_iterations < 1) fail("max_iterations ≥ 1", o.max_iterations);
  if (!(o.learning_rate > 0) || !std::isfinite(o.learning_rate)) fail("a finite learning_rate > 0", o.learning_rate);
  if (o.max_depth < 1 && o.max_depth != -1) fail("max_depth ≥ 1 or −1 (unlimited)", o.max_depth);
  if (o.max_leaf_nodes < 2 && o.max_leaf_nodes != -1) fail("max_leaf_nodes ≥ 2 or −1 (unlimited)", o.max_leaf_nodes);
  if (o.min_samples_leaf < 1) fail("min_samples_leaf ≥ 1", o.min_samples_leaf);
  finite_at_least(o.min_child_hessian, 0, "a finite min_child_hessian ≥ 0");
  finite_at_least(o.lambda, 0, "a finite lambda ≥ 0");
  finite_at_least(o.min_split_gain, 0, "a finite min_split_gain ≥ 0");
  if (o.max_bins < 2 || o.max_bins > tree::kMaxBins) fail("max_bins in [2, 255]", o.max_bins);
  if (!(o.subsample > 0 && o.subsample <= 1)) fail("subsample in (0, 1]", o.subsample);
  if (!(o.colsample > 0 && o.colsample <= 1)) fail("colsample in (0, 1]", o.colsample);
  if (!(o.validation_fraction > 0 && o.validation_fraction < 1)) fail("validation_fraction in (0, 1)", o.validation_fraction);
  if (o.patience < 1) fail("patience ≥ 1", o.patience);
  finite_at_least(o.tolerance, 0, "a finite tolerance ≥ 0");
}

Scalar weighted_median(const Vector& values, const Vector& weights) {
  DAGML_CHECK(values.size() > 0 && values.size() == weights.size(), "weighted median of {} values and {} weights",
              values.size(), weights.size());
  std::vector<Index> order = iota_indices(values.size());
  std::sort(order.begin(), order.end(), [&](Index a, Index b) { return values(a) < values(b); });
  const Scalar half = weights.sum() / 2;
  Scalar cumulative = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    cumulative += weights(order[k]);
    if (cumulative < half) continue;
    if (cumulative > half || k + 1 == order.size()) return values(order[k]);
    // Exactly half: the mean with the next value that carries weight.
    std::size_t next = k + 1;
    while (next + 1 < order.size() && !(weights(order[next]) > 0)) ++next;
    return values(order[k]) / 2 + values(order[next]) / 2;
  }
  return values(order.back());
}

void check_features(const Tensor& X, bool allow_missing, const char* who) {
  if (!allow_missing) {
    check_finite(X, who);
    return;
  }
  for (Index i = 0; i < X.rows(); ++i)
    for (Index j = 0; j < X.cols(); ++j)
      if (std::isinf(X(i, j)))
        throw ValueError(fmt::format("{}: expected finite values or NaN (missing) in X, found {} at row {}, column {}",
                                     who, X(i, j), i, j));
}

Tensor Ensemble::raw(const Tensor& X, Index rounds) const {
  const Index R = rounds < 0 ? num_rounds() : std::min(rounds, num_rounds());
  Tensor F(X.rows(), outputs);
  for (Index i = 0; i < X.rows(); ++i) {
    const Scalar* x = X.row(i).data();
    for (Index k = 0; k < outputs; ++k) {
      Scalar f = baseline(k);
      for (Index r = 0; r < R; ++r) {
        const tree::GradientTree& t = trees[static_cast<std::size_t>(r * outputs + k)];
        f += t.value[static_cast<std::size_t>(t.leaf_of(x))];
      }
      F(i, k) = f;
    }
  }
  return F;
}

std::vector<Tensor> Ensemble::staged_raw(const Tensor& X) const {
  std::vector<Tensor> stages;
  Tensor F = Tensor::Zero(X.rows(), outputs);
  for (Index i = 0; i < X.rows(); ++i) F.row(i) = baseline.transpose();
  for (Index r = 0; r < num_rounds(); ++r) {
    for (Index i = 0; i < X.rows(); ++i) {
      for (Index k = 0; k < outputs; ++k) {
        const tree::GradientTree& t = trees[static_cast<std::size_t>(r * outputs + k)];
        F(i, k) += t.value[static_cast<std::size_t>(t.leaf_of(X.row(i).data()))];
      }
    }
    stages.push_back(F);
  }
  return stages;
}

Vector Ensemble::feature_importances(Index num_features) const {
  Vector importance = Vector::Zero(num_features);
  for (const tree::GradientTree& t : trees)
    for (Index s = 0; s < t.num_nodes(); ++s)
      if (!t.is_leaf(s)) importance(t.feature[static_cast<std::size_t>(s)]) += t.gain[static_cast<std::size_t>(s)];
  const Scalar total = importance.sum();
  if (total > 0) importance /= total;
  return importance;
}

std::string Ensemble::check(Index num_features) const {
  if (outputs < 1) return fmt::format("expected at least one raw output, found {}", outputs);
  if (baseline.size() != outputs || !baseline.allFinite())
    return fmt::format("expected {} finite baseline values, found {}", outputs, baseline.size());
  if (trees.size() % static_cast<std::size_t>(outputs) != 0)
    return fmt::format("expected a multiple of {} trees, found {}", outputs, trees.size());
  if (train_loss.size() != static_cast<std::size_t>(num_rounds()) + 1)
    return fmt::format("expected {} training losses, found {}", num_rounds() + 1, train_loss.size());
  if (!validation_loss.empty() && validation_loss.size() != train_loss.size())
    return fmt::format("expected no validation losses or {}, found {}", train_loss.size(), validation_loss.size());
  if (std::string fault = edges.check(num_features); !fault.empty()) return fault;
  for (std::size_t t = 0; t < trees.size(); ++t)
    if (std::string fault = trees[t].check(num_features); !fault.empty()) return fmt::format("tree {}: {}", t, fault);
  return "";
}

namespace {

// k of 0..n−1 without replacement (partial Fisher–Yates), in increasing order.
std::vector<Index> gradient_boosting_draw(Index n, Index k, std::uint64_t seed) {
  std::vector<Index> all = iota_indices(n);
  if (k >= n) return all;
  std::mt19937_64 rng(seed);
  for (Index t = 0; t < k; ++t) {
    const auto u = static_cast<std::size_t>(t);
    std::swap(all[u], all[u + uniform_below(rng, static_cast<std::uint64_t>(n - t))]);
  }
  all.resize(static_cast<std::size_t>(k));
  std::sort(all.begin(), all.end());
  return all;
}

Index gradient_boosting_fraction(Scalar fraction, Index n) {
  return std::max<Index>(1, static_cast<Index>(std::floor(fraction * static_cast<Scalar>(n))));
}

// scikit-learn's early-stopping rule on the validation losses (Note [Gradient boosting]).
bool gradient_boosting_should_stop(const std::vector<Scalar>& losses, Index patience, Scalar tolerance) {
  const auto p = static_cast<std::size_t>(patience);
  if (losses.size() < p + 1) return false;
  const Scalar reference = losses[losses.size() - p - 1] - tolerance;
  return std::none_of(losses.end() - static_cast<std::ptrdiff_t>(p), losses.end(),
                      [reference](Scalar l) { return l < reference; });
}

}  // namespace

Ensemble fit(const Tensor& X_all, const Vector& y_all, const Vector& w_all, Index num_classes,
             const BoostingLoss& loss, const BoostingOptions& o, const CallbackList& callbacks, const char* who,
             Result& result) {
  Tensor X_train, X_valid;
  Vector y_train, y_valid, w_train, w_valid;
  const bool validate = o.early_stopping;
  if (validate) {
    const SplitIndices parts = train_test_indices(
        X_all.rows(),
        {.test_fraction = o.validation_fraction, .seed = derive_seed(o.seed, std::uint64_t{1} << 63),
         .stratify = num_classes > 0},
        num_classes > 0 ? &y_all : nullptr);
    std::vector<Index> train = parts.train, valid = parts.test;
    std::sort(train.begin(), train.end());
    std::sort(valid.begin(), valid.end());
    X_train = take_rows(X_all, train);
    y_train = take_rows(y_all, train);
    X_valid = take_rows(X_all, valid);
    y_valid = take_rows(y_all, valid);
    w_train = take_rows(w_all, train);
    w_valid = take_rows(w_all, valid);
    if (!(w_train.sum() > 0) || !(w_valid.sum() > 0))
      throw ValueError(fmt::format("{}: expected a positive weight sum in the training and the validation rows, found "
                                   "{} and {}", who, w_train.sum(), w_valid.sum()));
  }
  const Tensor& X = validate ? X_train : X_all;
  const Vector& y = validate ? y_train : y_all;
  const Vector& w = validate ? w_train : w_all;
  auto mean_loss = [&loss](const Vector& targets, const Tensor& F, const Vector& weights) {
    return loss.row_losses(targets, F).dot(weights) / weights.sum();
  };
  const Index n = X.rows(), d = X.cols();

  Ensemble e;
  e.outputs = loss.num_outputs(num_classes);
  e.link = loss.link();
  e.edges = tree::fit_bin_edges(X, o.max_bins, who);
  const tree::BinnedMatrix B = tree::bin_features(X, e.edges);
  tree::BinnedMatrix B_valid;
  if (validate) B_valid = tree::bin_features(X_valid, e.edges);
  const Index K = e.outputs;
  e.baseline = loss.baseline(y, w, K);
  Tensor F(n, K), F_valid(validate ? X_valid.rows() : 0, K);
  for (Index i = 0; i < n; ++i) F.row(i) = e.baseline.transpose();
  for (Index i = 0; i < F_valid.rows(); ++i) F_valid.row(i) = e.baseline.transpose();

  const tree::GradientTreeOptions tree_options{.max_depth = o.max_depth,
                                               .max_leaf_nodes = o.max_leaf_nodes,
                                               .min_samples_leaf = o.min_samples_leaf,
                                               .min_child_hessian = o.min_child_hessian,
                                               .lambda = o.lambda,
                                               .min_split_gain = o.min_split_gain,
                                               .shrinkage = o.learning_rate};
  const Index rows_per_round = o.subsample < 1 ? gradient_boosting_fraction(o.subsample, n) : n;
  const Index features_per_tree = o.colsample < 1 ? gradient_boosting_fraction(o.colsample, d) : d;

  IterationLoop loop({.max_iterations = o.max_iterations, .gradient_tolerance = 0}, callbacks);
  Scalar train_loss = mean_loss(y, F, w);
  e.train_loss.push_back(train_loss);
  if (validate) e.validation_loss.push_back(mean_loss(y_valid, F_valid, w_valid));
  Tensor G, H;
  std::vector<Scalar> g(static_cast<std::size_t>(n)), h(static_cast<std::size_t>(n));
  if (loop.guard("training loss", train_loss) && loop.start(Vector(), train_loss)) {
    for (Index round = 0;; ++round) {
      loss.gradients(y, F, G, H);
      const std::vector<Index> round_rows =
          gradient_boosting_draw(n, rows_per_round, derive_seed(o.seed, 2 * static_cast<std::uint64_t>(round)));
      Tensor F_next = F, F_valid_next = F_valid;
      std::vector<tree::GradientTree> round_trees;
      for (Index k = 0; k < K; ++k) {
        for (Index i = 0; i < n; ++i) {
          g[static_cast<std::size_t>(i)] = w(i) * G(i, k);
          h[static_cast<std::size_t>(i)] = w(i) * H(i, k);
        }
        const std::vector<Index> features = gradient_boosting_draw(
            d, features_per_tree, derive_seed(o.seed, 2 * static_cast<std::uint64_t>(round * K + k) + 1));
        std::vector<Index> rows = round_rows;
        tree::GrownGradientTree grown = tree::grow_gradient_tree(B, e.edges, g, h, rows, features, tree_options);
        tree::GradientTree& t = grown.tree;
        if (loss.median_leaves()) {
          // Note [Boosting losses]: a leaf's value is η · the weighted median of its residuals
          // y − F (0 when its rows weigh nothing).
          for (Index s = 0; s < t.num_nodes(); ++s) {
            const auto u = static_cast<std::size_t>(s);
            if (!t.is_leaf(s)) continue;
            const Index count = grown.leaf_end[u] - grown.leaf_begin[u];
            Vector residuals(count), weights(count);
            for (Index p = 0; p < count; ++p) {
              const Index i = rows[static_cast<std::size_t>(grown.leaf_begin[u] + p)];
              residuals(p) = y(i) - F(i, k);
              weights(p) = w(i);
            }
            t.value[u] = weights.sum() > 0 ? o.learning_rate * weighted_median(residuals, weights) : 0;
          }
        }
        for (Index i = 0; i < n; ++i) F_next(i, k) += t.value[static_cast<std::size_t>(t.leaf_of(B, i))];
        for (Index i = 0; i < F_valid.rows(); ++i)
          F_valid_next(i, k) += t.value[static_cast<std::size_t>(t.leaf_of(B_valid, i))];
        round_trees.push_back(std::move(t));
      }
      const Scalar next_loss = mean_loss(y, F_next, w);
      if (!loop.guard("training loss", next_loss)) break;  // the round's trees are dropped
      F = std::move(F_next);
      F_valid = std::move(F_valid_next);
      train_loss = next_loss;
      for (auto& t : round_trees) e.trees.push_back(std::move(t));
      e.train_loss.push_back(train_loss);
      if (validate) e.validation_loss.push_back(mean_loss(y_valid, F_valid, w_valid));
      if (loop.step(train_loss, IterationLoop::kNotComputed, Vector())) break;
      if (validate && gradient_boosting_should_stop(e.validation_loss, o.patience, o.tolerance)) {
        loop.converge(Status::ValueTolerance,
                      fmt::format("early stopping: no validation loss in the last {} rounds fell {} below {:.6g}",
                                  o.patience, o.tolerance,
                                  e.validation_loss[e.validation_loss.size() - static_cast<std::size_t>(o.patience) - 1]));
        break;
      }
      if (loop.exhausted()) break;
    }
  }
  Result r;
  r.value = train_loss;
  r.gradient_norm = IterationLoop::kNotComputed;
  result = loop.finish(std::move(r));
  return e;
}

}  // namespace dagml::boosting
