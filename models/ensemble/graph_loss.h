// Any loss written as a dagml graph, for gradient boosting: the user writes the per-row loss
// ℓ(y_i, F_i) with graph ops, and its gradient and Hessian come from reverse-mode autodiff
// (autodiff/derivatives.h), so nobody derives a Hessian by hand.
//
//   GraphBoostingLoss focal("focal", 1, BoostingLink::Sigmoid, [](Var F, Var y) {
//     Var p = sigmoid(F);  …  return per_row_loss;            // n × 1
//   });
//   GradientBoostingClassifier model;  model.fit(X, y, focal);
//
// Note [Graph losses]
// The builder receives two graph inputs, F (n × K raw predictions) and y (n × 1 targets), and
// returns the n × 1 column of per-row losses ℓ_i, each depending only on row i (the rows are
// independent: the loss must not mix rows, e.g. no batch means). The graph adds
// L = Σ_i ℓ_i, its gradient ∂L/∂F (row i = ∇ℓ_i(F_i), the per-row gradients) and the K
// Hessian-vector products (∇²L) E_k with E_k the n × K matrix whose column k is all ones. ∇²L
// is block diagonal with the K × K blocks H_i = ∇²ℓ_i(F_i), so row i of (∇²L) E_k is column k of
// H_i: K products give every row's whole block (hessian_blocks), and its diagonal H_i[k, k] is
// what the boosting trees use. The graph is built once and replayed (graph/executor.h) with the
// current F every round, at any row count.
// The baseline F⁰ (the best constant) is found by Newton's method on the constant: for K = 1 the
// built-in losses' shared iteration (BoostingLoss::baseline), so a graph loss that computes a
// built-in loss's g and h with the same rounding (the graph logistic loss: see
// boosting_loss_logistic.cpp) reproduces that model bit for bit; for K > 1
//   c ← c − (Σ_i w_i H_i)⁺ Σ_i w_i g_i,   from c = 0,
// with the whole blocks, until the step is below 1e-15·max(1, |c|) (at most 100 steps); the
// pseudo-inverse (complete orthogonal decomposition, relative rank threshold 1e-10) gives the
// minimum-norm step, so a loss invariant to adding a constant to all K outputs (the softmax) gets
// the centred baseline, as the built-in softmax.
// A GraphBoostingLoss is not thread-safe (its graph is replayed in place) and is not saved with a
// model: a model fitted with it saves its trees and link, and predicts without it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "graph/executor.h"
#include "graph/graph.h"
#include "models/ensemble/boosting_loss.h"

namespace dagml {

class GraphBoostingLoss final : public BoostingLoss {
 public:
  using Builder = std::function<Var(Var F, Var y)>;

  // `outputs` K ≥ 1 raw values per row, `link` how they become predictions, `build` the per-row
  // loss (Note [Graph losses]). ValueError when K < 1, or when the builder's result is not an
  // n × 1 column (checked on a two-row graph), or when its derivatives cannot be built.
  GraphBoostingLoss(std::string name, Index outputs, BoostingLink link, Builder build);

  std::string name() const override { return name_; }
  BoostingLink link() const override { return link_; }
  Index num_outputs(Index /*num_classes*/) const override { return outputs_; }
  Vector baseline(const Vector& y, const Vector& w, Index outputs) const override;
  void gradients(const Vector& y, const Tensor& F, Tensor& G, Tensor& H) const override;
  Vector row_losses(const Vector& y, const Tensor& F) const override;
  bool blockwise() const override { return false; }  // one executor runs the graph

  // The K × K Hessian ∇²ℓ_i(F_i) of every row (Note [Graph losses]).
  std::vector<Tensor> hessian_blocks(const Vector& y, const Tensor& F) const;

 private:
  void run(const Vector& y, const Tensor& F) const;

  std::string name_;
  Index outputs_;
  BoostingLink link_;
  std::unique_ptr<Graph> graph_;
  Var F_, y_, losses_, gradient_;
  std::vector<Var> units_, products_;  // E_k inputs and (∇²L) E_k
  std::unique_ptr<Executor> executor_;
};

}  // namespace dagml
