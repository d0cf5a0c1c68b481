#include "autodiff/derivatives.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/graph.h"

namespace dagml {

std::vector<Var> gradients(Var loss, const std::vector<Var>& wrt) {
  if (!loss.valid()) throw ValueError("gradients: the loss is an empty Var");
  Graph& graph = loss.graph();
  if (loss.shape() != Shape{1, 1})
    throw ValueError(fmt::format("gradients: expected a 1×1 loss, found {}; reduce it first (sum or mean)",
                                 describe(graph, loss.id())));
  for (const Var& w : wrt) graph.check_owns(w, "gradients: with respect to");

  const int last = loss.id();
  int first = last;
  std::vector<char> needs(static_cast<std::size_t>(last) + 1, 0);
  for (const Var& w : wrt)
    if (w.id() <= last) {
      needs[static_cast<std::size_t>(w.id())] = 1;
      first = std::min(first, w.id());
    }
  // Forward sweep: which nodes depend on some w.
  for (int id = first + 1; id <= last; ++id)
    for (int in : graph.inputs_of(id))
      if (needs[static_cast<std::size_t>(in)]) {
        needs[static_cast<std::size_t>(id)] = 1;
        break;
      }

  // Adjoint contributions per node: the first in `adjoint`, any further ones in `more`. They are
  // summed with one add_n when the node is reached: every consumer of a node comes after it on
  // the tape, so by then all its contributions are in.
  std::vector<Var> adjoint(static_cast<std::size_t>(last) + 1);
  std::unordered_map<int, std::vector<Var>> more;
  auto contribute = [&](int id, Var g) {
    Var& first_term = adjoint[static_cast<std::size_t>(id)];
    if (!first_term.valid()) first_term = g;
    else more[id].push_back(g);
  };
  auto adjoint_of = [&](int id) {
    Var& a = adjoint[static_cast<std::size_t>(id)];
    if (auto it = more.find(id); it != more.end()) {
      it->second.insert(it->second.begin(), a);
      a = add_n(it->second);
      more.erase(it);
    }
    return a;
  };
  if (needs[static_cast<std::size_t>(last)]) adjoint[static_cast<std::size_t>(last)] = graph.constant(scalar_tensor(1));
  std::vector<Var> in_vars;
  std::vector<int> ins;  // a copy: the VJP appends nodes, which may move the graph's input list
  // Reverse sweep over the tape.
  for (int id = last; id > first; --id) {
    if (!adjoint[static_cast<std::size_t>(id)].valid() || graph.node(id).kind != NodeKind::Op) continue;
    const Var g = adjoint_of(id);
    const auto in_span = graph.inputs_of(id);
    ins.assign(in_span.begin(), in_span.end());
    in_vars.clear();
    for (int in : ins) in_vars.emplace_back(&graph, in);
    const Op& op = *graph.node(id).op;
    const VarList grads = op.vjp(VjpArgs{in_vars, Var(&graph, id), g});
    DAGML_CHECK(grads.size() == ins.size(), "op '{}' returned {} cotangents for {} inputs", op.name(), grads.size(),
                ins.size());
    for (std::size_t i = 0; i < ins.size(); ++i) {
      const auto in = static_cast<std::size_t>(ins[i]);
      if (!needs[in] || !grads[i].valid()) continue;
      DAGML_CHECK(grads[i].shape() == shape_of(graph.node(ins[i]).value), "op '{}' gave a {} cotangent for a {} input",
                  op.name(), to_string(grads[i].shape()), to_string(shape_of(graph.node(ins[i]).value)));
      contribute(ins[i], grads[i]);
    }
  }

  std::vector<Var> result;
  result.reserve(wrt.size());
  for (const Var& w : wrt) {
    const Var a = w.id() <= last ? adjoint_of(w.id()) : Var{};
    result.push_back(a.valid() ? a : graph.constant(Tensor::Zero(w.rows(), w.cols())));
  }
  return result;
}

Var gradient(Var loss, Var x) { return gradients(loss, {x})[0]; }

Var jacobian(Var outputs, Var x) {
  if (!outputs.valid() || !x.valid()) throw ValueError("jacobian: an argument is an empty Var");
  const Var flat = reshape(outputs, outputs.shape().size(), 1);
  std::vector<Var> rows;
  rows.reserve(static_cast<std::size_t>(flat.rows()));
  for (Index k = 0; k < flat.rows(); ++k)
    rows.push_back(reshape(gradient(slice_rows(flat, k, 1), x), 1, x.shape().size()));
  if (rows.empty()) return x.graph().constant(Tensor(0, x.shape().size()));
  return concat_rows(rows);
}

Var hessian(Var loss, Var x) { return jacobian(gradient(loss, x), x); }

Var hvp(Var loss, Var x, Var v) {
  if (!v.valid() || v.shape() != x.shape())
    throw ShapeError(fmt::format("hvp: the direction must have x's shape {}", to_string(x.shape())));
  return gradient(dot(gradient(loss, x), v), x);
}

}  // namespace dagml
