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

class Graph {
 public:
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  Graph(Graph&&) = default;
  Graph& operator=(Graph&&) = default;

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
  Var var(int id) { return Var(this, id); }
  std::span<const int> inputs_of(int id) const {
    const Node& n = node(id);
    return {inputs_.data() + n.first_input, static_cast<std::size_t>(n.num_inputs)};
  }

  // Replaces the value of an input or a parameter (not of an op node or a constant). An input
  // keeps its column count; a parameter keeps its shape.
  void set_value(Var leaf, const Tensor& value);
  // Mutable access to a parameter's value, for optimizers that update in place.
  Tensor& parameter_value(Var parameter);
  void set_name(int id, std::string name);

  // A deep copy whose nodes have the same ids, for data-parallel replicas. Ops that save state
  // are cloned; values are copied.
  Graph clone() const;

  // Checks that v is a node of this graph; throws ValueError naming `what` otherwise.
  void check_owns(Var v, const char* what) const;

  // Incremented whenever a leaf's shape changes; an Executor re-infers shapes when it moves.
  std::uint64_t shape_version() const { return shape_version_; }

 private:
  friend class Executor;
  Tensor& mutable_value(int id) { return at(id).value; }
  Var add_leaf(NodeKind kind, Tensor value, std::string name);

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
};

// A short description "name (op, 3×4)" used in error messages.
std::string describe(const Graph& graph, int id);

}  // namespace dagml
