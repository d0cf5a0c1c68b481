// Internal: the two templates every elementwise op is an instance of. An op file supplies a
// small traits struct with its name, its forward formula on whole arrays and its derivative
// written with graph ops; the templates supply shapes, broadcasting and registration.
#pragma once

#include <array>
#include <fmt/format.h>
#include <memory>
#include <type_traits>

#include "autodiff/batched.h"
#include "autodiff/broadcast.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "graph/error.h"
#include "graph/graph.h"

namespace dagml::detail {

// Traits: kName; template <class X, class Y> void forward(const X& x, Y& y) const (x, y Eigen
//         matrices of one shape: a Tensor, or a fixed 1×1 map on the scalar fast path);
//         Var vjp(Var x, Var y, Var g) const  (x̄ for input x, output y, output cotangent g);
//         optionally std::string attributes() const.
template <class Traits>
class UnaryOp final : public Op {
 public:
  explicit UnaryOp(Traits traits = {}) : traits_(traits) {}
  const char* name() const override { return Traits::kName; }
  Shape infer_shape(std::span<const Shape> in) const override { return in[0]; }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    if (x.size() == 1) {  // scalar fast path: fixed-size maps let Eigen drop its loop machinery
      const Eigen::Map<const Eigen::Matrix<Scalar, 1, 1>> xs(x.data());
      Eigen::Map<Eigen::Matrix<Scalar, 1, 1>> ys(a.out.data());
      traits_.forward(xs, ys);
    } else {
      traits_.forward(x, a.out);
    }
  }
  VarList vjp(const VjpArgs& a) const override { return {traits_.vjp(a.in[0], a.out, a.g)}; }
  // Elementwise, so the VJP is ȳ ⊙ (a factor of x and y), and the formula broadcasts: with x and
  // y laid out as 1 × size rows it maps all m rows of a batched cotangent at once.
  VarList batched_vjp(const BatchedVjpArgs& a) const override {
    return {traits_.vjp(as_row(a.in[0]), as_row(a.out), a.g)};
  }
  // The Jacobian is diagonal, so the JVP is the same formula: ẏ = f'(x) ⊙ ẋ, over q tangent rows.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    return traits_.vjp(as_row(a.in[0]), as_row(a.out), a.tangents[0]);
  }
  std::string attributes() const override {
    if constexpr (requires(const Traits& t) { t.attributes(); }) return traits_.attributes();
    return {};
  }

 private:
  Traits traits_;
};

template <class Traits, class... Args>
Var apply_unary(Var x, Args&&... args) {
  if constexpr (std::is_empty_v<Traits>) {
    static const auto op = std::make_shared<UnaryOp<Traits>>();  // stateless: one shared instance
    return x.graph().apply(op, {x});
  } else {
    // Ops with attributes are immutable, so consecutive nodes with equal attributes (the same
    // scale factor in a loop) share one instance.
    thread_local std::shared_ptr<Op> last_op;
    thread_local Traits last_traits;
    const Traits traits{std::forward<Args>(args)...};
    if (!last_op || !(traits == last_traits)) {
      last_op = std::make_shared<UnaryOp<Traits>>(traits);
      last_traits = traits;
    }
    return x.graph().apply(last_op, {x});
  }
}

// Calls f with row i of operand t broadcast to the output shape `out`, as a 1 × out.cols array:
// t's own row i, its only row (a 1×k row), or its one value in row i repeated (n×1, 1×1).
template <class F>
void with_row(const Tensor& t, const Shape& out, Index i, F&& f) {
  const Index r = t.rows() == 1 ? 0 : i;
  if (t.cols() == out.cols) f(t.row(r).array());
  else f(Eigen::Array<Scalar, 1, Eigen::Dynamic>::Constant(out.cols, t(r, 0)));
}

