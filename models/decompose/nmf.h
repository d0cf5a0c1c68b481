// Non-negative matrix factorisation by multiplicative updates (notes 002 §3, the matrix
// factorisation framework; Lee & Seung 2001; scikit-learn's NMF with solver='mu').
//
// X ≈ W H with X n×d ≥ 0, W n×k ≥ 0 (one row of codes per sample) and H k×d ≥ 0 (the parts,
// components()), minimising
//   Frobenius:        D(X‖WH) = ½ ‖X − WH‖²_F,
//   Kullback–Leibler: D(X‖WH) = Σ_ij X_ij log(X_ij / (WH)_ij) − X_ij + (WH)_ij,
// by the multiplicative updates, each a majorise–minimise step that never increases D and keeps
// the factors non-negative (W first, then H, in every iteration):
//   Frobenius:  W ← W ⊙ (X Hᵀ) ⊘ (W H Hᵀ),          H ← H ⊙ (Wᵀ X) ⊘ (Wᵀ W H)
//   KL:         W ← W ⊙ ((X ⊘ WH) Hᵀ) ⊘ (1 (H 1)ᵀ), H ← H ⊙ (Wᵀ (X ⊘ WH)) ⊘ ((Wᵀ 1) 1ᵀ)
// with scikit-learn 1.2.1's guards, so that runs from the same W₀, H₀ agree with it to rounding:
// a zero denominator becomes ε₃₂ (float32's machine epsilon, sklearn's EPSILON), a zero (WH)_ij
// in X ⊘ WH becomes ε₃₂, a zero column sum of W becomes 1, and with KL the entries of H below
// ε₆₄ are set to 0 after each update.
//
// Note [NMF stopping]
// reconstruction_error() is scikit-learn's: √(2 D(X‖WH)) (‖X − WH‖_F for Frobenius). The loop
// evaluates it every iteration (for the history and the callbacks: value = the error; for
// Frobenius from the iteration's own products, ‖X‖² − 2⟨WᵀX, H⟩ + ⟨WᵀW, HHᵀ⟩) and, as
// scikit-learn, tests convergence every 10 iterations: it stops when the error fell by less than
// tolerance · (the error at W₀, H₀) over the last 10 iterations (tolerance = 0: never), else after
// max_iterations. For KL the divergence counts only the entries with X_ij > ε₃₂ in its log term,
// as scikit-learn's.
//
// Initialisation: `random` draws W₀ and H₀ entries as a·|z|, z standard normal from the seed
// (graph/random.h) and a = √(mean(X)/k) (scikit-learn's init='random' with other random
// numbers); `given` takes initial_W (n×k, fit's n) and initial_H (k×d), non-negative.
// transform(X) runs the W updates alone with H fixed, from W₀ = a·1 (every entry
// √(mean(X)/k)), with the same stopping rule: scikit-learn's transform for solver='mu', so it
// agrees with it to rounding.
#pragma once

#include <cstdint>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class NMFLoss { Frobenius, KullbackLeibler };
constexpr auto enum_names(NMFLoss) {
  return std::to_array<EnumName<NMFLoss>>(
      {{NMFLoss::Frobenius, "frobenius"}, {NMFLoss::KullbackLeibler, "kullback_leibler"}});
}

enum class NMFInit { Random, Given };
constexpr auto enum_names(NMFInit) {
  return std::to_array<EnumName<NMFInit>>({{NMFInit::Random, "random"}, {NMFInit::Given, "given"}});
}

struct NMFOptions {
  Index num_components = 2;  // k ≥ 1
  NMFLoss loss = NMFLoss::Frobenius;
  NMFInit init = NMFInit::Random;
  Tensor initial_W = Tensor();  // n×k, for NMFInit::Given
  Tensor initial_H = Tensor();  // k×d, for NMFInit::Given
  Index max_iterations = 200;   // ≥ 1
  Scalar tolerance = 1e-4;      // ≥ 0 (Note [NMF stopping]; 0: run max_iterations)
  std::uint64_t seed = 0;

  template <class V>
  void visit(V&& v) {
    v("num_components", num_components, "≥ 1 parts k");
    v("loss", loss, "frobenius (½‖X − WH‖²) or kullback_leibler (generalised KL divergence)");
    v("init", init, "random (scaled |normal| entries from the seed) or given (initial_W, initial_H)");
    v("initial_W", initial_W, "n×k non-negative codes for init = given");
    v("initial_H", initial_H, "k×d non-negative parts for init = given");
    v("max_iterations", max_iterations, "≥ 1 iterations (a W update then an H update)");
    v("tolerance", tolerance,
      "≥ 0: stop when 10 iterations lower the error by less than tolerance × the initial error");
    v("seed", seed, "for random initial factors (fit and transform)");
  }
};

class NMF : public Estimator<NMF, NMFOptions> {
 public:
  static constexpr const char* kTypeName = "nmf";

  // Throws ValueError: num_components < 1, max_iterations < 1, tolerance < 0 or not finite;
  // given factors that are negative or not finite, or that are missing, or of inconsistent k.
  explicit NMF(NMFOptions options = {});

  // X n×d finite and non-negative, not all zero (ValueError naming the first negative entry
  // otherwise); given factors of the wrong shape are a ShapeError. Callbacks (optim/callbacks.h):
  // value = the reconstruction error, x = (W, H) row by row.
  NMF& fit(const Tensor& X, const CallbackList& callbacks = {});
  // W for the training data (the fitted codes).
  Tensor fit_transform(const Tensor& X, const CallbackList& callbacks = {});
  // The codes W of new rows, H fixed (the usual input checks, and non-negative).
  Tensor transform(const Tensor& X) const;
  Tensor inverse_transform(const Tensor& W) const;  // W H, W m×k

  const Tensor& components() const { return fitted_value(H_); }  // H, k×d
  Scalar reconstruction_error() const { return fitted_value(reconstruction_error_); }
  Index num_iter() const { return fitted_value(num_iter_); }
  bool converged() const { return fitted_value(converged_); }
  // The fit's Result (status, message, history of the error); of this process, not saved.
  const Result& fit_result() const { return fitted_value(result_); }

  // The options, H, the error, the iteration count and the convergence flag. ParseError unless
  // H is k×d, finite and non-negative.
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(H_, reconstruction_error_, num_iter_, converged_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor H_;
  Tensor W_train_;  // the codes of the training data (fit_transform returns them; not saved)
  Scalar reconstruction_error_ = 0;
  Index num_iter_ = 0;
  bool converged_ = false;
  Result result_;
};

extern template class Estimator<NMF, NMFOptions>;

}  // namespace dagml
