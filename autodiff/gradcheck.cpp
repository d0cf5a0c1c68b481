#include "autodiff/gradcheck.h"

#include <fmt/format.h>

#include <cmath>
#include <random>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "graph/error.h"
#include "graph/executor.h"
#include "graph/graph.h"

namespace dagml {

GradcheckResult gradcheck(Var loss, const std::vector<Var>& wrt, const GradcheckOptions& options) {
  if (options.order != 1 && options.order != 2)
    throw ValueError(fmt::format("gradcheck: order must be 1 or 2, found {}", options.order));
  if (!loss.valid()) throw ValueError("gradcheck: the loss is an empty Var");
  Graph& graph = loss.graph();
  for (const Var& w : wrt) {
    graph.check_owns(w, "gradcheck");
    const NodeKind kind = graph.node(w.id()).kind;
    if (kind != NodeKind::Input && kind != NodeKind::Parameter)
      throw ValueError(fmt::format("gradcheck: {} is not an input or a parameter", describe(graph, w.id())));
  }

  Var checked = loss;
  if (options.order == 2) {
    // s = Σᵢ ⟨∂loss/∂xᵢ, vᵢ⟩; its gradient is the Hessian applied to v.
    std::mt19937_64 rng(options.seed);
    std::normal_distribution<Scalar> normal;
    const std::vector<Var> grads = gradients(loss, wrt);
    for (std::size_t i = 0; i < wrt.size(); ++i) {
      const Tensor v = Tensor::NullaryExpr(wrt[i].rows(), wrt[i].cols(), [&] { return normal(rng); });
      const Var term = dot(grads[i], graph.constant(v, "gradcheck direction"));
      checked = i == 0 ? term : checked + term;
    }
  }

  const std::vector<Var> analytic = gradients(checked, wrt);
  std::vector<Var> outputs{checked};
  outputs.insert(outputs.end(), analytic.begin(), analytic.end());
  Executor full(graph, outputs);
  full.run();
  std::vector<Tensor> analytic_values;
  for (const Var& a : analytic) analytic_values.push_back(a.value());

  Executor value_only(graph, {checked});
  GradcheckResult result;
  for (std::size_t i = 0; i < wrt.size(); ++i) {
    const Tensor x0 = wrt[i].value();
    Tensor x = x0;
    for (Index r = 0; r < x.rows(); ++r)
      for (Index c = 0; c < x.cols(); ++c) {
        const Scalar h = options.relative_step * std::max<Scalar>(1, std::abs(x0(r, c)));
        x(r, c) = x0(r, c) + h;
        graph.set_value(wrt[i], x);
        value_only.run();
        const Scalar plus = checked.item();
        x(r, c) = x0(r, c) - h;
        graph.set_value(wrt[i], x);
        value_only.run();
        const Scalar minus = checked.item();
        x(r, c) = x0(r, c);
        const Scalar numeric = (plus - minus) / (2 * h);
        const Scalar a = analytic_values[i](r, c);
        Scalar error = std::abs(a - numeric) / (options.absolute_tolerance + options.relative_tolerance * std::abs(numeric));
        if (std::isnan(error)) error = std::numeric_limits<Scalar>::infinity();
        if (error > result.worst_error || (i == 0 && r == 0 && c == 0)) {
          result.worst_error = error;
          result.input = i;
          result.row = r;
          result.col = c;
          result.analytic = a;
          result.numeric = numeric;
        }
      }
    graph.set_value(wrt[i], x0);
  }
  full.run();  // leave every node as it was before the check
  result.passed = result.worst_error <= 1;
  result.message = fmt::format("order-{} gradcheck {}: worst entry ({}, {}) of argument {}: analytic {:.10g}, numeric {:.10g} ({:.3g} of tolerance)",
                               options.order, result.passed ? "passed" : "FAILED", result.row, result.col, result.input,
                               result.analytic, result.numeric, result.worst_error);
  return result;
}

}  // namespace dagml
