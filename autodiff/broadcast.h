// DESIGN.md's broadcasting, and nothing else: a 1×k row broadcasts over n×k, an n×1 column over
// n×k, a 1×1 over anything.
#pragma once

#include <span>

#include "graph/op.h"

namespace dagml {

// How one operand of a binary op reaches the output shape. Fixed when the node is built; a
// replay whose shapes would need a different pattern is a ShapeError.
enum class Broadcast { Same, Row, Column, Scalar };

// The output shape of a broadcasting op over `in` (2 operands), with each operand's pattern.
// Throws ShapeError naming `op` when the shapes do not broadcast.
Shape broadcast_shape(const Op& op, std::span<const Shape> in, Broadcast* pattern = nullptr);

// Whether an operand of shape s reaches `out` under a pattern fixed at build time. A pattern
// stays valid when a dimension it repeats becomes 1 (a batch of one row), since repeating once
// and summing over one row are identities.
bool follows(Broadcast pattern, Shape s, Shape out);

// Sums g (of the output shape) down to an operand's shape along its broadcast pattern: the
// adjoint of broadcasting.
Var sum_to(Var g, Broadcast pattern);

}  // namespace dagml
