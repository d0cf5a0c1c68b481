#include "autodiff/batched.h"

#include <vector>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "autodiff/structure.h"
#include "graph/graph.h"

namespace dagml::detail {

Var as_row(Var x) { return x.rows() == 1 ? x : reshape(x, 1, -1); }

bool is_identity_constant(Var g) {
  const Graph& graph = g.graph();
  if (graph.node(g.id()).kind != NodeKind::Constant) return false;
  const Tensor& v = g.value();
  return v.rows() == v.cols() && v.isIdentity(0.0);
}

Var batched_row_sums(Var g, Index k, bool mean) {
  return reshape(reduce_sum(reshape(g, -1, k), Axis::PerRow, mean), g.rows(), -1);
}

Var batched_repeat_entries(Var s, Index k, Scalar scale) {
  return reshape(reshape(s, -1, 1) * s.graph().constant(Tensor::Constant(1, k, scale)), s.rows(), -1);
}

Var batched_tile(Var s, Index n) {
  if (n == 1) return s;
  const Index m = s.rows();
  Tensor index(m * n, 1);  // row s·n + i of the result is row s of S
  for (Index r = 0; r < m * n; ++r) index(r, 0) = static_cast<Scalar>(r / n);
  return reshape(gather_rows(s, s.graph().constant(index)), m, -1);
}

Var batched_transpose(Var t, Index r, Index c) {
  if (r == 1 || c == 1) return t;
  return transpose_blocks(transpose(reshape(t, t.rows() * r, c)), t.rows());
}

Var jvp_by_transposition(const Op& op, const JvpArgs& a) {
  Graph& graph = a.out.graph();
  Index q = 0;
  std::vector<char> wanted;
  for (const Var& t : a.tangents) {
    wanted.push_back(t.valid());
    if (t.valid()) q = t.rows();
  }
  // Note [Forward rule by transposition]; U's value does not matter (the result is linear in it).
  const Var U = graph.constant(Tensor::Zero(q, a.out.rows() * a.out.cols()));
  const BatchedVjpArgs args{a.in, a.out, U, wanted};
  VarList cotangents = op.batched_vjp(args);
  if (cotangents.size() == 0) cotangents = batched_vjp_by_rows(op, args);
  std::vector<Var> terms;
  for (std::size_t i = 0; i < a.tangents.size(); ++i)
    if (wanted[i] && i < cotangents.size() && cotangents[i].valid()) terms.push_back(sum(a.tangents[i] * cotangents[i]));
  if (terms.empty()) return Var{};
  return gradient(terms.size() == 1 ? terms[0] : add_n(terms), U);
}

VarList batched_vjp_by_rows(const Op& op, const BatchedVjpArgs& args) {
  const std::size_t k = args.in.size();
  std::vector<std::vector<Var>> rows(k);
  std::vector<bool> any(k, false);
  const Index m = args.g.rows();
  for (Index s = 0; s < m; ++s) {
    const Var g_s = reshape_like(slice_rows(args.g, s, 1), args.out);
    const VarList cotangents = op.vjp(VjpArgs{args.in, args.out, g_s});
    for (std::size_t i = 0; i < k; ++i) {
      if (!args.wanted[i]) continue;
      const Var c = i < cotangents.size() ? cotangents[i] : Var{};
      any[i] = any[i] || c.valid();
      rows[i].push_back(c.valid() ? as_row(c)
                                  : args.g.graph().constant(Tensor::Zero(1, args.in[i].shape().size())));
    }
  }
  VarList result;
  for (std::size_t i = 0; i < k; ++i) result.push_back(any[i] ? concat_rows(rows[i]) : Var{});
  return result;
}

}  // namespace dagml::detail
