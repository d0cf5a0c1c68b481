// Graph: the dataflow graph and the autodiff tape in one. Nodes are kept in creation order, which
// is a topological order: forward replays the list front to back and reverse mode walks it back
// to front. Building is eager: creating an op node computes its value at once.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "graph/error.h"
#include "graph/op.h"
#include "graph/tensor.h"

namespace dagml {

enum class NodeKind {
  Input,      // fed at each run (data, labels)
  Parameter,  // persists between runs; optimizers update it
  Constant,   // fixed at creation
  Op,         // an op applied to earlier nodes
};

const char* to_string(NodeKind kind);

struct Node {
  NodeKind kind = NodeKind::Constant;
  std::shared_ptr<Op> op;  // set only when kind == NodeKind::Op
  int first_input = 0;     // this node's inputs are inputs_[first_input, first_input + num_inputs)
  int num_inputs = 0;
  Tensor value;
  std::string name;
};

// Note [Graph lifetime]
// ~~~~~~~~~~~~~~~~~~~~~
// A Graph may be moved (returned from a function, kept in a std::vector that grows, moved into a
// member) and its Vars and Executors keep working; a Var used after its graph is destroyed throws
// ValueError ("node #3 was used after its graph was destroyed …") instead of reading freed memory.
//
// How: a graph's identity is not its address but a slot of a process-wide table
// (detail::GraphSlot): the graph's current address and a generation. A Var holds {slot,
// generation, node id}; Var::graph() loads the slot's generation, compares it with its own and
// loads the address. Moving a Graph hands its slot to the new object, which writes its address
// there: the Vars follow. Destroying a Graph (or move-assigning over it) advances the slot's
// generation, so every Var and Executor of that graph now fails the check, and returns the slot
// to the table for a later graph. Slots are never freed, so a stale Var can always read its slot;
// a slot whose generation would wrap is retired, so a stale Var never matches a later graph.
// Node storage (fixed chunks on the heap) does not move with the Graph object, so an Executor's
// resolved pointers stay valid across moves; the Executor holds the same checked handle and
// run() throws once its graph is gone.
//
// The alternatives, and why not:
// - A non-movable Graph turns `std::vector<Graph>` into a compile error, but makes every owner
//   of a graph non-movable, and a Var outliving its graph still reads freed memory.
// - Vars that share ownership of the graph's state (a shared_ptr per Var) keep values readable
//   after the Graph is gone, but make every Var copy an atomic increment and decrement (building
//   and the reverse sweep copy Vars several times per node), grow Var from 16 to 24 bytes and
//   make it non-trivially copyable, and create cycles as soon as an op keeps a Var.
// The checked handle keeps Var at 16 trivially copyable bytes and costs one more load and
// compare per Var::graph(); replay is untouched but for one check per Executor::run(). A graph
// takes its slot (one lock of the table) when it creates its first node, and gives it back on
// destruction.
//
// Limits: a `Graph&` or `Graph*` taken from a Var (or kept by the caller) is a plain reference
// and does not follow a move: keep Vars, not graph references, across a move. The check is not
// synchronisation: destroying a graph while another thread uses it is a data race, as for any
// object. A moved-from Graph is empty and may be used again as a new graph.
class Graph {
 public:
  Graph() = default;
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  // Moves keep every Var and Executor of `other` valid: they now refer to this graph. `other` is
  // left empty. Move assignment destroys this graph's nodes first: its Vars expire.
  Graph(Graph&& other) noexcept;
  Graph& operator=(Graph&& other) noexcept;

  // An input: a value fed at each run. The column count is fixed; the row count (batch size)
  // may change between runs.
  Var input(std::string name, Index rows, Index cols);
  Var input(std::string name, Tensor value);
  // A parameter: a value that persists and that optimizers update.
  Var parameter(std::string name, Tensor value);
  Var constant(Tensor value, std::string name = {});

  // Appends an op node over earlier nodes of this graph, checking shapes (ShapeError) and
  // computing its value.
  Var apply(std::shared_ptr<Op> op, std::span<const Var> inputs);
  Var apply(std::shared_ptr<Op> op, std::initializer_list<Var> inputs) {
    return apply(std::move(op), std::span<const Var>(inputs.begin(), inputs.size()));
  }

  int size() const { return size_; }
  const Node& node(int id) const { return at(id); }
  Var var(int id) { return Var(own_slot(), generation_, id); }
  std::span<const int> inputs_of(int id) const {
    const Node& n = node(id);
    return {inputs_.data() + n.first_input, static_cast<std::size_t>(n.num_inputs)};
  }

  // Replaces the value of an input or a parameter (not of an op node or a constant). An input
  // keeps its column count; a parameter keeps its shape.
  void set_value(Var leaf, const Tensor& value);
  // Mutable access to a parameter's value, for optimizers that update in place.
  Tensor& parameter_value(Var parameter);
  // Mutable access to an input's value, for a feed that writes its rows in place (keeping the
  // shape; set_value changes it).
  Tensor& input_value(Var input);
  void set_name(int id, std::string name);

  // A deep copy whose nodes have the same ids, for data-parallel replicas. Ops that save state
  // are cloned; values are copied.
  Graph clone() const;

  // Checks that v is a node of this graph; throws ValueError naming `what` otherwise (and saying
  // whether v is empty, of another graph or of a destroyed one).
  void check_owns(Var v, const char* what) const;

  // Incremented whenever a leaf's shape changes; an Executor re-infers shapes when it moves.
  std::uint64_t shape_version() const { return shape_version_; }

 private:
  friend class Executor;
  Tensor& mutable_value(int id) { return at(id).value; }
  Var add_leaf(NodeKind kind, Tensor value, std::string name);
  // Why v is not a node of this graph ("an empty Var", "a node of another graph" …), or nullptr.
  const char* not_owned(const Var& v) const;
  // This graph's slot, taken from the table on first use. See Note [Graph lifetime].
  detail::GraphSlot* own_slot();
  void take(Graph& other) noexcept;
  void release() noexcept;

  // Nodes live in fixed-size chunks: addresses (and values) stay put as the graph grows, and
  // indexing is a shift and a mask.
  static constexpr int kChunkBits = 10;
  static constexpr int kChunkSize = 1 << kChunkBits;
  Node& emplace_node();
  Node& at(int id) { return chunks_[static_cast<std::size_t>(id >> kChunkBits)][id & (kChunkSize - 1)]; }
  const Node& at(int id) const { return chunks_[static_cast<std::size_t>(id >> kChunkBits)][id & (kChunkSize - 1)]; }

  std::vector<std::unique_ptr<Node[]>> chunks_;
  int size_ = 0;
  std::vector<int> inputs_;  // the input ids of all nodes, concatenated
  std::uint64_t shape_version_ = 0;
  detail::GraphSlot* slot_ = nullptr;  // nullptr until the first node, and after a move from
  std::uint32_t generation_ = 0;       // the slot's generation while this graph holds it
};

// A short description "name (op, 3×4)" used in error messages.
std::string describe(const Graph& graph, int id);

}  // namespace dagml