// Traits: kName; template <class A, class B> static auto f(const A& a, const B& b) on arrays;
//         std::array<Var, 2> vjp(Var a, Var b, Var y, Var g) const, cotangents in the output
//         shape (the template sums them back to each operand's shape).
template <class Traits>
class BinaryOp final : public Op {
 public:
  BinaryOp(Broadcast pa, Broadcast pb) : pattern_{pa, pb} {}
  const char* name() const override { return Traits::kName; }
  Shape infer_shape(std::span<const Shape> in) const override {
    const Shape out = broadcast_shape(*this, in);
    if (!follows(pattern_[0], in[0], out) || !follows(pattern_[1], in[1], out))
      shape_error(*this, in, "the broadcast pattern differs from the one the node was built with; "
                             "build the graph with shapes of the same kind as the ones fed");
    return out;
  }
  void forward(const ForwardArgs& a) override {
    const Tensor& x = *a.in[0];
    const Tensor& y = *a.in[1];
    const Shape s = shape_of(a.out);
    if (shape_of(x) == s && shape_of(y) == s) {
      if (a.out.size() == 1) {
        a.out(0, 0) = Traits::f(x(0, 0), y(0, 0));  // scalar fast path
      } else {
        a.out.array() = Traits::f(x.array(), y.array());
      }
    } else if (shape_of(x) == s && y.size() == 1) {
      a.out.array() = Traits::f(x.array(), Tensor::Constant(s.rows, s.cols, y(0, 0)).array());
    } else if (shape_of(y) == s && x.size() == 1) {
      a.out.array() = Traits::f(Tensor::Constant(s.rows, s.cols, x(0, 0)).array(), y.array());
    } else {
      // Row by row: each output row is contiguous, and each operand gives either a row of its own
      // or one value repeated (Eigen's general replicate() indexes every entry, several times
      // slower).
      for (Index i = 0; i < s.rows; ++i)
        with_row(x, s, i, [&](const auto& xi) {
          with_row(y, s, i, [&](const auto& yi) { a.out.row(i).array() = Traits::f(xi, yi); });
        });
    }
  }
  VarList vjp(const VjpArgs& a) const override {
    const std::array<Var, 2> full = Traits{}.vjp(a.in[0], a.in[1], a.out, a.g);
    return {full[0] ? sum_to(full[0], pattern_[0]) : Var{}, full[1] ? sum_to(full[1], pattern_[1]) : Var{}};
  }
  // As for UnaryOp, with each operand as it reaches the output laid out as one row
  // (operand_row). The cotangent of a 1×1 operand is the sum of each row, of an n×1 column the sums of each seed's
  // rows; a 1×k row operand's would be a sum over each seed's rows, which has no flat layout here,
  // so when it is wanted the caller goes row by row.
  VarList batched_vjp(const BatchedVjpArgs& a) const override {
    for (std::size_t i = 0; i < 2; ++i)
      if (a.wanted[i] && pattern_[i] == Broadcast::Row) return {};
    const std::array<Var, 2> full = Traits{}.vjp(operand_row(a.in, a.out, 0), operand_row(a.in, a.out, 1), as_row(a.out), a.g);
    auto cotangent = [&](std::size_t i) {
      if (!a.wanted[i] || !full[i]) return Var{};
      if (pattern_[i] == Broadcast::Scalar) return row_sums(full[i]);
      if (pattern_[i] == Broadcast::Column) return batched_row_sums(full[i], a.out.cols());
      return full[i];
    };
    return {cotangent(0), cotangent(1)};
  }
  // ẏ = ∂f/∂a ⊙ ȧ + ∂f/∂b ⊙ ḃ, each operand's tangent brought to the output's layout first (the
  // VJP formula is linear in its cotangent, so it gives each term). A 1×1 operand's tangent is a
  // q×1 column c, the same for every entry: its term is the outer product c (∂f/∂a)ᵀ.
  std::optional<Var> jvp(const JvpArgs& a) const override {
    const Index size = a.out.rows() * a.out.cols();
    const Var x0 = operand_row(a.in, a.out, 0), x1 = operand_row(a.in, a.out, 1), y = as_row(a.out);
    Var total;
    for (std::size_t i = 0; i < 2; ++i) {
      const Var t = a.tangents[i];
      if (!t) continue;
      Var term;
      if (pattern_[i] == Broadcast::Scalar && size > 1) {
        const Var ones = t.graph().constant(Tensor::Ones(1, size));
        term = matmul(t, Traits{}.vjp(x0, x1, y, ones)[i]);
      } else {
        Var spread = t;
        if (pattern_[i] == Broadcast::Column) spread = batched_repeat_entries(t, a.out.cols());
        if (pattern_[i] == Broadcast::Row) spread = batched_tile(t, a.out.rows());
        term = Traits{}.vjp(x0, x1, y, spread)[i];
      }
      if (term) total = total ? total + term : term;
    }
    return total;
  }

 private:
  // Operand i as it reaches the output, laid out as one row: a 1×1 operand as it is (it
  // broadcasts over anything), any other repeated to the output's shape first.
  Var operand_row(std::span<const Var> in, Var out, std::size_t i) const {
    switch (pattern_[i]) {
      case Broadcast::Scalar: return in[i];
      case Broadcast::Row: return as_row(broadcast_like(in[i], out, Axis::PerColumn));
      case Broadcast::Column: return as_row(broadcast_like(in[i], out, Axis::PerRow));
      case Broadcast::Same: break;
    }
    return as_row(in[i]);
  }

  Broadcast pattern_[2];
};

template <class Traits>
Var apply_binary(Var a, Var b) {
  // One shared instance per broadcast pattern pair: building allocates no op.
  static const auto ops = [] {
    std::array<std::shared_ptr<Op>, 16> all;
    for (int i = 0; i < 16; ++i)
      all[static_cast<std::size_t>(i)] =
          std::make_shared<BinaryOp<Traits>>(static_cast<Broadcast>(i / 4), static_cast<Broadcast>(i % 4));
    return all;
  }();
  if (!a.valid() || !b.valid())
    throw ValueError(fmt::format("{}: an argument is an empty Var", Traits::kName));
  Broadcast p[2];
  const Shape shapes[2] = {a.shape(), b.shape()};
  broadcast_shape(*ops[0], shapes, p);
  return a.graph().apply(ops[static_cast<std::size_t>(static_cast<int>(p[0]) * 4 + static_cast<int>(p[1]))], {a, b});
}

}  // namespace dagml::detail
