// Reverse-mode derivatives. Each call appends gradient nodes to the same graph: the result
// replays with the forward pass (Executor) and can be differentiated again, to any order.
#pragma once

#include <vector>

#include "graph/op.h"

namespace dagml {

// ∂loss/∂w for each w in `wrt`, each of w's shape. `loss` must be 1×1 (ValueError otherwise) and
// every w a node of loss's graph (ValueError). Adjoints of a node used several times are summed;
// nodes that do not lead to a w are skipped. A w that loss does not depend on gets a zero
// constant. Throws ValueError when the path crosses an op that has no derivative.
std::vector<Var> gradients(Var loss, const std::vector<Var>& wrt);
Var gradient(Var loss, Var x);

// How jacobian() builds its nodes. Reverse: one batched reverse pass with m cotangents (cost
// about m × the forward pass). Forward: one forward pass with p tangents (cost about p × the
// forward pass; Note [Forward-mode Jacobian] in derivatives.cpp). Auto: forward for tall
// Jacobians (p < m: many residuals, few parameters, as in least squares), reverse otherwise.
enum class JacobianMode { Auto, Forward, Reverse };

// The Jacobian of the entries of `outputs` (flattened row-major, m entries) with respect to the
// entries of x (flattened row-major, p entries): an m×p node, built in one batched pass, reverse
// (Op::batched_vjp; ops without a batched rule take one pass per output entry) or forward
// (Op::jvp, or for an op without a rule of its own the transposed VJP: Note [Forward rule by
// transposition] in batched.h), as `mode` says. The node holds for the shapes it was built with.
Var jacobian(Var outputs, Var x, JacobianMode mode = JacobianMode::Auto);

// The Hessian of a 1×1 loss with respect to the entries of x (flattened row-major): p×p.
Var hessian(Var loss, Var x);

// Forward mode: the derivatives of the entries of `outputs` along q directions of x. `tangents` is
// a q × size(x) node (row s one direction, flattened row-major); the result is q × size(outputs),
// row s = J tₛ (Note [Forward-mode Jacobian] in derivatives.cpp). Throws ShapeError when tangents
// does not have size(x) columns.
Var jvp(Var outputs, Var x, Var tangents);

// How hvp() builds its nodes: one more reverse pass over the gradient graph (the gradient of
// ⟨∇loss, v⟩), or one forward pass through it with the tangent v (forward over reverse).
enum class HvpMode { ReverseOverReverse, ForwardOverReverse };

// The Hessian-vector product (∇²loss) v, of x's shape, for v of x's shape.
Var hvp(Var loss, Var x, Var v, HvpMode mode = HvpMode::ReverseOverReverse);

}  // namespace dagml
