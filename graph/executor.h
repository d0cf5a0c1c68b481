// Executor: replays the part of a graph that the requested outputs need, with new input values.
// Buffers are reused: once shapes are stable a run allocates nothing. Feeding an input with a
// new row count (batch size) re-infers every shape on the next run. Like a Var, an Executor
// follows its graph when the Graph is moved, and throws ValueError once the graph is destroyed
// (Note [Graph lifetime] in graph.h).
#pragma once

#include <cstdint>
#include <vector>

#include "graph/graph.h"

namespace dagml {

class Executor {
 public:
  // Plans a replay of every op node that `outputs` depend on. Throws ValueError if an output
  // is not a node of `graph`.
  Executor(Graph& graph, std::vector<Var> outputs);

  // Sets an input's value for the next run. Throws ShapeError, naming the input, if the
  // column count differs from the one it was created with.
  void feed(Var input, const Tensor& value);

  // Recomputes every planned node in creation order. Throws ValueError if the graph was
  // destroyed.
  void run();

  // The graph; throws ValueError if it was destroyed.
  Graph& graph() const;
  const std::vector<Var>& outputs() const { return outputs_; }
  // The number of op nodes replayed by run().
  std::size_t num_planned() const { return plan_.size(); }

 private:
  void infer_shapes(Graph& graph);

  // One replay step, resolved to pointers when planned: node addresses never move, so run()
  // touches no graph bookkeeping, only these arrays.
  struct Step {
    Op* op;
    Tensor* out;
    std::uint32_t first_input;  // into input_values_ / input_ops_
    std::uint32_t num_inputs;
  };

  detail::GraphSlot* slot_;  // the graph's checked handle, as in a Var
  std::uint32_t generation_;
  std::vector<Var> outputs_;
  std::vector<int> plan_;  // op node ids, in creation order
  std::vector<Step> steps_;
  std::vector<const Tensor*> input_values_;
  std::vector<const Op*> input_ops_;
  std::vector<Shape> shape_scratch_;
  std::uint64_t shape_version_;  // the graph's shape version the plan's shapes match
};

}  // namespace dagml
