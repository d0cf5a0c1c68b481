// The expectation–maximisation loop (notes 000 §6.3, notes 002 §4.2.1, notes 004 Algorithm 15),
// written once for every latent-variable model fitted by EM: Gaussian mixtures
// (models/cluster/gaussian_mixture.h), probabilistic PCA and hidden Markov models (Baum–Welch,
// models/sequence/hidden_markov_model.h).
//
// A model supplies the two steps on its own data and state (EmModel); the loop runs
//
//   ℓ_0 = E-step at θ_0                      (q_0 = p(z | x; θ_0), ℓ_0 = ℓ(θ_0))
//   for t = 1, 2, …, max_iterations:
//     M-step:  θ_t = argmax_θ E_{q_{t−1}}[log p(x, z; θ)]
//     E-step:  q_t = p(z | x; θ_t),  ℓ_t = ℓ(θ_t)
//     stop when |ℓ_t − ℓ_{t−1}| < tolerance
//
// where ℓ(θ) = (1/n) Σ_i log p(x_i; θ) is the mean log-likelihood per sample. So after the run the
// model holds θ_T and the posterior q_T of the same parameters, and the reported likelihood is
// theirs. (scikit-learn's mixtures run E then M in each iteration and report ℓ(θ_{T−1}) as
// lower_bound_ with parameters θ_T: its n_iter_ is this loop's T + 1 on the same data and
// tolerance, and its parameters are one M-step further.)
//
// EM never decreases ℓ (the free-energy argument of notes 000 §6.3; notes 004 Algorithm 15). The
// loop checks it at every iteration: ℓ_t < ℓ_{t−1} − 1e-10 (1 + |ℓ_{t−1}|) (more than rounding) is
// counted in EmReport and said in the result's message — an M-step that is not an exact maximiser
// (a covariance regularised by reg_covar) or a bug shows there, never silently.
//
// Bookkeeping through IterationLoop (Note [Iteration loop] in optim/iteration_loop.h): the
// callbacks see value = −ℓ_t (the negative mean log-likelihood, a loss: non-increasing), no
// gradient norm (NaN) and x = the model's parameters() (only computed while callbacks watch).
// Status: ValueTolerance when the change test held, MaxIterations, CallbackStop, or
// NumericalFailure when ℓ_t is NaN or infinite (the model then holds that θ_t; its fitter decides).
#pragma once

#include "graph/tensor.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

// One model fitted by EM, holding its data, parameters θ and posterior q.
class EmModel {
 public:
  virtual ~EmModel() = default;
  // The E-step at the current θ: computes and keeps q(z) = p(z | x; θ) and returns ℓ(θ), the
  // mean log-likelihood per sample.
  virtual Scalar e_step() = 0;
  // The M-step: θ ← argmax_θ E_q[log p(x, z; θ)] for the q of the last E-step. May throw (for
  // example NumericalError for a singular covariance).
  virtual void m_step() = 0;
  // θ flattened, for the callbacks and Result::x.
  virtual Vector parameters() const = 0;
};

struct EmOptions {
  Index max_iterations = 100;  // ≥ 0 M-steps
  Scalar tolerance = 1e-3;     // ≥ 0; converged when |ℓ_t − ℓ_{t−1}| < tolerance (0: never)
};

// What the monotonicity check found.
struct EmReport {
  Index decreases = 0;          // iterations with ℓ_t < ℓ_{t−1} beyond rounding
  Scalar largest_decrease = 0;  // max over them of ℓ_{t−1} − ℓ_t (0 if none)
};

// Runs EM from the model's current parameters as one run of `session` (several runs — restarts
// — may share it, as in Note [Iteration loop]). Returns the run's Result: x = parameters() at the
// end, value = −ℓ_T, iterations = T, history = −ℓ_0, −ℓ_1, …; `report` (if not null) receives
// the monotonicity check. Options are validated by the caller. The session's on_end is not called
// (the fitter calls session.end with the fit's result).
Result expectation_maximization(EmModel& model, const EmOptions& options, CallbackRunner& session,
                                EmReport* report = nullptr);

}  // namespace dagml
