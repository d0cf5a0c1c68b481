// The Op interface: one class per operation, holding its shape rule, its forward computation and
// its vector-Jacobian product. Every implementation lives in autodiff/ops/; graph/ knows no
// derivative rule.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "graph/tensor.h"

namespace dagml {

class Graph;
class Op;

namespace detail {
// One entry of the process-wide table that gives every Graph a checked identity; Vars and
// Executors reach their graph through it. See Note [Graph lifetime] in graph/graph.h.
struct GraphSlot {
  std::atomic<Graph*> graph{nullptr};        // the owning Graph's current address
  std::atomic<std::uint32_t> generation{0};  // advanced each time a graph gives the slot back
  GraphSlot* next_free = nullptr;            // the table's free list, under its lock

  // The graph that handed out handles of generation `gen`, or nullptr if it was destroyed.
  Graph* get(std::uint32_t gen) const noexcept {
    return generation.load(std::memory_order_acquire) == gen ? graph.load(std::memory_order_acquire) : nullptr;
  }
};

// Throws ValueError for a Var with no live graph: empty (slot == nullptr) or destroyed.
[[noreturn]] void throw_no_graph(const GraphSlot* slot, int id);
}  // namespace detail

// A handle to a node of a Graph. Cheap to copy (16 bytes, trivially copyable). It follows its
// graph when the Graph object is moved; once the graph is destroyed, every use throws ValueError
// (see Note [Graph lifetime] in graph/graph.h).
class Var {
 public:
  Var() = default;
  // Node `id` of `graph`.
  Var(Graph* graph, int id);

  // True if this Var names a node (of a live or a destroyed graph); false for Var{}.
  bool valid() const { return slot_ != nullptr; }
  explicit operator bool() const { return valid(); }
  // True if this Var names a node of a graph that was destroyed.
  bool expired() const { return slot_ != nullptr && slot_->get(generation_) == nullptr; }
  // The graph this node belongs to. Throws ValueError if the Var is empty or its graph was
  // destroyed.
  Graph& graph() const {
    Graph* g = slot_ != nullptr ? slot_->get(generation_) : nullptr;
    if (g == nullptr) [[unlikely]]
      detail::throw_no_graph(slot_, id_);
    return *g;
  }
  int id() const { return id_; }

  // The node's value, shape, name: each throws ValueError as graph() does.
  const Tensor& value() const;
  Shape shape() const { return shape_of(value()); }
  Index rows() const { return value().rows(); }
  Index cols() const { return value().cols(); }
  // The value of a 1×1 node; throws ShapeError otherwise.
  Scalar item() const;
  const std::string& name() const;
  // Gives this node a name (shown in errors and exports); returns *this.
  Var named(std::string name) const;

  friend bool operator==(const Var& a, const Var& b) {
    return a.slot_ == b.slot_ && a.generation_ == b.generation_ && a.id_ == b.id_;
  }

 private:
  friend class Graph;
  Var(detail::GraphSlot* slot, std::uint32_t generation, int id) : slot_(slot), generation_(generation), id_(id) {}

  detail::GraphSlot* slot_ = nullptr;
  std::uint32_t generation_ = 0;
  int id_ = -1;
};

// A short list of Vars: the cotangents an op's VJP returns, one per input. Up to three are held
// inline, so the reverse pass allocates no list for the common ops.
class VarList {
 public:
  VarList() = default;
  VarList(std::initializer_list<Var> vars) {
    for (const Var& v : vars) push_back(v);
  }
  VarList(const std::vector<Var>& vars) {  // NOLINT: implicit, so ops may return a vector
    for (const Var& v : vars) push_back(v);
  }
  void push_back(const Var& v) {
    if (size_ < kInline) inline_[size_] = v;
    else heap_.push_back(v);
    ++size_;
  }
  std::size_t size() const { return size_; }
  const Var& operator[](std::size_t i) const { return i < kInline ? inline_[i] : heap_[i - kInline]; }

