// Test problems with known optima, shared by the optim/ tests.
#pragma once

#include <Eigen/Cholesky>
#include <cmath>
#include <memory>
#include <vector>

#include "autodiff/derivatives.h"
#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/losses.h"
#include "autodiff/reduce.h"
#include "graph/graph.h"
#include "graph/tensor.h"
#include "optim/graph_objective.h"
#include "optim/objective.h"

namespace dagml::testing {

// f(x) = ½ xᵀAx − bᵀx, ∇f = Ax − b, ∇²f = A; minimiser x* = A⁻¹b (A SPD).
inline FunctionObjective quadratic(const Tensor& A, const Vector& b) {
  return FunctionObjective({
      .dimension = b.size(),
      .value_and_gradient =
          [A, b](const Vector& x, Vector& g) {
            g = A * x - b;
            return 0.5 * x.dot(A * x) - b.dot(x);
          },
      .hessian = [A](const Vector&, Tensor& H) { H = A; },
  });
}

// f(x) = 10 cos x (1-d), with its Hessian: f'' < 0 at x = 0.3, minima at odd multiples of π.
inline FunctionObjective ten_cos() {
  return FunctionObjective({.dimension = 1,
                            .value_and_gradient =
                                [](const Vector& x, Vector& g) {
                                  g = Vector::Constant(1, -10 * std::sin(x[0]));
                                  return 10 * std::cos(x[0]);
                                },
                            .hessian = [](const Vector& x, Tensor& H) {
                              H = Tensor::Constant(1, 1, -10 * std::cos(x[0]));
                            }});
}

// A well-conditioned 3-d convex quadratic: A = [[4,1,0],[1,3,1],[0,1,2]], b = (1,2,3).
inline Tensor convex_A() { return (Tensor(3, 3) << 4, 1, 0, 1, 3, 1, 0, 1, 2).finished(); }
inline Vector convex_b() { return (Vector(3) << 1, 2, 3).finished(); }

// An ill-conditioned quadratic: A = diag(λ₁…λ₁₀), λ log-spaced from 1 to 10⁴ (condition number
// 10⁴), b = (1,…,1); x*_i = 1/λ_i, f* = −½ Σ 1/λ_i.
inline Tensor ill_conditioned_A() {
  Tensor A = Tensor::Zero(10, 10);
  for (int i = 0; i < 10; ++i) A(i, i) = std::pow(10.0, 4.0 * i / 9.0);
  return A;
}
inline Vector ill_conditioned_b() { return Vector::Ones(10); }

// Rosenbrock f(x, y) = (1 − x)² + 100 (y − x²)², minimum 0 at (1, 1).
inline FunctionObjective rosenbrock() {
  return FunctionObjective({
      .dimension = 2,
      .value_and_gradient =
          [](const Vector& v, Vector& g) {
            const double x = v[0], y = v[1];
            g.resize(2);
            g[0] = -2 * (1 - x) - 400 * x * (y - x * x);
            g[1] = 200 * (y - x * x);
            return (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x);
          },
      .hessian =
          [](const Vector& v, Tensor& H) {
            const double x = v[0], y = v[1];
            H.resize(2, 2);
            H << 2 - 400 * y + 1200 * x * x, -400 * x, -400 * x, 200;
          },
  });
}

// Booth f(x, y) = (x + 2y − 7)² + (2x + y − 5)², minimum 0 at (1, 3).
inline FunctionObjective booth() {
  return FunctionObjective({
      .dimension = 2,
      .value_and_gradient =
          [](const Vector& v, Vector& g) {
            const double a = v[0] + 2 * v[1] - 7, b = 2 * v[0] + v[1] - 5;
            g.resize(2);
            g << 2 * a + 4 * b, 4 * a + 2 * b;
            return a * a + b * b;
          },
      .hessian = [](const Vector&, Tensor& H) { H = (Tensor(2, 2) << 10, 8, 8, 10).finished(); },
  });
}

// Newton's example of notes 000 §4.6: f(w) = √(w² + 1), f' = w/√(w²+1), f'' = (1 + w²)^{−3/2}.
inline FunctionObjective sqrt_hyperbola() {
  return FunctionObjective({
      .dimension = 1,
      .value_and_gradient =
          [](const Vector& w, Vector& g) {
            const double s = std::sqrt(w[0] * w[0] + 1);
            g = Vector::Constant(1, w[0] / s);
            return s;
          },
      .hessian = [](const Vector& w, Tensor& H) { H = Tensor::Constant(1, 1, std::pow(1 + w[0] * w[0], -1.5)); },
  });
}

// Logistic regression as a graph (notes 001; worked example notes001_003.md D4): x = [0,1,2,3],
// y = [0,1,0,1], X = [x 1], J(w) = Σᵢ BCE(σ(Xᵢw), yᵢ) (sum form). Optimum from D4 (Newton/IRLS,
// converged, ‖∇J‖ < 1e-10): w* = (0.9081842626, −1.3622763938), J* = 2.3474865351.
struct LogisticProblem {
  Graph graph;
  Var X, y, w, loss;
  std::unique_ptr<GraphObjective> objective;
};
inline constexpr double kLogisticW0 = 0.9081842626, kLogisticW1 = -1.3622763938, kLogisticJ = 2.3474865351;
inline std::unique_ptr<LogisticProblem> logistic() {
  auto p = std::make_unique<LogisticProblem>();
  const Tensor Xv = (Tensor(4, 2) << 0, 1, 1, 1, 2, 1, 3, 1).finished();
  const Tensor yv = (Tensor(4, 1) << 0, 1, 0, 1).finished();
  p->X = p->graph.input("X", Xv);
  p->y = p->graph.input("y", yv);
  p->w = p->graph.parameter("w", Tensor::Zero(2, 1));
  p->loss = scale(binary_cross_entropy_with_logits(matmul(p->X, p->w), p->y), 4.0);  // mean → sum
  p->objective = std::make_unique<GraphObjective>(p->loss, std::vector<Var>{p->w},
                                                  GraphObjectiveOptions{.data = {{p->X, Xv}, {p->y, yv}}});
  return p;
}

// Exponential fit: residuals rᵢ = a·exp(b·tᵢ) − yᵢ for tᵢ = 0, 0.5, …, 4.5 and noise-free
// yᵢ = 2·exp(−0.7 tᵢ): the minimum ½‖r‖² = 0 is at (a, b) = (2, −0.7).
inline Vector exp_fit_t() { return Vector::LinSpaced(10, 0.0, 4.5); }
inline FunctionObjective exponential_fit() {
  const Vector t = exp_fit_t();
  const Vector y = (2.0 * (-0.7 * t).array().exp()).matrix();
  auto residuals = [t, y](const Vector& w, Vector& r, Tensor* J) {
    const Vector e = (w[1] * t).array().exp().matrix();
    r = w[0] * e - y;
    if (J != nullptr) {
      J->resize(t.size(), 2);
      J->col(0) = e;
      J->col(1) = (w[0] * t.array() * e.array()).matrix();
    }
  };
  return FunctionObjective({
      .dimension = 2,
      .value_and_gradient =
          [residuals](const Vector& w, Vector& g) {
            Vector r;
            Tensor J;
            residuals(w, r, &J);
            g = J.transpose() * r;
            return 0.5 * r.squaredNorm();
          },
      .residuals = residuals,
  });
}

// The sensor-distance problem of notes 000 §4.1: sensors at known points sᵢ report the distances
// dᵢ = ‖sᵢ − w*‖ to the unknown position w* = (1, 2) (noise-free); residuals rᵢ(w) = ‖sᵢ − w‖ − dᵢ
// built as a graph; the minimum ½‖r‖² = 0 is at w*.
struct SensorProblem {
  Graph graph;
  Var w;
  std::unique_ptr<GraphObjective> objective;
};
inline std::unique_ptr<SensorProblem> sensors() {
  auto p = std::make_unique<SensorProblem>();
  const Tensor S = (Tensor(4, 2) << 0, 0, 4, 0, 0, 5, 3, 4).finished();
  const Vector target = (Vector(2) << 1, 2).finished();
  Tensor d(4, 1);
  for (int i = 0; i < 4; ++i) d(i, 0) = (S.row(i).transpose() - target).norm();
  const Var s = p->graph.constant(S, "sensors");
  const Var dist = p->graph.constant(d, "distances");
  p->w = p->graph.parameter("w", Tensor::Zero(1, 2));
  const Var diff = s - p->w;                          // 4×2, w broadcast over rows
  const Var r = sqrt(row_sums(square(diff))) - dist;  // 4×1
  p->objective = GraphObjective::least_squares(r, {p->w});
  return p;
}

}  // namespace dagml::testing
