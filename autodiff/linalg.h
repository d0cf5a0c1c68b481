// Linear algebra ops.
#pragma once

#include <array>

#include "graph/enum_names.h"
#include "graph/op.h"

namespace dagml {

// The arithmetic of a matrix product. Float32: both operands are rounded to float, the product
// is summed in float (Eigen's single-precision GEMM, about twice the speed of the double one on
// AVX hardware) and widened back to double; about 1e-7 relative accuracy instead of 1e-16.
enum class Precision { Float64, Float32 };

constexpr auto enum_names(Precision) {
  using enum Precision;
  return std::to_array<EnumName<Precision>>({{Float64, "float64"}, {Float32, "float32"}});
}

// op(a)·op(b), where op transposes when the flag is set. (n×k)·(k×m) → n×m.
Var matmul(Var a, Var b, bool transpose_a = false, bool transpose_b = false);
// The same in the given precision; its derivatives are products of that precision too.
Var matmul(Var a, Var b, Precision precision, bool transpose_a = false, bool transpose_b = false);
Var transpose(Var x);
// Σ a ⊙ b over all entries, for operands of one shape → 1×1.
Var dot(Var a, Var b);
// u vᵀ for column vectors u (n×1) and v (m×1) → n×m.
Var outer(Var u, Var v);
// A vector (n×1 or 1×n) → the n×n diagonal matrix.
Var diag(Var v);
// A square matrix → its diagonal as an n×1 column.
Var diag_part(Var m);
// Σ diagonal of a square matrix → 1×1.
Var trace(Var m);
// The n×n identity as a constant node of `graph`.
Var identity(Graph& graph, Index n);

}  // namespace dagml