 private:
  static constexpr std::size_t kInline = 3;
  Var inline_[kInline];
  std::vector<Var> heap_;
  std::size_t size_ = 0;
};

// What forward receives: the input values, the ops of the input nodes (nullptr for leaves; a
// backward op reads the factorization its forward op saved through this), and the output,
// already sized to the inferred shape.
struct ForwardArgs {
  std::span<const Tensor* const> in;
  std::span<const Op* const> in_ops;
  Tensor& out;
};

// What a vector-Jacobian product receives: the input nodes, the output node and the cotangent
// g of the output (same shape as the output).
struct VjpArgs {
  std::span<const Var> in;
  Var out;
  Var g;
};

// What a batched vector-Jacobian product receives (jacobian() pushes m cotangents of one output
// back at once): the input nodes, the output node, and g, an m × size(out) node whose row s is the
// s-th cotangent of the output flattened row-major. wanted[i] says whether input i's cotangent is
// needed; an op may skip the others.
struct BatchedVjpArgs {
  std::span<const Var> in;
  Var out;
  Var g;
  std::span<const char> wanted;
};

// What a batched Jacobian-vector product (forward mode) receives: the input nodes, the output
// node, and one tangent per input, a q × size(inᵢ) node whose row s is the s-th tangent direction
// of input i flattened row-major (an invalid Var: a zero tangent; at least one is valid).
struct JvpArgs {
  std::span<const Var> in;
  Var out;
  std::span<const Var> tangents;
};

class Op {
 public:
  virtual ~Op() = default;

  // The op's name, as shown in errors and exports ("matmul", "sin" …).
  virtual const char* name() const = 0;

  // The output shape for these input shapes; throws ShapeError (see shape_error) if they do not
  // fit. Called when a node is created and again at replay when a fed shape changes.
  virtual Shape infer_shape(std::span<const Shape> in) const = 0;

  // Computes the output from the inputs. May save state for the backward pass (a factorization,
  // an argmax), which is why it is not const.
  virtual void forward(const ForwardArgs& args) = 0;

  // Cotangents of the inputs, built from graph ops on g.graph(); an invalid Var means a zero
  // gradient. The default throws: the op has no derivative.
  virtual VarList vjp(const VjpArgs& args) const;
  // The VJP of m cotangents at once, in BatchedVjpArgs' layout: one m × size(inᵢ) node per input,
  // row s the cotangent of input i for row s of g (an invalid Var: zero, or not wanted). Turning
  // m reverse passes into one lets a Jacobian's matrix-vector products become one matrix product.
  // An empty list, the default, means no batched rule for these shapes: jacobian() then calls
  // vjp once per row of g, which is always right and m times the work.
  virtual VarList batched_vjp(const BatchedVjpArgs& args) const;
  // The output's tangent for the inputs' tangents, in JvpArgs' layout: a q × size(out) node, row s
  // the s-th direction of the output's tangent (an invalid Var: zero). Built from graph ops, like
  // the VJP, so it replays and differentiates again. std::nullopt, the default, means the op has
  // no rule of its own: forward mode then derives one from its VJP (Note [Forward rule by
  // transposition] in autodiff/batched.h), exact and about three times the work.
  virtual std::optional<Var> jvp(const JvpArgs& args) const;

  // Attributes shown in exports ("start=2, count=3"); empty by default.
  virtual std::string attributes() const { return {}; }

  // A copy for a graph replica. Ops whose forward saves state must return a fresh copy; the
  // default shares the op, which is right for stateless ops.
  virtual std::shared_ptr<Op> clone(const std::shared_ptr<Op>& self) const { return self; }
};

// A ShapeError naming the op, each argument's shape and what was wrong.
[[noreturn]] void shape_error(const Op& op, std::span<const Shape> in, const std::string& detail);

}  // namespace dagml
