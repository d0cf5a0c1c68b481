#include "autodiff/derivatives.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>
#include <unordered_map>

#include "autodiff/batched.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/structure.h"
#include "graph/error.h"
#include "graph/graph.h"

namespace dagml {

namespace {

// One reverse sweep over the tape, from `last` back to the nodes in `wrt`, shared by gradients()
// (a single cotangent of each node's shape) and jacobian() (m cotangents at once, each node's an
// m × size node). `seed` is the adjoint of `last`; `pull(id, ins, wanted, adjoint)` returns the
// cotangents of node id's inputs; `shape_for(x)` is the shape of an adjoint of node x (checked,
// and the shape of the zero adjoint of a w that `last` does not depend on).
template <class Pull, class ShapeFor>
std::vector<Var> reverse_sweep(Graph& graph, int last, const std::vector<Var>& wrt, Var seed, Pull&& pull,
                               ShapeFor&& shape_for) {
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
  if (needs[static_cast<std::size_t>(last)]) adjoint[static_cast<std::size_t>(last)] = seed;
  std::vector<Var> in_vars;
  std::vector<int> ins;  // a copy: the VJP appends nodes, which may move the graph's input list
  std::vector<char> wanted;
  // Reverse sweep over the tape.
  for (int id = last; id > first; --id) {
    if (!adjoint[static_cast<std::size_t>(id)].valid() || graph.node(id).kind != NodeKind::Op) continue;
    const Var g = adjoint_of(id);
    const auto in_span = graph.inputs_of(id);
    ins.assign(in_span.begin(), in_span.end());
    in_vars.clear();
    wanted.clear();
    for (int in : ins) {
      in_vars.emplace_back(&graph, in);
      wanted.push_back(needs[static_cast<std::size_t>(in)]);
    }
    const VarList grads = pull(id, std::span<const Var>(in_vars), std::span<const char>(wanted), g);
    const Op& op = *graph.node(id).op;
    DAGML_CHECK(grads.size() == ins.size(), "op '{}' returned {} cotangents for {} inputs", op.name(), grads.size(),
                ins.size());
    for (std::size_t i = 0; i < ins.size(); ++i) {
      if (!wanted[i] || !grads[i].valid()) continue;
      const Shape expected = shape_for(in_vars[i]);
      DAGML_CHECK(grads[i].shape() == expected, "op '{}' gave a {} cotangent for input {} of shape {} (expected {})",
                  op.name(), to_string(grads[i].shape()), i, to_string(in_vars[i].shape()), to_string(expected));
      contribute(ins[i], grads[i]);
    }
  }

  std::vector<Var> result;
  result.reserve(wrt.size());
  for (const Var& w : wrt) {
    const Var a = w.id() <= last ? adjoint_of(w.id()) : Var{};
    const Shape shape = shape_for(w);
    result.push_back(a.valid() ? a : graph.constant(Tensor::Zero(shape.rows, shape.cols)));
  }
  return result;
}

}  // namespace

std::vector<Var> gradients(Var loss, const std::vector<Var>& wrt) {
  if (!loss.valid()) throw ValueError("gradients: the loss is an empty Var");
  Graph& graph = loss.graph();
  if (loss.shape() != Shape{1, 1})
    throw ValueError(fmt::format("gradients: expected a 1×1 loss, found {}; reduce it first (sum or mean)",
                                 describe(graph, loss.id())));
  for (const Var& w : wrt) graph.check_owns(w, "gradients: with respect to");
  auto pull = [&graph](int id, std::span<const Var> in, std::span<const char>, Var g) {
    return graph.node(id).op->vjp(VjpArgs{in, Var(&graph, id), g});
  };
  auto shape_for = [](Var x) { return x.shape(); };
  return reverse_sweep(graph, loss.id(), wrt, graph.constant(scalar_tensor(1)), pull, shape_for);
}

Var gradient(Var loss, Var x) { return gradients(loss, {x})[0]; }

namespace {

// All m seeds go back in one sweep: the adjoint of the outputs is the m × m identity (row s the
// s-th unit cotangent), and each op's batched rule maps m cotangents at once, falling back to one
// vjp per row for an op without one. The adjoint that reaches x, m × size(x), is the Jacobian.
Var reverse_jacobian(Graph& graph, Var outputs, Var x, Index m) {
  auto pull = [&graph](int id, std::span<const Var> in, std::span<const char> wanted, Var g) {
    const Op& op = *graph.node(id).op;
    const BatchedVjpArgs args{in, Var(&graph, id), g, wanted};
    const VarList grads = op.batched_vjp(args);
    return grads.size() > 0 ? grads : detail::batched_vjp_by_rows(op, args);
  };
  auto shape_for = [m](Var x) { return Shape{m, x.shape().size()}; };
  return reverse_sweep(graph, outputs.id(), {x}, identity(graph, m), pull, shape_for)[0];
}

// Note [Forward-mode Jacobian]
// q tangents of x go forward in one sweep: x's tangent is the q × size(x) seed (row s the s-th
// direction; the p × p identity for a Jacobian), each op between x and the outputs maps its inputs'
// q × size tangents to its output's (Op::jvp), and the outputs' tangent is q × size(outputs); the
// Jacobian is its transpose. Only nodes the outputs depend on get a tangent, and nodes that do not
// depend on x have none. An op without a rule of its own gets one from its VJP.
//
// Sparse tangents. Most nodes of a model depend on a few entries of x (b₂·x depends on b₂ alone),
// so most rows of their tangents are zero. A tangent is kept as its rows that can be non-zero: a
// tangent node that depends on constants only (the seed, or the seed sliced) has fixed values, so
// its zero rows are zero at every replay and are dropped; an op whose inputs' tangents have
// different rows gets them expanded to the union first (scatter into zeros); unary ops keep their
// rows. The outputs' tangent is expanded to all q rows at the end. For NIST's 8-parameter Gauss
// model at n = 800 this brings the Jacobian from 52.7 to 29.2 µs (bench/RESULTS.md).
class ForwardSweep {
 public:
  ForwardSweep(Graph& graph, Index q) : graph_(graph), q_(q) {}

