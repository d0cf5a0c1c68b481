#include "autodiff/broadcast.h"

#include "autodiff/reduce.h"

namespace dagml {
namespace {
Broadcast pattern_of(Shape s, Shape out) {
  if (s == out) return Broadcast::Same;
  if (s.rows == 1 && s.cols == 1) return Broadcast::Scalar;
  if (s.rows == 1 && s.cols == out.cols) return Broadcast::Row;
  if (s.cols == 1 && s.rows == out.rows) return Broadcast::Column;
  return Broadcast::Same;  // not reached: callers check fits() first
}
bool fits(Shape s, Shape out) {
  return s == out || (s.rows == 1 && s.cols == 1) || (s.rows == 1 && s.cols == out.cols) ||
         (s.cols == 1 && s.rows == out.rows);
}
}  // namespace

Shape broadcast_shape(const Op& op, std::span<const Shape> in, Broadcast* pattern) {
  const Shape a = in[0], b = in[1];
  const Shape out{std::max(a.rows, b.rows), std::max(a.cols, b.cols)};
  if (!fits(a, out) || !fits(b, out))
    shape_error(op, in, "shapes do not broadcast (allowed: equal shapes, a 1×k row over n×k, "
                        "an n×1 column over n×k, a 1×1 over anything)");
  if (pattern) {
    pattern[0] = pattern_of(a, out);
    pattern[1] = pattern_of(b, out);
  }
  return out;
}

bool follows(Broadcast pattern, Shape s, Shape out) {
  switch (pattern) {
    case Broadcast::Same: return s == out;
    case Broadcast::Row: return s.rows == 1 && s.cols == out.cols;
    case Broadcast::Column: return s.cols == 1 && s.rows == out.rows;
    case Broadcast::Scalar: return s.rows == 1 && s.cols == 1;
  }
  return false;
}

Var sum_to(Var g, Broadcast pattern) {
  switch (pattern) {
    case Broadcast::Same: return g;
    case Broadcast::Row: return col_sums(g);
    case Broadcast::Column: return row_sums(g);
    case Broadcast::Scalar: return sum(g);
  }
  return g;
}

}  // namespace dagml
