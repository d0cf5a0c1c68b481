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
// Not offered: minibatches.
//
// Note [Sharded least squares]
// least_squares(comm, r, …) makes f = ½‖r‖² with r = (r_0; r_1; …; r_{C−1}) the residuals of all
// chunks stacked (here each chunk's term has weight 1: f = Σ_c ½‖r_c‖²), for Gauss–Newton and
// Levenberg–Marquardt. Every residual must come from the chunk's own rows: a residual that does not
// depend on the data (a penalty written as residuals) would be repeated by every chunk. Those solve ‖J δ + r‖² by QR and need the residual system, whose m rows
// are spread over the ranks. They need it only up to an orthogonal transformation of its rows:
// with the thin QR factorisation [J r] = Q R, R upper triangular (p+1)×(p+1),
//   ‖J δ + r‖ = ‖R_J δ + R_r‖ for every δ      (R_J = the first p columns of R, R_r the last),
// so the (p+1)-row system (R_J, R_r) has the same f = ½‖R_r‖², gradient R_Jᵀ R_r = Jᵀr, Gauss–
// Newton matrix R_JᵀR_J = JᵀJ and column norms ‖J_j‖ as (J, r). It is computed as a TSQR (tall-
// skinny QR; Demmel et al. 2012): each chunk factors its own [J_c r_c] = Q_c R_c (Householder, on
// the thread that owns the chunk), the C factors R_c ((p+1)² numbers each, whatever the rows) are
// gathered in chunk order, and every rank factors the stacked (R_0; …; R_{C−1}) = Q' R the same
// way: R has the same bits on every rank and for every ranks × threads, and it is never JᵀJ, so the
// condition number is not squared (NIST's Hahn1 and MGH10 need that). residuals(x, r, J) returns
// r = R_r and J = R_J. What is lost is the residuals' own basis: R_r at two points are in two
// different rotated bases, so differences of residuals at two points mean nothing and residuals
// without the Jacobian are not offered (Levenberg–Marquardt's geodesic acceleration needs them;
// turn it off). Levenberg–Marquardt's test for residuals at the rounding of the data uses ‖|J||x|‖
// and so sees R_J instead of J: a scale of the same size.
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
  // f = ½‖r‖², r = `residuals` (flattened row-major) of every chunk stacked, for Gauss–Newton and
  // Levenberg–Marquardt (Note [Sharded least squares]). Throws as the constructor.
  static std::unique_ptr<ShardedGraphObjective> least_squares(Communicator& comm, Var residuals,
                                                              std::vector<Var> parameters,
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
  // For least_squares: the (p+1)-row system R_r, R_J of Note [Sharded least squares]. ValueError
  // when `jacobian` is null (the rotated residuals alone mean nothing).
  bool has_residuals() const override { return residual_form_; }
  void residuals(const Vector& x, Vector& r, Tensor* jacobian) override;

  // The parameters' current values in the caller's graph, as one flat vector (a natural x0).
  Vector parameters_vector() const;
  // Writes x into the caller's parameter nodes (ShapeError if its length is not dimension()).
  void set_parameters(const Vector& x);
  const ChunkLayout& layout() const { return options_.layout; }

 private:
  struct Replica;
  ShardedGraphObjective(Communicator& comm, Var output, std::vector<Var> parameters,
                        ShardedGraphObjectiveOptions options, bool residual_form);
  // Σ_c (n_c/n) s_c over every chunk of every rank, s_c written by `evaluate` for chunk c's objective.
  template <class Evaluate>
  Vector chunk_sum(Index width, Evaluate&& evaluate);

  Communicator& comm_;
  std::unique_ptr<GraphObjective> caller_;  // the caller's graph: parameters_vector, set_parameters
  ShardedGraphObjectiveOptions options_;
  std::vector<std::unique_ptr<Replica>> replicas_;  // one per chunk of this rank
  Index dimension_ = 0;
  bool residual_form_ = false;
  ChunkSumWorkspace factors_;  // the chunks' triangular factors R_c, gathered
};

}  // namespace dagml
