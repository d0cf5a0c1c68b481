// Non-negative matrix factorisation under any divergence the user writes as a graph (notes 002 §3,
// the matrix factorisation framework: a loss D(X‖WH) between the data and its reconstruction,
// minimised over non-negative factors). NMF's multiplicative updates (models/decompose/nmf.h) exist
// for two divergences only, each derived by hand; here the user writes D with graph ops, autodiff
// gives ∇_W D and ∇_H D, and projected gradient (optim/projected_gradient.h) minimises
//
//   min_{W ≥ 0, H ≥ 0} D(X‖WH),   x = (W row by row, then H row by row),
//   x_{t+1} = P(x_t − α_t ∇D(x_t)),   P clamps every entry at 0,
//
// with α_t found by backtracking along the projection arc. The run stops when the projected
// gradient ‖x − P(x − ∇D)‖₂ (zero exactly at a KKT point of the constrained problem) falls below
// stop.gradient_tolerance, when a relative change of D is below stop.value_tolerance, or after
// stop.max_iterations; Result says which.
//
//   NmfDivergence itakura_saito = [](Var X, Var R) {   // Σ X/R − log(X/R) − 1, X > 0
//     Var ratio = X / R;
//     return sum(ratio - log(ratio)) - Scalar(X.value().size());
//   };
//   NmfGraphFit f = fit_nmf_by_gradient(X, W0, H0, itakura_saito);
//
// The divergence must be finite at the start and should be differentiable where R > 0; one that
// takes log R or divides by R must keep R away from 0 itself (for example with R + ε), since the
// projection puts entries of W and H exactly at 0. A step that makes D NaN or infinite is a
// NumericalFailure, with the last finite factors returned.
#pragma once

#include <functional>

#include "graph/graph.h"
#include "optim/callbacks.h"
#include "optim/projected_gradient.h"
#include "optim/result.h"

namespace dagml {

// D(X‖R) as a 1×1 node, from the data X (n×d input) and the reconstruction R = WH (n×d).
using NmfDivergence = std::function<Var(Var X, Var reconstruction)>;

struct NmfGraphFit {
  Tensor W;       // n×k codes
  Tensor H;       // k×d parts
  Result result;  // the projected-gradient run: value = D(X‖WH), status, message, history
};

// Minimises D(X‖WH) over W ≥ 0 and H ≥ 0 from W0 (n×k) and H0 (k×d). Callbacks see value = D and
// x = (W, H) row by row. ValueError for X, W0 or H0 that is empty, not finite or negative (or
// options ProjectedGradient refuses); ShapeError when the shapes disagree or the divergence is not
// 1×1; the box in `options` is replaced by W, H ≥ 0.
NmfGraphFit fit_nmf_by_gradient(const Tensor& X, const Tensor& W0, const Tensor& H0, const NmfDivergence& divergence,
                                ProjectedGradientOptions options = {}, const CallbackList& callbacks = {});

// The codes of new rows: the same minimisation over W alone, H fixed (k×d). The result's H is H.
NmfGraphFit nmf_codes_by_gradient(const Tensor& X, const Tensor& W0, const Tensor& H, const NmfDivergence& divergence,
                                  ProjectedGradientOptions options = {}, const CallbackList& callbacks = {});

// The two divergences of the multiplicative updates, as graphs (a start for users' own):
//   ½ ‖X − R‖²_F                              (NMFLoss::Frobenius)
//   Σ_ij X_ij log(X_ij / R_ij) − X_ij + R_ij  (NMFLoss::KullbackLeibler; 0 log 0 = 0, R > 0)
Var frobenius_divergence(Var X, Var reconstruction);
Var kullback_leibler_divergence(Var X, Var reconstruction);

}  // namespace dagml
