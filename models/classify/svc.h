// Kernel support-vector classifier, solved in the dual by SMO (models/classify/smo_solver.h):
// the C-SVM and the ν-SVM, binary and multiclass by one-vs-one (as LIBSVM and scikit-learn's SVC).
//
// C-SVM primal (notes 003 L611, notes 004 §3.1.2; scikit-learn's scaling):
//   min_{w,b,ξ} ½‖w‖² + C Σᵢ ξᵢ   s.t.  yᵢ(wᵀφ(xᵢ) + b) ≥ 1 − ξᵢ,  ξᵢ ≥ 0,     yᵢ ∈ {−1, +1}
// dual: max_α Σαᵢ − ½ ΣΣ αᵢαⱼyᵢyⱼk(xᵢ, xⱼ)  s.t.  0 ≤ αᵢ ≤ C,  Σαᵢyᵢ = 0;
// w = Σ αᵢyᵢφ(xᵢ), f(x) = Σ αᵢyᵢ k(xᵢ, x) + b, ξᵢ = max(0, 1 − yᵢ f(xᵢ)).
// Notes 001 write ‖w‖² + C Σξ (no ½): the same (w, b) with C_dagml = C₀₀₁ / 2 (option
// half_norm = false does the conversion). Notes 000's λ‖w‖² + (1/n) Σ hinge is C = 1/(2λn).
// The hard margin is the limit C → ∞ (use a large C, e.g. 1e10).
//
// ν-SVM (notes 004 §3.1.3): min ½‖w‖² − νρ + (1/n) Σξᵢ s.t. yᵢ(wᵀφ(xᵢ) + b) ≥ ρ − ξᵢ, ξ ≥ 0,
// ρ ≥ 0; ν ∈ (0, 1] bounds the fraction of margin errors from above and the fraction of support
// vectors from below. Decision values are rescaled by 1/ρ (LIBSVM's convention).
//
// Labels are 0..K−1. In the binary problem of the pair (a, b), a < b, class b is +1 and class a
// is −1; so for two classes f(x) > 0 means class 1. Multiclass prediction is a vote over the
// K(K−1)/2 pairs, ties between classes going to the lower class index.
//
// Callbacks (optim/callbacks.h, Note [Iteration loop] in optim/iteration_loop.h): one session
// over the pairs, which are then solved one after the other in pair order (in parallel when no
// callback is given; the model is the same). on_begin with the first pair's start; on_iteration
// after every SMO step of every pair, numbered 1, 2, … across pairs, with value = the pair's dual
// objective ½αᵀQα − eᵀα (ν-SVM: ½αᵀQα, before rescaling), gradient norm = its KKT violation, and
// x = the pair's α; on_end with fit_result(), whose x is empty (the fitted state is per pair, so
// on_end amendments of x are not applied). A Stop ends the fit after that step: the pair stops
// there, the pairs not yet begun stop before their first step (α at its start: 0 for the C-SVM),
// and every pair's report and fit_result() say Status::CallbackStop where it applies.
#pragma once

#include <string>
#include <vector>

#include "graph/tensor.h"
#include "models/classify/score_labels.h"
#include "models/classify/smo_solver.h"
#include "models/io/estimator.h"
#include "models/kernel/kernel.h"
#include "models/kernel/kernel_io.h"

namespace dagml {

struct SVCOptions {
  Scalar C = 1;                          // > 0; the box bound of the C-SVM dual
  Scalar nu = 0;                         // 0: C-SVM; in (0, 1]: ν-SVM (C is then unused)
  KernelPtr kernel{};                    // null: RBF with γ = 1 / (d · Var(X)) over all entries of X (scikit-learn's
                                         // gamma="scale"; γ = 1 when X is constant)
  Scalar tolerance = 1e-3;               // SMO stopping tolerance on the KKT violation (> 0)
  Index max_iterations = -1;             // SMO iteration limit per binary problem; −1: max(10⁷, 100 n)
  double cache_mb = 200;                 // kernel cache budget in MiB (> 0), Note [SVM kernel cache]
  bool half_norm = true;                 // false: C is notes 001's C in ‖w‖² + C Σξ
  ZeroScore zero = ZeroScore::Positive;  // binary: the class of f(x) = 0

