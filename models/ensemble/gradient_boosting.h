// What the gradient-boosting estimators share (GradientBoostingClassifier, GradientBoostingRegressor):
// the options, the boosting loop over gradient trees (models/tree/gradient_tree.h) on features
// binned once (models/tree/feature_binning.h), the fitted ensemble with staged predictions, the
// loss traces and importances, and its serialisation.
//
// Note [Gradient boosting]
// Gradient boosting (Friedman 2001; the notes' ψ-boosting, notes 004 §2.5.5 L822–835, "if the
// minimisation is intractable, use gradient descent") fits an additive model of raw predictions
//   F_t(x) = F⁰ + Σ_{s ≤ t} f_s(x),
// F⁰ the loss's best constant (Note [Boosting losses] in boosting_loss.h). Round t computes, at
// F_{t−1}, every training row's gradient g_i and Hessian h_i of ℓ(y_i, ·), times its sample weight
// w_i (scikit-learn's rule; min_samples_leaf still counts rows), and grows one tree
// f_t per raw output (K trees per round for the K-class softmax) on them (Note [Gradient tree]):
// each leaf is a Newton step −η G/(H + λ) on its rows, η the learning rate (shrinkage) — the
// second-order boosting of XGBoost, LightGBM and scikit-learn's HistGradientBoosting.
// Per round, with seeds derived from `seed` (Note [Portable randomness] in graph/random.h), so
// that the model depends only on the options and the data, never on the thread count:
//   * subsample < 1: the round's trees see ⌊subsample·n⌋ rows (at least 1) drawn without
//     replacement by a partial Fisher–Yates shuffle from std::mt19937_64(derive_seed(seed, 2t));
//   * colsample < 1: each tree tries ⌊colsample·d⌋ features (at least 1) drawn the same way
//     from derive_seed(seed, 2(tK + k) + 1).
// Early stopping (early_stopping): a validation part of validation_fraction of the rows
// (stratified for classifiers; seed derive_seed(seed, 2⁶³)) is held out; after every round its
// mean loss is recorded, and the run stops after round t once none of the last `patience`
// validation losses is below the one `patience` rounds before them minus `tolerance`
// (scikit-learn's rule; the losses start with F⁰'s). Every tree grown is kept. Every loss
// reported is the weighted mean Σ w_i ℓ_i / Σ w_i over its rows.
// The loop runs on IterationLoop (optim/iteration_loop.h): one iteration per round, its value
// the mean training loss (the trace train_loss(), which starts with F⁰'s), the callbacks of
// optim/callbacks.h see every round and may stop the run (the iterate they see is empty: a
// boosting model has no parameter vector). Statuses: MaxIterations after max_iterations rounds,
// ValueTolerance when early stopping ends the run, CallbackStop, NumericalFailure for a NaN or
// infinite training loss (the round's trees are then dropped).
// Missing values: with allow_missing, NaN in X marks a missing value: it has its own bin and is
// routed to the side learned at training (Note [Gradient tree]); infinities are still an error.
// Without it NaN is a ValueError, as for every dagml estimator.
// Categorical features (categorical_features): their values are category numbers, binned as
// themselves (Note [Categorical features] in feature_binning.h) and split into sets of categories
// (Note [Categorical splits] in gradient_tree.h).
// The bin edges are fitted on all rows when n ≤ kBinningRows = 200,000 (sharded_gradient_sums.h),
// else on kBinningRows rows drawn without replacement from derive_seed(seed, 2⁶³ + 1) (scikit-learn
// bins a subsample of the same size).
//
// Note [Gradient boosting over ranks]
// fit(comm, layout, X, y, w, …) boosts on rows spread across ranks, each rank holding its rows of
// the chunk layout (graph/chunked_sum.h). Every sum over rows is a fixed-order chunk sum: the
// node sums of every tree (Note [Gradient sums over ranks] in models/tree/sharded_gradient_sums.h)
// and the training loss; every draw (the binned rows, each round's rows, each tree's features) is
// made over global row indices with the seeds above, and each rank keeps its own. The bin edges
// come from the binned rows gathered a block of columns at a time, the baseline F⁰ from the
// targets and weights gathered whole (n values each; the features never are). Each rank updates
// the raw predictions of its own rows. The model is the same on every rank and bitwise the same
// for any ranks × threads with one layout; with one rank and one chunk it is the one-process
// model. Not over ranks: early stopping (its validation rows are drawn from one process's rows)
// and the absolute-error loss (its leaves are medians, not sums), both ValueError.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graph/chunked_sum.h"
#include "graph/communicator.h"
#include "graph/tensor.h"
#include "models/ensemble/boosting_loss.h"
#include "models/io/estimator.h"
#include "models/tree/feature_binning.h"
#include "models/tree/gradient_tree.h"
#include "models/tree/tree_export.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

