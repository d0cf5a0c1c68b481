// ShardedGraphObjective: a graph loss over data spread across ranks, as an Objective whose value,
// gradient, Hessian and Hessian-vector products are the full-data ones, bitwise the same for any
// number of ranks and threads.
//
//   ChunkLayout layout(n, 16, comm.size());            // 16 chunks whatever the ranks
//   IndexRange mine = layout.rank_rows(comm.rank());   // this rank's rows: load only these
//   Graph g;
//   Var X = g.input("X", X_mine), y = g.input("y", y_mine);
//   Var w = g.parameter("w", Tensor::Zero(d, 1));
//   Var loss = mean(…over rows of X…) + penalty(w);
//   ShardedGraphObjective objective(comm, loss, {w}, {.data = {{X, X_mine}, {y, y_mine}}, .layout = layout});
//   Result r = minimize(objective, objective.parameters_vector(), LbfgsOptions{});
//
// Every rank runs the same optimizer on the same iterates: each evaluation gives every rank the
// same bits (below), so the iterates stay equal without sending x.
//
// Note [Sharded graph objective]
// The loss must be a mean over the rows of the `data` inputs plus terms that do not depend on
// them (a penalty): f = (1/n) Σᵢ fᵢ(x) + ρ(x). The rows are cut into the layout's chunks (Note
// [Fixed-order chunk sums], graph/chunked_sum.h); each chunk c of this rank evaluates the same
// loss on its own rows, f_c = (1/n_c) Σ_{i∈c} fᵢ + ρ, on a clone of the graph (Graph::clone,
// one GraphObjective per chunk, evaluated in parallel), and the chunk results are weighted and
// summed in chunk order:
//   f = Σ_c (n_c/n) f_c,   ∇f = Σ_c (n_c/n) ∇f_c,   ∇²f = Σ_c (n_c/n) ∇²f_c,   Hv likewise,
// (Σ_c n_c/n = 1, so ρ is counted once). One evaluation is one deterministic_chunk_sum over one
// fused buffer per chunk: [f_c, ∇f_c] (value and gradient), [f_c, ∇f_c, ∇²f_c] (with the
// Hessian), or H_c v.
//
// Not offered: residuals (f = ½‖r‖² with r spread over ranks is not a sum of chunk results, so
// Gauss-Newton and Levenberg–Marquardt need JᵀJ and Jᵀr reduced instead: not built yet) and
// minibatches.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "graph/chunked_sum.h"
#include "graph/communicator.h"
#include "graph/graph.h"
#include "optim/graph_objective.h"
#include "optim/objective.h"

namespace dagml {

struct ShardedGraphObjectiveOptions {
  // (input node, this rank's rows of it: layout.rank_rows(rank)), for every input holding one
  // sample per row.
  std::vector<std::pair<Var, Tensor>> data = {};
  // The global rows, chunks and ranks; num_ranks must be the communicator's size.
  ChunkLayout layout = ChunkLayout(1, 1, 1);
};

class ShardedGraphObjective final : public Objective {
 public:
  // Throws as GraphObjective, and ValueError if no data are given, if the layout is not for
  // comm.size() ranks, or if a data tensor does not have this rank's row count.
  ShardedGraphObjective(Communicator& comm, Var loss, std::vector<Var> parameters,
                        ShardedGraphObjectiveOptions options);
  ~ShardedGraphObjective() override;

  Index dimension() const override { return dimension_; }
  Scalar value(const Vector& x) override;
  Scalar value_and_gradient(const Vector& x, Vector& gradient) override;
  bool has_hessian() const override { return true; }
  void hessian(const Vector& x, Tensor& hessian) override;
  Scalar value_gradient_and_hessian(const Vector& x, Vector& gradient, Tensor& hessian) override;
  bool has_hessian_vector_product() const override { return true; }
  void hessian_vector_product(const Vector& x, const Vector& v, Vector& product) override;

  // The parameters' current values in the caller's graph, as one flat vector (a natural x0).
  Vector parameters_vector() const;
  // Writes x into the caller's parameter nodes (ShapeError if its length is not dimension()).
  void set_parameters(const Vector& x);
  const ChunkLayout& layout() const { return options_.layout; }

 private:
  struct Replica;
  // Σ_c (n_c/n) s_c over every chunk of every rank, s_c written by `evaluate` for chunk c's objective.
  template <class Evaluate>
  Vector chunk_sum(Index width, Evaluate&& evaluate);

  Communicator& comm_;
  std::unique_ptr<GraphObjective> caller_;  // the caller's graph: parameters_vector, set_parameters
  ShardedGraphObjectiveOptions options_;
  std::vector<std::unique_ptr<Replica>> replicas_;  // one per chunk of this rank
  Index dimension_ = 0;
};

}  // namespace dagml
