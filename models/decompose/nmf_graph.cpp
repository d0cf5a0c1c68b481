#include "models/decompose/nmf_graph.h"

#include <fmt/format.h>

#include <vector>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "models/data/validate.h"
#include "optim/graph_objective.h"

namespace dagml {

namespace {

constexpr const char* kNmfGraphName = "NMF by gradient";

void check_nmf_graph_factor(const Tensor& M, const char* what) {
  check_not_empty(M, kNmfGraphName);
  check_finite(M, kNmfGraphName);
  check_non_negative(M, what, kNmfGraphName);
}

void check_nmf_graph_shapes(const Tensor& X, const Tensor& W, const Tensor& H) {
  if (W.rows() != X.rows() || W.cols() != H.rows() || H.cols() != X.cols())
    throw ShapeError(fmt::format("{}: expected W n×k and H k×d for X {}×{}, found W {}×{} and H {}×{}", kNmfGraphName,
                                 X.rows(), X.cols(), W.rows(), W.cols(), H.rows(), H.cols()));
}

// Minimises D(X‖WH) over the factors that are graph parameters (W, and H when `update_parts`).
NmfGraphFit minimize_divergence(const Tensor& X, const Tensor& W0, const Tensor& H0, bool update_parts,
                                const NmfDivergence& divergence, ProjectedGradientOptions options,
                                const CallbackList& callbacks) {
  check_nmf_graph_factor(X, "data X");
  check_nmf_graph_factor(W0, "initial codes W");
  check_nmf_graph_factor(H0, update_parts ? "initial parts H" : "parts H");
  check_nmf_graph_shapes(X, W0, H0);

  Graph g;
  const Var data = g.input("X", X);
  const Var W = g.parameter("W", W0);
  const Var H = update_parts ? g.parameter("H", H0) : g.constant(H0, "H");
  std::vector<Var> factors{W};
  if (update_parts) factors.push_back(H);
  GraphObjective objective(divergence(data, matmul(W, H)), factors);

  options.box = Box::nonnegative(objective.dimension());
  NmfGraphFit fit;
  fit.result = minimize(objective, objective.parameters_vector(), options, callbacks);
  objective.set_parameters(fit.result.x);
  fit.W = W.value();
  fit.H = H.value();
  return fit;
}

}  // namespace

NmfGraphFit fit_nmf_by_gradient(const Tensor& X, const Tensor& W0, const Tensor& H0, const NmfDivergence& divergence,
                                ProjectedGradientOptions options, const CallbackList& callbacks) {
  return minimize_divergence(X, W0, H0, true, divergence, std::move(options), callbacks);
}

NmfGraphFit nmf_codes_by_gradient(const Tensor& X, const Tensor& W0, const Tensor& H, const NmfDivergence& divergence,
                                  ProjectedGradientOptions options, const CallbackList& callbacks) {
  return minimize_divergence(X, W0, H, false, divergence, std::move(options), callbacks);
}

Var frobenius_divergence(Var X, Var reconstruction) { return scale(sum(square(X - reconstruction)), 0.5); }

// Σ X log(X/R) − X + R = Σ (X log X − X) + Σ R − Σ X log R: the first sum depends on the data only
// and is a constant of the graph (0 log 0 = 0). The entries with X_ij = 0 take no part in
// Σ X log R, even where R_ij = 0: their R_ij is replaced by 1 inside the log (mask M = [X > 0]).
Var kullback_leibler_divergence(Var X, Var reconstruction) {
  const Tensor& x = X.value();
  const Scalar data_term = (x.array() > 0).select(x.array() * x.array().log(), 0.0).sum() - x.sum();
  const Tensor positive = (x.array() > 0).cast<Scalar>();
  Graph& g = X.graph();
  const Var R_where_positive = reconstruction * g.constant(positive) + g.constant((1 - positive.array()).matrix());
  return sum(reconstruction - X * log(R_where_positive)) + data_term;
}

}  // namespace dagml
