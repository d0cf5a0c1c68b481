#include "optim/line_search.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "graph/error.h"

namespace dagml {

void validate(const LineSearchOptions& o, const char* owner) {
  auto fail = [&](const char* field, auto value, const char* expected) {
    throw ValueError(fmt::format("{}: line_search.{} must be {}, got {}", owner, field, expected, value));
  };
  if (!(o.initial_step > 0) || !std::isfinite(o.initial_step)) fail("initial_step", o.initial_step, "finite and > 0");
  if (!(o.c1 > 0 && o.c1 < 1)) fail("c1", o.c1, "in (0, 1)");
  if (!(o.c2 > o.c1 && o.c2 < 1)) fail("c2", o.c2, "in (c1, 1)");
  if (!(o.shrink > 0 && o.shrink < 1)) fail("shrink", o.shrink, "in (0, 1)");
  if (o.max_evaluations < 1) fail("max_evaluations", o.max_evaluations, ">= 1");
  if (!(o.max_step > 0) || !std::isfinite(o.max_step)) fail("max_step", o.max_step, "finite and > 0");
  if (o.grid_points < 1) fail("grid_points", o.grid_points, ">= 1");
  if (!(o.tolerance > 0)) fail("tolerance", o.tolerance, "> 0");
}

namespace {

struct Phi {
  Objective& objective;
  const Vector& x;
  const Vector& p;
  Vector& x_new;
  Vector& g_new;
  Index evaluations = 0;
  bool stalled = false;  // the last trial point equalled x
  bool moved = false;    // some trial point differed from x
  // φ(α) and φ'(α), leaving x + αp and ∇f there in x_new, g_new.
  Scalar operator()(Scalar alpha, Scalar& slope) {
    x_new = x + alpha * p;
    stalled = (x_new.array() == x.array()).all();
    moved = moved || !stalled;
    ++evaluations;
    const Scalar v = objective.value_and_gradient(x_new, g_new);
    slope = g_new.dot(p);
    return v;
  }
  Scalar value(Scalar alpha) {
    ++evaluations;
    x_new = x + alpha * p;
    moved = moved || !(x_new.array() == x.array()).all();
    return objective.value(x_new);
  }
};

// The minimiser of the cubic interpolating φ, φ' at a and b, kept inside [lo + 0.1 w, hi − 0.1 w];
// bisection when the cubic has no real minimiser.
Scalar cubic_step(Scalar a, Scalar fa, Scalar da, Scalar b, Scalar fb, Scalar db) {
  const Scalar d1 = da + db - 3 * (fa - fb) / (a - b);
  const Scalar disc = d1 * d1 - da * db;
  const Scalar lo = std::min(a, b), hi = std::max(a, b), w = hi - lo;
  Scalar t = 0.5 * (a + b);
  if (disc >= 0) {
    const Scalar d2 = std::copysign(std::sqrt(disc), b - a);
    const Scalar c = b - (b - a) * (db + d2 - d1) / (db - da + 2 * d2);
    if (std::isfinite(c)) t = c;
  }
  return std::clamp(t, lo + 0.1 * w, hi - 0.1 * w);
}

LineSearchResult strong_wolfe(Phi& phi, const LineSearchOptions& o, Scalar f0, Scalar d0, Scalar& f_new) {
  Scalar a_prev = 0, f_prev = f0, d_prev = d0;
  Scalar a = std::min(o.initial_step, o.max_step);
  auto zoom = [&](Scalar lo, Scalar f_lo, Scalar d_lo, Scalar hi, Scalar f_hi, Scalar d_hi) -> LineSearchResult {
    while (phi.evaluations < o.max_evaluations) {
      const Scalar aj = cubic_step(lo, f_lo, d_lo, hi, f_hi, d_hi);
      Scalar dj;
      const Scalar fj = phi(aj, dj);
      if (phi.stalled) return {false, aj, phi.evaluations, true};
      if (!std::isfinite(fj) || fj > f0 + o.c1 * aj * d0 || fj >= f_lo) {
        hi = aj, f_hi = std::isfinite(fj) ? fj : std::numeric_limits<Scalar>::max(), d_hi = std::isfinite(dj) ? dj : 0;
      } else {
        if (std::abs(dj) <= -o.c2 * d0) {
          f_new = fj;
          return {true, aj, phi.evaluations};
        }
        if (dj * (hi - lo) >= 0) hi = lo, f_hi = f_lo, d_hi = d_lo;
        lo = aj, f_lo = fj, d_lo = dj;
      }
      if (std::abs(hi - lo) <= 1e-14 * std::max(Scalar(1), std::abs(lo))) break;
    }
    return {false, lo, phi.evaluations};
  };
  for (Index i = 0; phi.evaluations < o.max_evaluations; ++i) {
    Scalar d;
    const Scalar fa = phi(a, d);
    if (phi.stalled) return {false, a, phi.evaluations, true};
    if (!std::isfinite(fa) || fa > f0 + o.c1 * a * d0 || (i > 0 && fa >= f_prev))
      return zoom(a_prev, f_prev, d_prev, a, std::isfinite(fa) ? fa : std::numeric_limits<Scalar>::max(),
                  std::isfinite(d) ? d : 0);
    if (std::abs(d) <= -o.c2 * d0) {
      f_new = fa;
      return {true, a, phi.evaluations};
    }
    if (d >= 0) return zoom(a, fa, d, a_prev, f_prev, d_prev);
    if (a >= o.max_step) break;
    a_prev = a, f_prev = fa, d_prev = d;
    a = std::min(2 * a, o.max_step);
  }
  return {false, a, phi.evaluations};
}

}  // namespace

LineSearchResult line_search(Objective& objective, const LineSearchOptions& o, const Vector& x, Scalar f,
                             const Vector& g, const Vector& p, Vector& x_new, Scalar& f_new, Vector& g_new) {
  Phi phi{objective, x, p, x_new, g_new};
  const Scalar d0 = g.dot(p);
  Scalar slope;
  switch (o.kind) {
    case LineSearchKind::None: {
      f_new = phi(o.initial_step, slope);
      if (phi.stalled) return {false, o.initial_step, phi.evaluations, true};
      return {std::isfinite(f_new) && g_new.allFinite(), o.initial_step, phi.evaluations};
    }
    case LineSearchKind::Armijo: {
      if (!(d0 < 0)) return {false, 0, 0};
      Scalar a = o.initial_step;
      while (phi.evaluations < o.max_evaluations) {
        f_new = phi(a, slope);
        if (phi.stalled) return {false, a, phi.evaluations, true};
        if (std::isfinite(f_new) && f_new <= f + o.c1 * a * d0 && g_new.allFinite()) return {true, a, phi.evaluations};
        a *= o.shrink;
      }
      return {false, a, phi.evaluations};
    }
    case LineSearchKind::StrongWolfe: {
      if (!(d0 < 0)) return {false, 0, 0};
      return strong_wolfe(phi, o, f, d0, f_new);
    }
    case LineSearchKind::Exact:
    case LineSearchKind::Grid: {
      Scalar a = 0;
      if (o.kind == LineSearchKind::Exact) {
        a = brent_minimize([&](Scalar s) { return phi.value(s); }, 0, o.max_step, o.tolerance, o.max_evaluations);
      } else {
        Scalar best = f;
        for (Index k = 1; k <= o.grid_points; ++k) {
          const Scalar s = o.max_step * static_cast<Scalar>(k) / static_cast<Scalar>(o.grid_points);
          const Scalar v = phi.value(s);
          if (v < best) best = v, a = s;
        }
      }
      f_new = phi(a, slope);
      return {!phi.stalled && std::isfinite(f_new) && f_new < f, a, phi.evaluations, !phi.moved};
    }
  }
  return {false, 0, phi.evaluations};
}

// Brent (1973), "localmin": golden-section steps, parabolic interpolation when it is safe.
Scalar brent_minimize(const std::function<Scalar(Scalar)>& h, Scalar a, Scalar b, Scalar tolerance,
                      Index max_evaluations) {
  if (!(a < b)) throw ValueError(fmt::format("brent_minimize: need a < b, got [{}, {}]", a, b));
  const Scalar c = 0.5 * (3.0 - std::sqrt(5.0));
  Scalar x = a + c * (b - a), w = x, v = x;
  Scalar fx = h(x), fw = fx, fv = fx;
  Scalar d = 0, e = 0;
  for (Index it = 1; it < max_evaluations; ++it) {
    const Scalar m = 0.5 * (a + b);
    const Scalar tol = tolerance * std::abs(x) + 1e-12;
    const Scalar t2 = 2 * tol;
    if (std::abs(x - m) <= t2 - 0.5 * (b - a)) break;
    Scalar r = 0, q = 0, p = 0;
    if (std::abs(e) > tol) {
      r = (x - w) * (fx - fv);
      q = (x - v) * (fx - fw);
      p = (x - v) * q - (x - w) * r;
      q = 2 * (q - r);
      if (q > 0) p = -p;
      q = std::abs(q);
      r = e;
      e = d;
    }
    if (std::abs(p) < std::abs(0.5 * q * r) && p > q * (a - x) && p < q * (b - x)) {
      d = p / q;  // parabolic step
      const Scalar u = x + d;
      if (u - a < t2 || b - u < t2) d = x < m ? tol : -tol;
    } else {
      e = (x < m ? b : a) - x;  // golden-section step
      d = c * e;
    }
    const Scalar u = x + (std::abs(d) >= tol ? d : (d > 0 ? tol : -tol));
    const Scalar fu = h(u);
    if (fu <= fx) {
      (u < x ? b : a) = x;
      v = w, fv = fw, w = x, fw = fx, x = u, fx = fu;
    } else {
      (u < x ? a : b) = u;
      if (fu <= fw || w == x) {
        v = w, fv = fw, w = u, fw = fu;
      } else if (fu <= fv || v == x || v == w) {
        v = u, fv = fu;
      }
    }
  }
  return x;
}

Scalar golden_section_minimize(const std::function<Scalar(Scalar)>& h, Scalar a, Scalar b, Scalar tolerance) {
  if (!(a < b)) throw ValueError(fmt::format("golden_section_minimize: need a < b, got [{}, {}]", a, b));
  const Scalar r = 0.5 * (std::sqrt(5.0) - 1);  // 1/φ
  Scalar c = b - r * (b - a), d = a + r * (b - a);
  Scalar fc = h(c), fd = h(d);
  while (b - a > tolerance) {
    if (fc < fd) {  // the minimum is in [a, d]
      b = d, d = c, fd = fc;
      c = b - r * (b - a), fc = h(c);
    } else {  // in [c, b]
      a = c, c = d, fc = fd;
      d = a + r * (b - a), fd = h(d);
    }
  }
  return 0.5 * (a + b);
}

}  // namespace dagml
