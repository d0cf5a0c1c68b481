// Perceptron (Rosenblatt), binary, with the update rules of the notes and the averaged variant.
//
// Labels 0/1 are used as signs yᵢ = 2·label − 1. With β = (w, b) and x̃ = (x, 1) (the 1 appended
// last, notes 001 L224), the perceptron risk (notes 001 L186) is
//   R(β) = Σᵢ max(0, −yᵢ β·x̃ᵢ),
// and each step is a stochastic subgradient step on one misclassified sample:
//   β ← β + η yᵢ x̃ᵢ     when yᵢ β·x̃ᵢ ≤ 0   (scikit-learn; with strict = true: when < 0, the
//                                             notes' rule, under which β = 0 never moves)
// Orders: Cyclic visits the samples in order (notes 004 Algorithm 9; optionally shuffled per
// epoch from a seed), LowestViolator updates on the lowest-index sample of the violator set
// V = {i : yᵢ β·x̃ᵢ < 0 (or ≤ 0)} and recomputes V after each update (notes 001 Algorithm 4, as in
// notes001_003.md D8). Training stops when an epoch (or V) has no mistake: on linearly
// separable data this happens after finitely many updates (Novikoff); otherwise max_epochs ends
// it and converged() is false.
// Averaged: the returned β is the mean of β over every sample visit (Freund & Schapire 1999).
//
// Callbacks (optim/callbacks.h, Note [Iteration loop] in optim/iteration_loop.h): on_begin with
// β₀ and |V(β₀)|, the number of training samples β₀ gets wrong; on_iteration after every epoch
// (Cyclic) or every pass of up to n updates (LowestViolator), with value = the mistakes (updates)
// made in the epoch (Cyclic) or the violators |V| left after the pass (LowestViolator), no
// gradient norm (NaN), and x = the β fit() would return at that point (the running average when
// averaged; d + 1 entries, w then b); on_end with fit_result(). A Stop ends the fit after that
// epoch or pass with Status::CallbackStop; the model takes its β from the result (EarlyStopping
// may restore an earlier one). "No mistake" is reported as Status::GradientTolerance (the
// perceptron risk and its subgradient are 0).
#pragma once

#include <cstdint>
#include <string>

#include "graph/tensor.h"
#include "models/classify/score_labels.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class PerceptronOrder { Cyclic, LowestViolator };
enum class PerceptronInit {
  Zero,         // β = 0 (scikit-learn)
  FirstSample,  // β = y₀ x̃₀ (notes 001 L233: at least one point is right)
};

struct PerceptronOptions {
  Scalar eta = 1;           // step η > 0
  Index max_epochs = 1000;  // passes over the data (LowestViolator: max_epochs · n updates)
  bool fit_intercept = true;
  bool strict = false;  // true: a sample with yβ·x̃ = 0 counts as correct (the notes)
  PerceptronOrder order = PerceptronOrder::Cyclic;
  PerceptronInit init = PerceptronInit::Zero;
  bool shuffle = false;  // Cyclic only: a new permutation each epoch from `seed`
  std::uint64_t seed = 0;
  bool averaged = false;
  ZeroScore zero = ZeroScore::Positive;  // the class of f(x) = 0 at prediction
};

class Perceptron {
 public:
  // Throws ValueError for eta ≤ 0 or max_epochs < 1.
  explicit Perceptron(const PerceptronOptions& options = {});

  // X: n×d, y: n labels in {0, 1}, both present. Throws ShapeError / ValueError for bad shapes,
  // NaN or infinite values, empty data, labels other than 0/1 (use OneVsRest for K > 2) or one
  // class only. The callbacks are called as described above.
  Perceptron& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});
  Vector decision_function(const Tensor& X) const;  // f(x) = wᵀx + b
  Vector predict(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;

  const Vector& coef() const;  // w, length d
  Scalar intercept() const;    // b (0 without fit_intercept)
  Index num_updates() const;   // updates made
  Index num_epochs() const;    // epochs run (LowestViolator: passes of up to n updates, ⌈updates / n⌉)
  bool converged() const;      // the last epoch (or V) had no mistake
  // x = β (w, b), value as the callbacks' (see above), iterations = num_epochs(), status,
  // message, history. Of the fit in this process: not saved in files.
  const Result& fit_result() const;

  void save(const std::string& path) const;
  static Perceptron load(const std::string& path);

 private:
  PerceptronOptions options_;
  Vector coef_;
  Scalar intercept_ = 0;
  Index updates_ = 0, epochs_ = 0;
  bool converged_ = false, fitted_ = false;
  Result result_;
};

}  // namespace dagml
