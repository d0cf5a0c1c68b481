#include "models/decompose/sparse_coding.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <Eigen/QR>
#include <cmath>
#include <vector>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"
#include "models/io/loaded_checks.h"
#include "models/io/model_file.h"
#include "models/linear/matching_pursuit.h"
#include "optim/iteration_loop.h"

namespace dagml {

template class Estimator<SparseCoding, SparseCodingOptions>;

namespace {

constexpr const char* kSparseCodingName = "SparseCoding";

// OMP codes of every row of X with the atoms of D (q×d): Z n×q, ≤ k non-zeros a row.
Tensor omp_codes(const Tensor& X, const Tensor& D, Index k) {
  const Tensor atoms_as_columns = D.transpose();  // d×q: the design matrix of every row's fit
  Tensor Z(X.rows(), D.rows());
  tbb::parallel_for(tbb::blocked_range<Index>(0, X.rows(), 16), [&](const tbb::blocked_range<Index>& rows) {
    for (Index i = rows.begin(); i < rows.end(); ++i) {
      MatchingPursuit omp({.num_nonzero = k, .fit_intercept = false});
      Z.row(i) = omp.fit(atoms_as_columns, X.row(i).transpose()).coef().transpose();
    }
  });
  return Z;
}

// ‖X − Z D‖²/n.
Scalar coding_error(const Tensor& X, const Tensor& Z, const Tensor& D) {
  return (X - Z * D).squaredNorm() / static_cast<Scalar>(X.rows());
}

// q distinct non-zero training rows in a seeded random order, normalised.
Tensor atoms_from_rows(const Tensor& X, Index q, std::uint64_t seed, const char* who) {
  Tensor D(q, X.cols());
  Index found = 0;
  for (Index i : random_permutation(X.rows(), seed)) {
    const Scalar norm = X.row(i).norm();
    if (norm == 0) continue;
    const auto atom = (X.row(i) / norm).eval();
    bool repeated = false;
    for (Index j = 0; j < found && !repeated; ++j) repeated = D.row(j) == atom;
    if (repeated) continue;
    D.row(found++) = atom;
    if (found == q) return D;
  }
  throw ValueError(fmt::format("{}: expected at least num_components = {} distinct non-zero rows for init = "
                               "data_rows, found {}",
                               who, q, found));
}

// Two atoms closer than this (|cos|) are one atom twice: the later one is replaced.
constexpr Scalar kDuplicateAtomCosine = 0.99;

// The method of optimal directions: D = Z⁺ X (minimum-norm least squares), each atom rescaled to
// unit norm. An atom no code uses, or one that repeats an earlier atom (|cos| > 0.99), becomes the
// worst-reconstructed training row (K-SVD's clean-up step, Aharon et al. 2006), so that no atom
// is wasted.
Tensor optimal_directions(const Tensor& X, const Tensor& Z, const Tensor& D_previous) {
  Tensor D = Eigen::CompleteOrthogonalDecomposition<Tensor>(Z).solve(X);
  Vector residual_norms = (X - Z * D_previous).rowwise().squaredNorm();
  for (Index j = 0; j < D.rows(); ++j) {
    const Scalar norm = D.row(j).norm();
    bool useful = norm > 0 && Z.col(j).any();
    if (useful) {
      D.row(j) /= norm;
      for (Index i = 0; i < j && useful; ++i) useful = std::abs(D.row(i).dot(D.row(j))) <= kDuplicateAtomCosine;
    }
    if (useful) continue;
    Index worst = 0;
    residual_norms.maxCoeff(&worst);
    const Scalar worst_norm = X.row(worst).norm();
    D.row(j) = worst_norm > 0 ? (X.row(worst) / worst_norm).eval() : D_previous.row(j);
    residual_norms(worst) = -1;  // each row revives one atom at most
  }
  return D;
}

Vector flatten_dictionary(const Tensor& D) { return Eigen::Map<const Vector>(D.data(), D.size()); }

}  // namespace

SparseCoding::SparseCoding(SparseCodingOptions options) : Estimator(std::move(options)) {
  const auto& o = options_;
  if (o.num_components < 1)
    throw ValueError(fmt::format("{}: expected num_components ≥ 1, found {}", kSparseCodingName, o.num_components));
  if (o.num_nonzero < 1 || o.num_nonzero > o.num_components)
    throw ValueError(fmt::format("{}: expected 1 ≤ num_nonzero ≤ num_components = {}, found {}", kSparseCodingName,
                                 o.num_components, o.num_nonzero));
  if (o.max_iterations < 0)
    throw ValueError(fmt::format("{}: expected max_iterations ≥ 0, found {}", kSparseCodingName, o.max_iterations));
  if (!(o.tolerance >= 0) || !std::isfinite(o.tolerance))
    throw ValueError(fmt::format("{}: expected a finite tolerance ≥ 0, found {}", kSparseCodingName, o.tolerance));
  if (o.init == SparseCodingInit::Given) {
    const Tensor& D0 = o.initial_dictionary;
    if (D0.rows() != o.num_components || D0.cols() == 0)
      throw ValueError(fmt::format("{}: expected an initial_dictionary of num_components = {} rows for init = given, "
                                   "found {}×{}",
                                   kSparseCodingName, o.num_components, D0.rows(), D0.cols()));
    check_finite(D0, kSparseCodingName);
    for (Index j = 0; j < D0.rows(); ++j)
      if (D0.row(j).norm() == 0)
        throw ValueError(fmt::format("{}: expected initial atoms of non-zero norm, found row {} all zero",
                                     kSparseCodingName, j));
  }
}

SparseCoding& SparseCoding::fit(const Tensor& X, const CallbackList& callbacks) {
  const char* who = "SparseCoding::fit";
  check_fit_data(X, who);
  const auto& o = options_;
  const Index k = o.num_nonzero;
  Tensor D;
  if (o.init == SparseCodingInit::Given) {
    if (o.initial_dictionary.cols() != X.cols())
      throw ShapeError(fmt::format("{}: expected an initial_dictionary of {} columns (the features), found {}", who,
                                   X.cols(), o.initial_dictionary.cols()));
    D = o.initial_dictionary.rowwise().normalized();
  } else {
    D = atoms_from_rows(X, o.num_components, o.seed, who);
  }

  Tensor Z = omp_codes(X, D, k);
  Scalar error = coding_error(X, Z, D);
  IterationLoop loop({.max_iterations = o.max_iterations, .gradient_tolerance = 0}, callbacks);
  if (loop.guard("coding error", error) && loop.start(loop.watched() ? flatten_dictionary(D) : Vector(), error)) {
    while (!loop.exhausted()) {
      Tensor D_next = optimal_directions(X, Z, D);
      Tensor Z_next = omp_codes(X, D_next, k);
      const Scalar next_error = coding_error(X, Z_next, D_next);
      if (!loop.guard("coding error", next_error, D_next)) break;
      if (next_error > error) {  // the greedy codes lost more than the new atoms gained: keep D
        if (next_error - error <= o.tolerance * error)
          loop.converge(Status::ValueTolerance,
                        fmt::format("the coding error changed by {:.3g}, at most tolerance × its previous value",
                                    next_error - error));
        else
          loop.fail(Status::Stalled, fmt::format("the coding error rose from {:.6g} to {:.6g} (OMP is greedy); the "
                                                 "previous dictionary is kept",
                                                 error, next_error));
        break;
      }
      const Scalar decrease = error - next_error;
      D = std::move(D_next);
      Z = std::move(Z_next);
      error = next_error;
      if (loop.step(error, IterationLoop::kNotComputed, loop.watched() ? flatten_dictionary(D) : Vector())) break;
      if (decrease <= o.tolerance * (error + decrease)) {
        loop.converge(Status::ValueTolerance,
                      fmt::format("the coding error fell by {:.3g}, at most tolerance × its previous value", decrease));
        break;
      }
    }
  }
  Result result;
  result.value = error;
  result.gradient_norm = IterationLoop::kNotComputed;
  result = loop.finish(std::move(result));
  if (result.status == Status::NumericalFailure) throw NumericalError(fmt::format("{}: {}", who, result.message));
  dictionary_ = std::move(D);
  codes_train_ = std::move(Z);
  error_ = error;
  num_iter_ = result.iterations;
  converged_ = result.converged();
  result_ = std::move(result);
  set_fitted(X.cols());
  return *this;
}

Tensor SparseCoding::fit_transform(const Tensor& X, const CallbackList& callbacks) {
  return fit(X, callbacks).codes_train_;
}

Tensor SparseCoding::transform(const Tensor& X) const {
  check_input(X);
  return omp_codes(X, dictionary_, options_.num_nonzero);
}

Tensor SparseCoding::inverse_transform(const Tensor& Z) const {
  require_fitted();
  const char* who = "SparseCoding::inverse_transform";
  check_columns(Z, dictionary_.rows(), who);
  check_finite(Z, who);
  return Z * dictionary_;
}

void SparseCoding::check_loaded(const ModelInputArchive& ar) const {
  if (!fitted()) return;
  expect_shape(ar, kSparseCodingName, "components", dictionary_, options_.num_components, num_features());
  if (!dictionary_.allFinite() || ((dictionary_.rowwise().norm().array() - 1).abs() > 1e-9).any())
    ar.fail(fmt::format("{}: expected finite atoms of unit norm, found another", kSparseCodingName));
  if (!std::isfinite(error_) || error_ < 0)
    ar.fail(fmt::format("{}: expected a finite coding error ≥ 0, found {}", kSparseCodingName, error_));
}

}  // namespace dagml
