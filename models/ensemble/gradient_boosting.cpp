#include "models/ensemble/gradient_boosting.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/split.h"
#include "models/data/validate.h"
#include "models/tree/sharded_gradient_sums.h"
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

Tensor Ensemble::raw(const Tensor& X, Index rounds) const {
  const Index R = rounds < 0 ? num_rounds() : std::min(rounds, num_rounds());
  Tensor F(X.rows(), outputs);
  // Rows in parallel blocks: each row's sum runs over the trees in order, whatever the threads.
  tbb::parallel_for(tbb::blocked_range<Index>(0, X.rows(), 1024), [&](const tbb::blocked_range<Index>& rows) {
    for (Index i = rows.begin(); i != rows.end(); ++i) {
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
  });
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
  for (std::size_t t = 0; t < trees.size(); ++t) {
    const tree::GradientTree& tree = trees[t];
    if (std::string fault = tree.check(num_features); !fault.empty()) return fmt::format("tree {}: {}", t, fault);
    for (std::size_t u = 0; u < tree.left.size(); ++u)
      if (tree.left[u] >= 0 && (tree.category_set[u] >= 0) != edges.is_categorical(tree.feature[u]))
        return fmt::format("tree {}: expected node {} to split feature {} {}", t, u, tree.feature[u],
                           edges.is_categorical(tree.feature[u]) ? "into category sets (it is categorical)"
                                                                 : "at a threshold (it is not categorical)");
  }
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

std::vector<Index> binning_rows(Index n, std::uint64_t seed) {
  return gradient_boosting_draw(n, std::min(n, tree::kBinningRows), derive_seed(seed, (std::uint64_t{1} << 63) + 1));
}

namespace {

// The validation rows of early stopping (one process only).
struct BoostingValidation {
  Tensor X;
  Vector y, w;
};

// Note [Gradient boosting] over this rank's rows X, y, w of `layout` (all rows in one process):
// every sum over rows is a fixed-order chunk sum, and every draw is over global row indices.
// `baseline` is F⁰, the loss's best constant over all ranks' rows.
Ensemble boost(Communicator& comm, const ChunkLayout& layout, const Tensor& X, const Vector& y, const Vector& w,
               const Vector& baseline, const BoostingValidation* valid, Index num_classes, const BoostingLoss& loss, const BoostingOptions& o,
               const CallbackList& callbacks, const char* who, Result& result) {
  const Index n_local = X.rows(), n = layout.num_rows(), d = X.cols();
  const Index first_row = layout.rank_rows(comm.rank()).begin;
  ChunkSumWorkspace workspace;
  Vector sums;
  // The loss's per-row values over blocks of rows in parallel when it allows (BoostingLoss::
  // blockwise: every row's values are computed alone, so the same bits for any thread count).
  auto for_row_blocks = [&](Index rows, auto&& f) {
    if (!loss.blockwise()) return f(0, rows);
    tbb::parallel_for(tbb::blocked_range<Index>(0, rows, 32768),
                      [&](const tbb::blocked_range<Index>& r) { f(r.begin(), r.end() - r.begin()); });
  };
  auto row_losses = [&](const Vector& y_rows, const Tensor& F) {
    Vector losses(F.rows());
    for_row_blocks(F.rows(), [&](Index b, Index m) {
      losses.segment(b, m) = loss.row_losses(y_rows.segment(b, m), F.middleRows(b, m));
    });
    return losses;
  };
  auto gradients = [&](const Tensor& F, Tensor& G, Tensor& H) {
    G.resize(F.rows(), F.cols());
    H.resize(F.rows(), F.cols());
    for_row_blocks(F.rows(), [&](Index b, Index m) {
      Tensor G_block, H_block;
      loss.gradients(y.segment(b, m), F.middleRows(b, m), G_block, H_block);
      G.middleRows(b, m) = G_block;
      H.middleRows(b, m) = H_block;
    });
  };
  // The weighted mean loss Σ w_i ℓ_i / Σ w_i over all ranks' rows. The losses are computed
  // outside the chunks' parallel tasks (a graph loss runs one executor).
  auto train_mean_loss = [&](const Tensor& F) {
    const Vector losses = row_losses(y, F);
    deterministic_chunk_sum(
        comm, layout, 2,
        [&](const ChunkRows& chunk, std::span<double> s) {
          const Index b = chunk.local_begin, m = chunk.global.size();
          s[0] = losses.segment(b, m).dot(w.segment(b, m));
          s[1] = w.segment(b, m).sum();
        },
        workspace, sums);
    return sums(0) / sums(1);
  };
  auto valid_mean_loss = [&](const Tensor& F) { return row_losses(valid->y, F).dot(valid->w) / valid->w.sum(); };

  Ensemble e;
  e.outputs = loss.num_outputs(num_classes);
  e.link = loss.link();
  const std::vector<Index> binned_rows = binning_rows(n, o.seed);
  e.edges = comm.size() == 1 && static_cast<Index>(binned_rows.size()) == n
                ? tree::fit_bin_edges(X, o.max_bins, who)  // the same edges, without a copy of X
                : tree::fit_sharded_bin_edges(comm, layout, X, binned_rows, o.max_bins, who);
  tree::make_categorical(e.edges, o.categorical_features, o.max_bins);
  const tree::BinnedMatrix B = tree::bin_features(X, e.edges);
  tree::BinnedMatrix B_valid;
  if (valid != nullptr) B_valid = tree::bin_features(valid->X, e.edges);
  const Index K = e.outputs;
  e.baseline = baseline;
  Tensor F(n_local, K), F_valid(valid != nullptr ? valid->X.rows() : 0, K);
  for (Index i = 0; i < n_local; ++i) F.row(i) = e.baseline.transpose();
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
  Scalar train_loss = train_mean_loss(F);
  e.train_loss.push_back(train_loss);
  if (valid != nullptr) e.validation_loss.push_back(valid_mean_loss(F_valid));
  Tensor G, H;
  std::vector<Scalar> g(static_cast<std::size_t>(n_local)), h(static_cast<std::size_t>(n_local));
  tree::GradientHistogramPool histograms;  // for every tree of the fit
  if (loop.guard("training loss", train_loss) && loop.start(Vector(), train_loss)) {
    for (Index round = 0;; ++round) {
      gradients(F, G, H);
      // The round's rows among all n, then those of this rank as local indices (increasing).
      std::vector<Index> round_rows =
          gradient_boosting_draw(n, rows_per_round, derive_seed(o.seed, 2 * static_cast<std::uint64_t>(round)));
      std::erase_if(round_rows, [&](Index i) { return i < first_row || i >= first_row + n_local; });
      for (Index& i : round_rows) i -= first_row;
      Tensor F_next = F, F_valid_next = F_valid;
      std::vector<tree::GradientTree> round_trees;
      const bool every_row = static_cast<Index>(round_rows.size()) == n_local;
      for (Index k = 0; k < K; ++k) {
        tbb::parallel_for(tbb::blocked_range<Index>(0, n_local, 16384), [&](const tbb::blocked_range<Index>& r) {
          for (Index i = r.begin(); i != r.end(); ++i) {
            g[static_cast<std::size_t>(i)] = w(i) * G(i, k);
            h[static_cast<std::size_t>(i)] = w(i) * H(i, k);
          }
        });
        const std::vector<Index> features = gradient_boosting_draw(
            d, features_per_tree, derive_seed(o.seed, 2 * static_cast<std::uint64_t>(round * K + k) + 1));
        std::vector<Index> rows = round_rows;
        // One process, one chunk: the sums over the rows directly (the same bits, no gathers).
        tree::RowGradientSums row_sums(B, e.edges, g, h, features, &histograms.ordered_gradients);
        tree::ShardedGradientSums sharded_sums(comm, layout, B, e.edges, g, h, features);
        tree::GradientSums& node_sums = layout.num_chunks() == 1 && comm.size() == 1
                                            ? static_cast<tree::GradientSums&>(row_sums)
                                            : sharded_sums;
        tree::GrownGradientTree grown =
            tree::grow_gradient_tree(node_sums, B, e.edges, rows, features, tree_options, histograms);
        tree::GradientTree& t = grown.tree;
        if (loss.median_leaves()) {
          // Note [Boosting losses]: a leaf's value is η · the weighted median of its residuals
          // y − F (0 when its rows weigh nothing). One process only (boosting::fit checks).
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
        if (every_row) {
          // The leaves partition the rows (grown.leaf_begin/leaf_end): each row gains its leaf's
          // value without a walk down the tree.
          tbb::parallel_for(tbb::blocked_range<Index>(0, t.num_nodes(), 1), [&](const tbb::blocked_range<Index>& r) {
            for (Index s = r.begin(); s != r.end(); ++s) {
              const auto u = static_cast<std::size_t>(s);
              if (!t.is_leaf(s)) continue;
              for (Index p = grown.leaf_begin[u]; p < grown.leaf_end[u]; ++p)
                F_next(rows[static_cast<std::size_t>(p)], k) += t.value[u];
            }
          });
        } else {
          for (Index i = 0; i < n_local; ++i) F_next(i, k) += t.value[static_cast<std::size_t>(t.leaf_of(B, i))];
        }
        for (Index i = 0; i < F_valid.rows(); ++i)
          F_valid_next(i, k) += t.value[static_cast<std::size_t>(t.leaf_of(B_valid, i))];
        round_trees.push_back(std::move(t));
      }
      const Scalar next_loss = train_mean_loss(F_next);
      if (!loop.guard("training loss", next_loss)) break;  // the round's trees are dropped
      F = std::move(F_next);
      F_valid = std::move(F_valid_next);
      train_loss = next_loss;
      for (auto& t : round_trees) e.trees.push_back(std::move(t));
      e.train_loss.push_back(train_loss);
      if (valid != nullptr) e.validation_loss.push_back(valid_mean_loss(F_valid));
      if (loop.step(train_loss, IterationLoop::kNotComputed, Vector())) break;
      if (valid != nullptr && gradient_boosting_should_stop(e.validation_loss, o.patience, o.tolerance)) {
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

}  // namespace

Ensemble fit(const Tensor& X_all, const Vector& y_all, const Vector& w_all, Index num_classes,
             const BoostingLoss& loss, const BoostingOptions& o, const CallbackList& callbacks, const char* who,
             Result& result) {
  tree::check_categories(X_all, o.categorical_features, o.max_bins, who);
  SingleProcessCommunicator single;
  if (!o.early_stopping) {
    const ChunkLayout layout(X_all.rows(), 1, 1);
    return boost(single, layout, X_all, y_all, w_all, loss.baseline(y_all, w_all, loss.num_outputs(num_classes)),
                 nullptr, num_classes, loss, o, callbacks, who, result);
  }
  const SplitIndices parts = train_test_indices(
      X_all.rows(),
      {.test_fraction = o.validation_fraction, .seed = derive_seed(o.seed, std::uint64_t{1} << 63),
       .stratify = num_classes > 0},
      num_classes > 0 ? &y_all : nullptr);
  std::vector<Index> train = parts.train, valid = parts.test;
  std::sort(train.begin(), train.end());
  std::sort(valid.begin(), valid.end());
  const BoostingValidation validation{take_rows(X_all, valid), take_rows(y_all, valid), take_rows(w_all, valid)};
  const Vector w_train = take_rows(w_all, train);
  if (!(w_train.sum() > 0) || !(validation.w.sum() > 0))
    throw ValueError(fmt::format("{}: expected a positive weight sum in the training and the validation rows, found "
                                 "{} and {}", who, w_train.sum(), validation.w.sum()));
  const ChunkLayout layout(static_cast<Index>(train.size()), 1, 1);
  const Vector y_train = take_rows(y_all, train);
  return boost(single, layout, take_rows(X_all, train), y_train, w_train,
               loss.baseline(y_train, w_train, loss.num_outputs(num_classes)), &validation, num_classes, loss, o,
               callbacks, who, result);
}

Ensemble fit(Communicator& comm, const ChunkLayout& layout, const Tensor& X, const Vector& y,
             const ShardedTargets& targets, Index num_classes, const BoostingLoss& loss, const BoostingOptions& o, const CallbackList& callbacks,
             const char* who, Result& result) {
  if (o.early_stopping)
    throw ValueError(fmt::format("{}: early_stopping holds out rows of one process; over ranks, expected "
                                 "early_stopping = false (score held-out data with a callback instead)", who));
  if (loss.median_leaves() && comm.size() > 1)
    throw ValueError(fmt::format("{}: the '{}' loss sets each leaf to the median of its rows, which is not a sum over "
                                 "ranks; expected a loss with Newton leaves over {} ranks", who, loss.name(),
                                 comm.size()));
  return boost(comm, layout, X, y, targets.w_local,
               loss.baseline(targets.y_all, targets.w_all, loss.num_outputs(num_classes)), nullptr, num_classes, loss,
               o, callbacks, who, result);
}

ShardedTargets gather_sharded_targets(Communicator& comm, const ChunkLayout& layout, const Tensor& X, const Vector& y,
                                      const Vector& sample_weight, const BoostingOptions& options, const char* who) {
  check_shard(comm, layout, X.rows(), who);
  check_same_rows(X, y, who);
  check_finite_or_missing(X, options.allow_missing, who);
  tree::check_categories(X, options.categorical_features, options.max_bins, who);
  ShardedTargets out;
  out.y_all = gather_rank_rows(comm, layout, y, who);
  out.w_all = sample_weights_or_ones(
      gather_rank_rows(comm, layout, sample_weight.size() == 0 ? Vector(Vector::Ones(X.rows())) : sample_weight, who),
      layout.num_rows(), who);
  out.w_local = out.w_all.segment(layout.rank_rows(comm.rank()).begin, X.rows());
  return out;
}

}  // namespace dagml::boosting