  struct Tangent {
    Var value;                  // |rows| × size(node); invalid: zero
    std::vector<Index> rows;    // the seed rows it holds, increasing
  };

  // The tangent `t`, whose rows are the seed rows `rows`, kept as its rows that can be non-zero.
  Tangent compact(Var t, std::vector<Index> rows) {
    if (!t.valid()) return {};
    if (!depends_on_constants_only(t.id())) return {t, std::move(rows)};
    const Tensor& v = t.value();
    std::vector<Index> keep;
    for (Index r = 0; r < v.rows(); ++r)
      if (!v.row(r).isZero(0)) keep.push_back(r);
    if (keep.empty()) return {};
    if (static_cast<Index>(keep.size()) == v.rows()) return {t, std::move(rows)};
    Tensor kept(static_cast<Index>(keep.size()), v.cols());
    std::vector<Index> labels;
    for (std::size_t k = 0; k < keep.size(); ++k) {
      kept.row(static_cast<Index>(k)) = v.row(keep[k]);
      labels.push_back(rows[static_cast<std::size_t>(keep[k])]);
    }
    return {graph_.constant(std::move(kept)), std::move(labels)};
  }

  // t expanded to the seed rows `to` (a superset of t's), zeros elsewhere.
  Var expand(const Tangent& t, const std::vector<Index>& to) {
    if (t.rows == to) return t.value;
    Tensor index(static_cast<Index>(t.rows.size()), 1);
    for (std::size_t k = 0; k < t.rows.size(); ++k)
      index(static_cast<Index>(k), 0) =
          static_cast<Scalar>(std::lower_bound(to.begin(), to.end(), t.rows[k]) - to.begin());
    const Var zeros = graph_.constant(Tensor::Zero(static_cast<Index>(to.size()), t.value.cols()));
    return scatter_add_rows(t.value, graph_.constant(std::move(index)), zeros);
  }

  std::vector<Index> all_rows() const {
    std::vector<Index> rows(static_cast<std::size_t>(q_));
    for (Index r = 0; r < q_; ++r) rows[static_cast<std::size_t>(r)] = r;
    return rows;
  }

 private:
  // Whether node id (of the graph as it is now) depends on Constant leaves only.
  bool depends_on_constants_only(int id) {
    for (int k = static_cast<int>(constant_only_.size()); k <= id; ++k) {
      const Node& node = graph_.node(k);
      bool only = node.kind == NodeKind::Constant;
      if (node.kind == NodeKind::Op) {
        only = true;
        for (int in : graph_.inputs_of(k)) only = only && constant_only_[static_cast<std::size_t>(in)];
      }
      constant_only_.push_back(only);
    }
    return constant_only_[static_cast<std::size_t>(id)];
  }

