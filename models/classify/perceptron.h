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

#include <array>
#include <cstdint>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/classify/linear_classifier.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class PerceptronOrder { Cyclic, LowestViolator };
enum class PerceptronInit {
  Zero,         // β = 0 (scikit-learn)
  FirstSample,  // β = y₀ x̃₀ (notes 001 L233: at least one point is right)
};
constexpr auto enum_names(PerceptronOrder) {
  return std::to_array<EnumName<PerceptronOrder>>(
      {{PerceptronOrder::Cyclic, "cyclic"}, {PerceptronOrder::LowestViolator, "lowest_violator"}});
}
constexpr auto enum_names(PerceptronInit) {
  return std::to_array<EnumName<PerceptronInit>>(
      {{PerceptronInit::Zero, "zero"}, {PerceptronInit::FirstSample, "first_sample"}});
}

struct PerceptronOptions {
  Scalar learning_rate = 1;  // step η > 0
  Index max_epochs = 1000;  // passes over the data (LowestViolator: max_epochs · n updates)
  bool fit_intercept = true;
  bool strict = false;  // true: a sample with yβ·x̃ = 0 counts as correct (the notes)
  PerceptronOrder order = PerceptronOrder::Cyclic;
  PerceptronInit init = PerceptronInit::Zero;
  bool shuffle = false;  // Cyclic only: a new permutation each epoch from `seed`
  std::uint64_t seed = 0;
  bool averaged = false;
  ZeroScore zero = ZeroScore::Positive;  // the class of f(x) = 0 at prediction

  template <class V>
  void visit(V&& v) {
    v("learning_rate", learning_rate, "η > 0, the step of each update");
    v("max_epochs", max_epochs, "≥ 1 passes over the data (lowest_violator: max_epochs · n updates)");
    v("fit_intercept", fit_intercept, "fit a bias (the weight of a constant 1 appended last)");
    v("strict", strict, "a sample with yβ·x̃ = 0 counts as correct (the notes' rule)");
    v("order", order, "cyclic (in order, optionally shuffled) or lowest_violator (notes 001 Algorithm 4)");
    v("init", init, "zero (scikit-learn) or first_sample (β = y₀x̃₀)");
    v("shuffle", shuffle, "cyclic only: a new permutation each epoch from seed");
    v("seed", seed, "the shuffling seed");
    v("averaged", averaged, "return the mean of β over every sample visit");
    v("zero", zero, "the class of f(x) = 0: positive or negative");
  }
};

class Perceptron : public BinaryLinearClassifier<Perceptron, PerceptronOptions> {
 public:
  static constexpr const char* kTypeName = "perceptron";

  // Throws ValueError for learning_rate ≤ 0 or max_epochs < 1.
  explicit Perceptron(const PerceptronOptions& options = {});

  // X: n×d, y: n labels in {0, 1}, both present. Throws ShapeError / ValueError for bad shapes,
  // NaN or infinite values, empty data, labels other than 0/1 (use OneVsRest for K > 2) or one
  // class only. The callbacks are called as described above.
  Perceptron& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});
  // decision_function f(x) = wᵀx + b, predict, score, coef() and intercept(): linear_classifier.h.

  Index num_updates() const { return fitted_value(updates_); }  // updates made
  Index num_epochs() const { return fitted_value(epochs_); }    // epochs run (LowestViolator: ⌈updates / n⌉)
  bool converged() const { return fitted_value(converged_); }   // the last epoch (or V) had no mistake
  // x = β (w, b), value as the callbacks' (see above), iterations = num_epochs(), status,
  // message, history. Of the fit in this process: not saved in files.
  const Result& fit_result() const { return fitted_value(result_); }

  // The options, w, b and the run's counts.
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_linear(ar);
    ar(updates_, epochs_, converged_);
  }

 private:
  Index updates_ = 0, epochs_ = 0;
  bool converged_ = false;
  Result result_;
};

extern template class Estimator<Perceptron, PerceptronOptions>;

}  // namespace dagml
