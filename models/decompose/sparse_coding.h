// Sparse coding (Olshausen & Field; notes 002 §3.2.2, a member of the matrix-factorisation
// framework): X ≈ Z D with a dictionary D of q atoms (q×d, unit-norm rows, often q > d:
// overcomplete) and codes Z (n×q) with at most k non-zeros a row,
//
//   min_{D, Z} ‖X − Z D‖²_F   subject to ‖z_i‖₀ ≤ k and ‖d_j‖ = 1,
//
// inference by minimisation over Z. Neither step has a closed form together; the fit alternates
//   codes       z_i = OMP(D, x_i, k): orthogonal matching pursuit (models/linear/matching_pursuit.h)
//               with the atoms as columns, no intercept — greedy k-sparse least squares;
//   dictionary  D = argmin_D ‖X − Z D‖² = Z⁺ X (the method of optimal directions, Engan et al.
//               1999; the minimum-norm least-squares solution), then every atom rescaled to
//               unit norm. An atom no code uses, or one within |cos| > 0.99 of an earlier atom,
//               is replaced by the training row reconstructed worst (normalised), so no atom
//               stays dead or doubled.
// The codes step is greedy, so the error ‖X − Z D‖²/n is not guaranteed to fall at every
// iteration: the fit stops when it falls by less than tolerance × its previous value (converged),
// when it rises (the previous dictionary is kept; the status says it stalled), or after
// max_iterations. max_iterations = 0 keeps the initial dictionary: with init = given that is
// scikit-learn's SparseCoder(transform_algorithm='omp').
//
//   SparseCoding sc({.num_components = 64, .num_nonzero = 3, .seed = 1});
//   Tensor Z = sc.fit_transform(X);          // n×64, ≤ 3 non-zeros a row
//   Tensor X_hat = sc.inverse_transform(Z);  // Z D
#pragma once

#include <cstdint>

#include "graph/enum_names.h"
#include "graph/tensor.h"
#include "models/io/estimator.h"
#include "optim/callbacks.h"
#include "optim/result.h"

namespace dagml {

enum class SparseCodingInit { DataRows, Given };
constexpr auto enum_names(SparseCodingInit) {
  return std::to_array<EnumName<SparseCodingInit>>(
      {{SparseCodingInit::DataRows, "data_rows"}, {SparseCodingInit::Given, "given"}});
}

struct SparseCodingOptions {
  Index num_components = 8;  // q ≥ 1 atoms
  Index num_nonzero = 2;     // 1 ≤ k ≤ q non-zeros a code
  SparseCodingInit init = SparseCodingInit::DataRows;
  Tensor initial_dictionary = Tensor();  // q×d, for init = given (rows normalised at fit)
  Index max_iterations = 50;             // ≥ 0 dictionary updates
  Scalar tolerance = 1e-6;               // ≥ 0, relative decrease of the error that stops the fit
  std::uint64_t seed = 0;

  template <class V>
  void visit(V&& v) {
    v("num_components", num_components, "q ≥ 1 atoms of the dictionary");
    v("num_nonzero", num_nonzero, "1 ≤ k ≤ q non-zero coefficients a code");
    v("init", init, "data_rows (q distinct training rows from the seed, normalised) or given");
    v("initial_dictionary", initial_dictionary, "q×d starting atoms for init = given");
    v("max_iterations", max_iterations, "≥ 0 dictionary updates (0: keep the initial dictionary)");
    v("tolerance", tolerance, "≥ 0: stop when the error falls by less than tolerance × its previous value");
    v("seed", seed, "for the initial atoms");
  }
};

class SparseCoding : public Estimator<SparseCoding, SparseCodingOptions> {
 public:
  static constexpr const char* kTypeName = "sparse_coding";

  // ValueError: num_components < 1, num_nonzero outside 1..q, max_iterations < 0, tolerance < 0
  // or not finite, a given dictionary that is not q×d with finite rows of non-zero norm.
  explicit SparseCoding(SparseCodingOptions options = {});

  // X n×d finite; init = data_rows needs q distinct rows (ValueError), a given dictionary d
  // columns (ShapeError). Callbacks (optim/callbacks.h): value = ‖X − Z D‖²/n, x = D row by row.
  SparseCoding& fit(const Tensor& X, const CallbackList& callbacks = {});
  Tensor fit_transform(const Tensor& X, const CallbackList& callbacks = {});
  // The codes of the rows of X: OMP with the fitted atoms, n×q with ≤ k non-zeros a row; rows in
  // parallel (TBB), each on its own, so the result does not depend on the thread count.
  Tensor transform(const Tensor& X) const;
  Tensor inverse_transform(const Tensor& Z) const;  // Z D, Z m×q

  const Tensor& components() const { return fitted_value(dictionary_); }  // D, q×d, unit-norm rows
  Scalar error() const { return fitted_value(error_); }                   // ‖X − Z D‖²/n at the end of fit
  Index num_iter() const { return fitted_value(num_iter_); }
  bool converged() const { return fitted_value(converged_); }
  const Result& fit_result() const { return fitted_value(result_); }  // of this process, not saved

  // The options, D, the error, the iteration count and the convergence flag. ParseError unless D
  // is q×d with finite unit-norm rows.
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(dictionary_, error_, num_iter_, converged_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  Tensor dictionary_;
  Tensor codes_train_;  // the codes of the training rows (fit_transform returns them; not saved)
  Scalar error_ = 0;
  Index num_iter_ = 0;
  bool converged_ = false;
  Result result_;
};

extern template class Estimator<SparseCoding, SparseCodingOptions>;

}  // namespace dagml