  Graph& graph_;
  Index q_;
  std::vector<char> constant_only_;
};

Var forward_sweep(Graph& graph, Var outputs, Var x, Var seed) {
  const int last = outputs.id();
  const Index m = outputs.shape().size(), q = seed.rows();
  if (x.id() >= last) return x.id() == last ? seed : graph.constant(Tensor::Zero(q, m));
  std::vector<char> needed(static_cast<std::size_t>(last) + 1, 0);
  needed[static_cast<std::size_t>(last)] = 1;
  for (int id = last; id > x.id(); --id)
    if (needed[static_cast<std::size_t>(id)])
      for (int in : graph.inputs_of(id)) needed[static_cast<std::size_t>(in)] = 1;
  ForwardSweep sweep(graph, q);
  std::vector<ForwardSweep::Tangent> tangent(static_cast<std::size_t>(last) + 1);
  tangent[static_cast<std::size_t>(x.id())] = sweep.compact(seed, sweep.all_rows());
  std::vector<Var> in_vars, in_tangents;
  std::vector<int> ins;
  for (int id = x.id() + 1; id <= last; ++id) {
    if (!needed[static_cast<std::size_t>(id)] || graph.node(id).kind != NodeKind::Op) continue;
    const auto in_span = graph.inputs_of(id);
    ins.assign(in_span.begin(), in_span.end());
    // The union of the inputs' rows; each input's tangent expanded to it.
    std::vector<Index> rows;
    for (int in : ins) {
      const auto& r = tangent[static_cast<std::size_t>(in)].rows;
      std::vector<Index> merged;
      std::set_union(rows.begin(), rows.end(), r.begin(), r.end(), std::back_inserter(merged));
      rows = std::move(merged);
    }
    if (rows.empty()) continue;
    in_vars.clear();
    in_tangents.clear();
    for (int in : ins) {
      in_vars.emplace_back(&graph, in);
      const ForwardSweep::Tangent& t = tangent[static_cast<std::size_t>(in)];
      in_tangents.push_back(t.value.valid() ? sweep.expand(t, rows) : Var{});
    }
    const Op& op = *graph.node(id).op;
    const JvpArgs args{in_vars, Var(&graph, id), in_tangents};
    std::optional<Var> t = op.jvp(args);
    if (!t) t = detail::jvp_by_transposition(op, args);  // Note [Forward rule by transposition]
    if (!t->valid()) continue;
    const Shape expected{static_cast<Index>(rows.size()), Var(&graph, id).shape().size()};
    DAGML_CHECK(t->shape() == expected, "op '{}' gave a {} tangent (expected {})", op.name(), to_string(t->shape()),
                to_string(expected));
    tangent[static_cast<std::size_t>(id)] = sweep.compact(*t, std::move(rows));
  }
  const ForwardSweep::Tangent& t = tangent[static_cast<std::size_t>(last)];
  return t.value.valid() ? sweep.expand(t, sweep.all_rows()) : graph.constant(Tensor::Zero(q, m));
}

}  // namespace

Var jacobian(Var outputs, Var x, JacobianMode mode) {
  if (!outputs.valid() || !x.valid()) throw ValueError("jacobian: an argument is an empty Var");
  Graph& graph = outputs.graph();
  graph.check_owns(x, "jacobian: with respect to");
  const Index m = outputs.shape().size(), p = x.shape().size();
  if (m == 0) return graph.constant(Tensor(0, p));
  if (mode == JacobianMode::Forward || (mode == JacobianMode::Auto && p < m))
    return transpose(forward_sweep(graph, outputs, x, identity(graph, p)));
  return reverse_jacobian(graph, outputs, x, m);
}

Var hessian(Var loss, Var x) { return jacobian(gradient(loss, x), x); }

Var jvp(Var outputs, Var x, Var tangents) {
  if (!outputs.valid() || !x.valid() || !tangents.valid()) throw ValueError("jvp: an argument is an empty Var");
  Graph& graph = outputs.graph();
  graph.check_owns(x, "jvp: with respect to");
  graph.check_owns(tangents, "jvp: tangents");
  if (tangents.cols() != x.shape().size())
    throw ShapeError(fmt::format("jvp: expected tangents with {} columns (the entries of x), found {}",
                                 x.shape().size(), to_string(tangents.shape())));
  return forward_sweep(graph, outputs, x, tangents);
}

Var hvp(Var loss, Var x, Var v, HvpMode mode) {
  if (!v.valid() || v.shape() != x.shape())
    throw ShapeError(fmt::format("hvp: the direction must have x's shape {}", to_string(x.shape())));
  if (mode == HvpMode::ForwardOverReverse)
    return reshape_like(jvp(gradient(loss, x), x, detail::as_row(v)), x);
  return gradient(dot(gradient(loss, x), v), x);
}

}  // namespace dagml
