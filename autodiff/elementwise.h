// Elementwise ops. Binary ops broadcast as DESIGN.md says (a 1×k row over n×k, an n×1 column
// over n×k, a 1×1 over anything); a mismatch is a ShapeError when the node is created.
// Operators on Var are elementwise: a * b is the Hadamard product; matmul is in linalg.h.
#pragma once

#include <vector>

#include "graph/op.h"

namespace dagml {

Var add(Var a, Var b);
Var sub(Var a, Var b);
Var mul(Var a, Var b);  // elementwise
Var div(Var a, Var b);
Var maximum(Var a, Var b);  // at a tie the gradient goes to a
Var minimum(Var a, Var b);  // at a tie the gradient goes to a
Var pow(Var a, Var b);      // aᵇ elementwise, for a > 0 (elsewhere as std::pow: NaN for a < 0, b ∉ ℤ)
Var atan2(Var a, Var b);    // angle of the point (b, a) in (−π, π], as std::atan2; a, b not both 0
// Σ terms, all of one shape (no broadcasting); a single term is returned as it is.
Var add_n(const std::vector<Var>& terms);

Var neg(Var x);
Var scale(Var x, Scalar s);       // s·x
Var add_scalar(Var x, Scalar s);  // x + s
Var pow(Var x, Scalar p);         // xᵖ elementwise
Var square(Var x);
Var sqrt(Var x);
Var exp(Var x);
Var log(Var x);
Var log1p(Var x);  // log(1 + x), accurate for small x
Var expm1(Var x);  // eˣ − 1, accurate for small x
Var abs(Var x);    // subgradient 0 at 0
Var sign(Var x);   // −1, 0, +1; zero gradient
Var sin(Var x);
Var cos(Var x);
Var tanh(Var x);
Var atan(Var x);
Var erf(Var x);
Var erfc(Var x);    // 1 − erf(x), accurate in the tail x ≫ 1
Var lgamma(Var x);  // log|Γ(x)|; poles at 0, −1, −2, …
Var digamma(Var x);           // ψ(x) = d/dx log Γ(x) = polygamma(0, x)
Var polygamma(int n, Var x);  // ψ⁽ⁿ⁾(x), n ≥ 0; NaN or +∞ at the poles 0, −1, −2, …
Var sigmoid(Var x);   // 1/(1+e^{−x}), evaluated without overflow
Var relu(Var x);      // max(x, 0); gradient 0 at 0
Var softplus(Var x);  // log(1+eˣ), evaluated without overflow
Var step(Var x);      // 1 where x > 0, else 0; zero gradient
Var clamp(Var x, Scalar lo, Scalar hi);  // gradient 1 strictly inside (lo, hi), 0 outside

inline Var operator+(Var a, Var b) { return add(a, b); }
inline Var operator-(Var a, Var b) { return sub(a, b); }
inline Var operator*(Var a, Var b) { return mul(a, b); }
inline Var operator/(Var a, Var b) { return div(a, b); }
inline Var operator-(Var a) { return neg(a); }
inline Var operator+(Var a, Scalar s) { return add_scalar(a, s); }
inline Var operator+(Scalar s, Var a) { return add_scalar(a, s); }
inline Var operator-(Var a, Scalar s) { return add_scalar(a, -s); }
inline Var operator-(Scalar s, Var a) { return add_scalar(neg(a), s); }
inline Var operator*(Var a, Scalar s) { return scale(a, s); }
inline Var operator*(Scalar s, Var a) { return scale(a, s); }
inline Var operator/(Var a, Scalar s) { return scale(a, 1 / s); }
inline Var operator/(Scalar s, Var a) { return scale(pow(a, -1), s); }

}  // namespace dagml
