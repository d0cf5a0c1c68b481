// Independent component analysis by FastICA (Hyvärinen & Oja 2000; notes 002 list ICA — codes
// statistically independent, recognition matrix U — among the matrix factorisations, L1500–1511,
// without an algorithm), the symmetric ("parallel") fixed-point iteration of scikit-learn's
// FastICA(algorithm='parallel', whiten='unit-variance', whiten_solver='svd').
//
// The model: x = μ + M s with independent non-Gaussian sources s; ICA finds an unmixing that makes
// the recovered sources as non-Gaussian (so as independent) as possible.
//   1. Whiten by PCA: X̃ = X − 1μᵀ = P diag(σ) Qᵀ (thin SVD), K = diag(1/σ_1..k) Q_kᵀ (k×d), and
//      Z = √n X̃ Kᵀ (n×k) has ZᵀZ/n = I (Note [PCA signs] fixes the signs of Q's columns).
//   2. From W₀ (given, or standard normal from the seed), W ← (W Wᵀ)^{-1/2} W and iterate
//        Y = Z Wᵀ,   W' = g(Y)ᵀ Z / n − diag(mean_rows g'(Y)) W,   W' ← (W'W'ᵀ)^{-1/2} W'
//      until lim = max_i | |⟨w'_i, w_i⟩| − 1 | < tolerance (converged) or max_iterations.
//      Contrasts G with g = G', g' = G'':
//        logcosh  G = log cosh(α y)/α,  g = tanh(α y),          g' = α (1 − tanh²(α y))
//        exp      G = −exp(−y²/2),      g = y exp(−y²/2),       g' = (1 − y²) exp(−y²/2)
//        cube     G = y⁴/4,             g = y³,                 g' = 3 y²
//      The value the callbacks see is Σ_i mean_rows G(Y_i), the contrast the iteration extremises.
//   3. Unit variance: with S = X̃ Kᵀ Wᵀ, each row of W is divided by the (1/n) standard deviation
//      of its column of S. Then components() = W K (k×d, the unmixing in data coordinates),
//      mixing() = its pseudo-inverse (d×k), unmixing() = W (k×k, in whitened coordinates).
//   transform(X) = (X − μ) componentsᵀ  (n×k sources, unit variance on the training data),
//   inverse_transform(S) = S mixingᵀ + μ.
// Sources are recovered up to order and sign (ICA's own indeterminacy). From the same data and
// the same W₀ expressed in the same whitened coordinates dagml reproduces scikit-learn 1.2.1 (whose
// whitening makes the first entry of each u positive instead: W₀ differs by those signs; tested).
//
// Note [FastICA rank]
// Whitening divides by σ_j: a component of variance at most max(n, d)·ε·λ_1 (Note [PCA rank])
// cannot be whitened, and asking for more components than the rank r is a ValueError giving r;
// num_components = 0 takes all r.
#pragma once

#include <cstdint>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class FastICAContrast { LogCosh, Exp, Cube };
constexpr auto enum_names(FastICAContrast) {
  return std::to_array<EnumName<FastICAContrast>>(
      {{FastICAContrast::LogCosh, "logcosh"}, {FastICAContrast::Exp, "exp"}, {FastICAContrast::Cube, "cube"}});
}

struct FastICAOptions {
  Index num_components = 0;  // 1 ≤ k ≤ rank, or 0: the rank (Note [FastICA rank])
  FastICAContrast contrast = FastICAContrast::LogCosh;
  Scalar alpha = 1;             // logcosh's α ∈ [1, 2]
  Index max_iterations = 200;   // ≥ 1 fixed-point iterations
  Scalar tolerance = 1e-4;      // > 0: converged when max_i ||⟨w'_i, w_i⟩| − 1| < tolerance
  Tensor initial_unmixing = Tensor();  // W₀, k×k; empty: standard normal entries from the seed
  std::uint64_t seed = 0;       // for W₀ when none is given

  template <class V>
  void visit(V&& v) {
    v("num_components", num_components, "≥ 0 sources; 0: the rank of the centred data");
    v("contrast", contrast, "logcosh, exp or cube: the non-Gaussianity measure G");
    v("alpha", alpha, "α ∈ [1, 2] of logcosh, G = log cosh(α y)/α");
    v("max_iterations", max_iterations, "≥ 1 fixed-point iterations");
    v("tolerance", tolerance, "> 0: converged when every unmixing row moves by less (1 − |⟨w', w⟩|)");
    v("initial_unmixing", initial_unmixing, "W₀ (k×k, in whitened coordinates); empty: drawn from the seed");
    v("seed", seed, "for W₀ when none is given (standard normal entries, row after row)");
  }
};

class FastICA : public Estimator<FastICA, FastICAOptions> {
 public:
  static constexpr const char* kTypeName = "fast_ica";

  // Throws ValueError: num_components < 0; alpha outside [1, 2]; max_iterations < 1; tolerance not
  // > 0 and finite; a non-square or non-finite initial_unmixing, or one of another size than a
  // num_components > 0.
  explicit FastICA(FastICAOptions options = {});

  // X n×d finite with n ≥ 2 (ValueError otherwise, and for num_components above the rank or an
  // initial_unmixing not k×k: Note [FastICA rank]). Not converging within max_iterations is
  // reported by converged() and fit_result(), not thrown. NumericalError if an SVD fails.
  // Callbacks (optim/callbacks.h): value = the contrast, x = W row by row.
  FastICA& fit(const Tensor& X, const CallbackList& callbacks = {});
  Tensor fit_transform(const Tensor& X, const CallbackList& callbacks = {});
  // n×k sources (X − μ) componentsᵀ; the usual input checks (ShapeError, ValueError).
  Tensor transform(const Tensor& X) const;
  // n×d mixtures S mixingᵀ + μ from sources S n×k (ShapeError for another width, ValueError for NaN).
  Tensor inverse_transform(const Tensor& S) const;

  const Tensor& components() const { return fitted_value(components_); }  // W K, k×d
  const Tensor& mixing() const { return fitted_value(mixing_); }          // (W K)⁺, d×k
  const Tensor& whitening() const { return fitted_value(whitening_); }    // K, k×d
  const Tensor& unmixing() const { return fitted_value(unmixing_); }      // W, k×k (unit-variance rows scaled)
  const Vector& mean() const { return fitted_value(mean_); }              // μ, d
  Index num_components() const { return fitted_value(components_).rows(); }
  Index num_iter() const { return fitted_value(num_iter_); }    // fixed-point iterations run
  bool converged() const { return fitted_value(converged_); }  // lim < tolerance was reached
  // The loop's Result (status, message, history of the contrast); of the fit in this process, not saved.
  const Result& fit_result() const { return fitted_value(result_); }

  // The options, the matrices above, μ, the iteration count and the convergence flag. A loaded
  // model must have shapes that agree (1 ≤ k ≤ d) and finite entries (ParseError otherwise).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(components_, mixing_, whitening_, unmixing_, mean_, num_iter_, converged_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor components_, mixing_, whitening_, unmixing_;
  Vector mean_;
  Index num_iter_ = 0;
  bool converged_ = false;
  Result result_;
};

extern template class Estimator<FastICA, FastICAOptions>;

}  // namespace dagml