struct BoostingOptions {
  Index max_iterations = 100;      // boosting rounds, ≥ 1
  Scalar learning_rate = 0.1;      // η > 0, the shrinkage of every leaf
  Index max_depth = -1;            // ≥ 1, or −1: unlimited
  Index max_leaf_nodes = 31;       // ≥ 2 (best-first growth), or −1: unlimited (depth first)
  Index min_samples_leaf = 20;     // ≥ 1
  Scalar min_child_hessian = 1e-3;  // ≥ 0
  Scalar lambda = 0;               // ≥ 0, L2 regularisation of the leaf values
  Scalar min_split_gain = 0;       // ≥ 0
  Index max_bins = 255;            // 2 ≤ max_bins ≤ 255
  Scalar subsample = 1;            // (0, 1], rows per round
  Scalar colsample = 1;            // (0, 1], features per tree
  bool early_stopping = false;
  Scalar validation_fraction = 0.1;  // (0, 1), with early_stopping
  Index patience = 10;             // ≥ 1 rounds without improvement, with early_stopping
  Scalar tolerance = 1e-7;         // ≥ 0, the improvement that counts, with early_stopping
  bool allow_missing = false;      // NaN in X marks a missing value (else ValueError)
  std::uint64_t seed = 0;
  std::vector<Index> categorical_features = {};  // columns of category numbers 0 … max_bins − 1

  template <class V>
  void visit(V&& v) {
    v("max_iterations", max_iterations, "≥ 1 boosting rounds (K trees a round for K > 2 classes)");
    v("learning_rate", learning_rate, "> 0, the shrinkage η multiplying every leaf value");
    v("max_depth", max_depth, "≥ 1, the deepest node's depth; −1: unlimited");
    v("max_leaf_nodes", max_leaf_nodes, "≥ 2 leaves per tree, grown best first; −1: unlimited, depth first");
    v("min_samples_leaf", min_samples_leaf, "≥ 1 training rows in each child of a split");
    v("min_child_hessian", min_child_hessian, "≥ 0, the least Hessian sum in each child of a split");
    v("lambda", lambda, "≥ 0, L2 regularisation of the leaf values: −G/(H + λ)");
    v("min_split_gain", min_split_gain, "≥ 0: a split's gain must exceed it");
    v("max_bins", max_bins, "2 ≤ bins ≤ 255 per feature (quantile bins; fewer when fewer distinct values)");
    v("subsample", subsample, "in (0, 1]: the fraction of rows each round's trees see");
    v("colsample", colsample, "in (0, 1]: the fraction of features each tree tries");
    v("early_stopping", early_stopping, "hold out validation_fraction of the rows and stop on their loss");
    v("validation_fraction", validation_fraction, "in (0, 1): the rows held out for early stopping");
    v("patience", patience, "≥ 1 rounds without a validation improvement before stopping");
    v("tolerance", tolerance, "≥ 0: the validation-loss decrease that counts as an improvement");
    v("allow_missing", allow_missing, "NaN in X is a missing value, routed to a learned side (else an error)");
    v("seed", seed, "for row and column subsampling and the validation split");
    v("categorical_features", categorical_features,
      "columns holding category numbers 0 … max_bins − 1, split into sets of categories");
  }
  // The model-file layout that added each field (Note [Categorical features] in feature_binning.h).
  static constexpr std::uint32_t field_layout(std::string_view field) {
    return field == "categorical_features" ? tree::kBoostingCategoricalLayout : 1;
  }
};

