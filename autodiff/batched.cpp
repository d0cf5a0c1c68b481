#include "autodiff/batched.h"

#include <vector>

#include "autodiff/elementwise.h"
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