  template <class V>
  void visit(V&& v) {
    v("C", C, "> 0, the box bound of the C-SVM dual");
    v("nu", nu, "0: the C-SVM; in (0, 1]: the ν-SVM (C unused)");
    v("kernel", kernel, "linear, polynomial(degree=p, gamma=γ, coef0=c) or rbf(gamma=γ); empty: rbf, γ = 1/(d·Var X)");
    v("tolerance", tolerance, "> 0, SMO stops when the KKT violation is below it");
    v("max_iterations", max_iterations, "SMO iterations per binary problem (−1: max(10⁷, 100 n))");
    v("cache_mb", cache_mb, "> 0, the kernel cache budget in MiB");
    v("half_norm", half_norm, "½‖w‖² + C Σξ (false: notes 001's ‖w‖² + C Σξ)");
    v("zero", zero, "binary: the class of f(x) = 0, positive or negative");
  }
};

// One binary problem of the fit: the pair of classes, and how SMO ended.
struct SvmPairReport {
  Index negative_class = 0, positive_class = 1;
  Index iterations = 0;
  bool converged = false;  // false: max_iterations reached with the KKT violation ≥ tolerance
  Scalar violation = 0;
  Scalar objective = 0;  // dual objective ½αᵀQα − eᵀα (minimisation form)
  Index num_support = 0;
  Status status = Status::MaxIterations;  // GradientTolerance (KKT test held), MaxIterations, CallbackStop
  std::string message;
};

class SVC : public Estimator<SVC, SVCOptions> {
 public:
  static constexpr const char* kTypeName = "svc";

  // Throws ValueError for C ≤ 0, ν ∉ [0, 1], tolerance ≤ 0, max_iterations < −1, cache_mb ≤ 0.
  explicit SVC(const SVCOptions& options = {});

  // X: n×d, y: n labels 0..K−1 (K ≥ 2, every class present). Throws ShapeError / ValueError
  // for bad shapes, NaN or infinite values, empty data, bad labels, one class only, an
  // infeasible ν, or a custom kernel whose Gram matrix is not positive semi-definite.
  // Reaching max_iterations is not an error: see fit_report(). The callbacks are called as
  // described above.
  SVC& fit(const Tensor& X, const Vector& y, const CallbackList& callbacks = {});

  // n×P decision values, P = K(K−1)/2 pairs in the order (0,1), (0,2), …, (0,K−1), (1,2), …;
  // f > 0 votes for the pair's higher class. For K = 2 a single column.
  Tensor decision_function(const Tensor& X) const;
  Vector predict(const Tensor& X) const;
  Scalar score(const Tensor& X, const Vector& y) const;  // accuracy

  Index num_classes() const { return fitted_value(num_classes_); }
  // Training-row indices of the support vectors (αᵢ > 0 in some pair), grouped by class, then
  // ascending (scikit-learn's support_ order).
  const std::vector<Index>& support() const { return fitted_value(support_); }
  const Tensor& support_vectors() const { return fitted_value(support_vectors_); }  // one row per entry of support()
  const std::vector<Index>& num_support() const { return fitted_value(num_support_); }  // per class
  // n_sv × P: column p holds αᵢyᵢ of pair p (0 for support vectors not in that pair).
  const Tensor& dual_coef() const { return fitted_value(dual_coef_); }
  const Vector& intercept() const { return fitted_value(intercept_); }  // b of each pair, length P
  // Linear kernel only (ValueError otherwise): P×d, row p is w_p = Σ αᵢyᵢxᵢ.
  Tensor coef() const;
  // Slacks ξᵢ = max(0, 1 − yᵢ f(xᵢ)) of pair p on its training rows: the rows of its lower
  // class, then those of its higher class, each in ascending order (LIBSVM's grouping). For the ν-SVM, with f rescaled
  // as in decision_function.
  const Vector& slacks(Index pair = 0) const;
  // How SMO ended on each pair (empty after load: reports are not saved).
  const std::vector<SvmPairReport>& fit_report() const { return fitted_value(report_); }
  bool converged() const;  // every pair converged
  // The whole fit: iterations = SMO steps over all pairs, value = the sum of the pairs' dual
  // objectives, gradient_norm = the largest final KKT violation, status = CallbackStop if a
  // callback stopped the fit, else MaxIterations if some pair reached max_iterations, else
  // GradientTolerance; x and history are empty. Of the fit in this process: not saved in files.
  const Result& fit_result() const { return fitted_value(result_); }
  std::string kernel_name() const { return fitted_value(kernel_)->name(); }

  // The options, the kernel used (ValueError for a custom kernel, which is code), K, the support
  // vectors with their dual coefficients, the intercepts and the slacks. A loaded model must
  // have K ≥ 2 classes and arrays whose shapes agree with K, d and the support (ParseError).
  template <class Archive>
  void serialize(Archive& ar) {
    serialize_estimator(ar);
    ar(kernel_, num_classes_, support_, num_support_, support_vectors_, dual_coef_, intercept_, slacks_);
    if constexpr (Archive::is_loading::value) check_loaded(ar);
  }

 private:
  void check_loaded(const class ModelInputArchive& ar) const;

  KernelPtr kernel_;
  Index num_classes_ = 0;
  std::vector<Index> support_, num_support_;
  Tensor support_vectors_, dual_coef_;
  Vector intercept_;
  std::vector<Vector> slacks_;
  std::vector<SvmPairReport> report_;
  Result result_;
};

extern template class Estimator<SVC, SVCOptions>;

}  // namespace dagml