namespace boosting {

// ValueError naming `who` for an option out of range.
void validate_options(const BoostingOptions& options, const char* who);

// Note [Weighted median]
// The weighted median of values v_i with weights w_i ≥ 0 (positive sum W): with the values sorted,
// v_(1) ≤ … ≤ v_(n), and k the first position whose cumulative weight reaches W/2, it is v_(k),
// or (v_(k) + v_(k+1))/2 when the cumulative weight is exactly W/2 — the rule of the CART
// absolute-error criterion (split_criterion.h); with unit weights, numpy's median.
Scalar weighted_median(const Vector& values, const Vector& weights);

// The rows, among n, whose values set the bin edges: all of them when n ≤ tree::kBinningRows, else
// kBinningRows of them drawn from derive_seed(seed, 2⁶³ + 1) (increasing).
std::vector<Index> binning_rows(Index n, std::uint64_t seed);

// The fitted model (Note [Gradient boosting]).
struct Ensemble {
  tree::BinEdges edges;
  Vector baseline;                        // F⁰, K values
  Index outputs = 0;                      // K raw values per row (trees per round)
  BoostingLink link = BoostingLink::Identity;
  std::vector<tree::GradientTree> trees;  // round by round, K per round
  std::vector<Scalar> train_loss;         // mean training loss of F⁰, then after every round
  std::vector<Scalar> validation_loss;    // the same on the validation rows (early stopping only)

  Index num_rounds() const { return outputs > 0 ? static_cast<Index>(trees.size()) / outputs : 0; }
  // n × K raw predictions F after `rounds` rounds (−1: all).
  Tensor raw(const Tensor& X, Index rounds = -1) const;
  // F after each round 1 … num_rounds().
  std::vector<Tensor> staged_raw(const Tensor& X) const;
  // The gain of every split on feature j, summed over all trees and normalised to sum 1 (all 0
  // when no tree splits).
  Vector feature_importances(Index num_features) const;
  // "" when consistent with d features; else what is wrong.
  std::string check(Index num_features) const;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(edges, baseline, outputs, link, trees, train_loss, validation_loss);
  }
};

// Boosts `loss` on (X, y) with sample weights w (Note [Gradient boosting]). X, y and w (n values
// ≥ 0, positive sum) are checked by the caller; num_classes is K for a classifier (stratified
// validation split), 0 for a regressor. The IterationLoop's result is written to `result`.
Ensemble fit(const Tensor& X, const Vector& y, const Vector& w, Index num_classes, const BoostingLoss& loss,
             const BoostingOptions& options, const CallbackList& callbacks, const char* who, Result& result);
// The targets and weights of every rank's rows, for the checks and the baseline of a fit over
// ranks.
struct ShardedTargets {
  Vector y_all, w_all;  // all n rows, in global order
  Vector w_local;       // this rank's weights
};
// The same over ranks (Note [Gradient boosting over ranks]): X and y are this rank's rows of
// `layout` and `targets` their gathered targets and weights (gather_sharded_targets, which checks
// them). ValueError for early_stopping and, over more than one rank, for a loss with median leaves.
Ensemble fit(Communicator& comm, const ChunkLayout& layout, const Tensor& X, const Vector& y,
             const ShardedTargets& targets, Index num_classes, const BoostingLoss& loss,
             const BoostingOptions& options, const CallbackList& callbacks, const char* who, Result& result);

// Checks this rank's X (layout's row count, no infinities, NaN only with allow_missing, the
// categories of categorical_features) and y (X's rows), gathers y and the weights (empty: all 1)
// and checks the weights as a one-process fit does, over all rows. ValueError / ShapeError naming
// `who`.
ShardedTargets gather_sharded_targets(Communicator& comm, const ChunkLayout& layout, const Tensor& X, const Vector& y,
                                      const Vector& sample_weight, const BoostingOptions& options, const char* who);

}  // namespace boosting

template <class Derived, class Options>
class GradientBoosting : public Estimator<Derived, Options> {
 public:
  // n × K raw predictions F(x) (K = 1 but for the multiclass softmax). X: the d columns of fit
  // (ShapeError), no infinity and, unless allow_missing, no NaN (ValueError). NotFittedError
  // before fit.
  Tensor decision_function(const Tensor& X) const {
    check(X);
    return ensemble_.raw(X);
  }
  // F after each round, 1 … num_iterations(). Throws as decision_function.
  std::vector<Tensor> staged_decision_function(const Tensor& X) const {
    check(X);
    return ensemble_.staged_raw(X);
  }
  // The mean training loss of F⁰ and after every round (num_iterations() + 1 values).
  const std::vector<Scalar>& train_loss() const { return this->fitted_value(ensemble_).train_loss; }
  // The mean validation loss, the same way (empty without early_stopping).
  const std::vector<Scalar>& validation_loss() const { return this->fitted_value(ensemble_).validation_loss; }
  Index num_iterations() const { return this->fitted_value(ensemble_).num_rounds(); }
  const std::vector<tree::GradientTree>& trees() const { return this->fitted_value(ensemble_).trees; }
  const Vector& baseline() const { return this->fitted_value(ensemble_).baseline; }
  BoostingLink link() const { return this->fitted_value(ensemble_).link; }
  // The bin edges of every feature (Note [Feature bins]), fitted on boosting::binning_rows.
  const tree::BinEdges& bin_edges() const { return this->fitted_value(ensemble_).edges; }
  // Tree t of trees() (round t / K, output t mod K) as indented text or a Graphviz DOT graph
  // (tree_export.h: tests show where missing values go, leaves the value they add to F).
  // ValueError unless 0 ≤ t < trees().size(); NotFittedError before fit.
  std::string export_text(Index t, const TreeExportOptions& options = {}) const {
    return tree::export_text(tree_at(t), this->num_features(), options);
  }
  std::string export_dot(Index t, const TreeExportOptions& options = {}) const {
    return tree::export_dot(tree_at(t), this->num_features(), options);
  }
  // Gain importances (Ensemble::feature_importances).
  Vector feature_importances() const { return this->fitted_value(ensemble_).feature_importances(this->num_features()); }
  // How the last fit's loop ended (status, message, rounds); not saved in model files.
  const Result& fit_result() const { return this->fitted_value(result_); }

 protected:
  using Estimator<Derived, Options>::Estimator;

  const tree::GradientTree& tree_at(Index t) const {
    const std::vector<tree::GradientTree>& all = trees();
    if (t < 0 || t >= static_cast<Index>(all.size()))
      throw ValueError(fmt::format("{}: expected a tree index in [0, {}), found {}", Derived::kTypeName, all.size(), t));
    return all[static_cast<std::size_t>(t)];
  }

  void check(const Tensor& X, SourceLocation where = SourceLocation::current()) const {
    this->check_input(X, this->options_.boosting.allow_missing, where);
  }
  template <class InputArchive>
  void check_loaded_ensemble(const InputArchive& ar, Index outputs) const {
    if (!this->fitted()) {
      if (!ensemble_.trees.empty()) ar.fail(fmt::format("{}: expected no trees in an unfitted model, found some", Derived::kTypeName));
      return;
    }
    std::string fault = ensemble_.check(this->num_features());
    if (fault.empty() && ensemble_.outputs != outputs)
      fault = fmt::format("expected {} raw outputs, found {}", outputs, ensemble_.outputs);
    if (fault.empty()) {
      std::vector<Index> declared = this->options_.boosting.categorical_features, flagged;
      std::sort(declared.begin(), declared.end());
      for (Index j = 0; j < this->num_features(); ++j)
        if (ensemble_.edges.is_categorical(j)) flagged.push_back(j);
      if (declared != flagged)
        fault = fmt::format("expected the categorical features of the options, {}, to be those of the bin edges, {}",
                            fmt::join(declared, ", "), fmt::join(flagged, ", "));
    }
    if (!fault.empty()) ar.fail(fmt::format("{}: {}", Derived::kTypeName, fault));
  }

  boosting::Ensemble ensemble_;
  Result result_;
};

}  // namespace dagml
