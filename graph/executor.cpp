#include "graph/executor.h"

#include <fmt/format.h>

#include <algorithm>

#include "graph/error.h"

namespace dagml {

Executor::Executor(Graph& graph, std::vector<Var> outputs) : graph_(&graph), outputs_(std::move(outputs)), shape_version_(graph.shape_version()) {
  // One backward sweep over the tape marks what the outputs need; no recursion.
  std::vector<char> needed(static_cast<std::size_t>(graph.size()), 0);
  for (const Var& v : outputs_) {
    graph.check_owns(v, "Executor output");
    needed[static_cast<std::size_t>(v.id())] = 1;
  }
  std::size_t max_inputs = 0;
  for (int id = graph.size() - 1; id >= 0; --id) {
    if (!needed[static_cast<std::size_t>(id)] || graph.node(id).kind != NodeKind::Op) continue;
    const auto ins = graph.inputs_of(id);
    for (int in : ins) needed[static_cast<std::size_t>(in)] = 1;
    max_inputs = std::max(max_inputs, ins.size());
    plan_.push_back(id);
  }
  std::reverse(plan_.begin(), plan_.end());
  value_scratch_.resize(max_inputs);
  op_scratch_.resize(max_inputs);
  shape_scratch_.resize(max_inputs);
}

void Executor::feed(Var input, const Tensor& value) {
  graph_->check_owns(input, "Executor::feed");
  const Node& n = graph_->node(input.id());
  if (n.kind != NodeKind::Input && n.kind != NodeKind::Parameter)
    throw ValueError(fmt::format("Executor::feed: {} is not an input", describe(*graph_, input.id())));
  graph_->set_value(input, value);
}

void Executor::infer_shapes() {
  for (int id : plan_) {
    const auto ins = graph_->inputs_of(id);
    for (std::size_t i = 0; i < ins.size(); ++i) shape_scratch_[i] = shape_of(graph_->node(ins[i]).value);
    const Shape s = graph_->node(id).op->infer_shape({shape_scratch_.data(), ins.size()});
    Tensor& out = graph_->mutable_value(id);
    if (shape_of(out) != s) out.resize(s.rows, s.cols);
  }
  shape_version_ = graph_->shape_version();
}

void Executor::run() {
  if (shape_version_ != graph_->shape_version()) infer_shapes();
  for (int id : plan_) {
    const auto ins = graph_->inputs_of(id);
    for (std::size_t i = 0; i < ins.size(); ++i) {
      const Node& in = graph_->node(ins[i]);
      value_scratch_[i] = &in.value;
      op_scratch_[i] = in.op.get();
    }
    const Node& n = graph_->node(id);
    n.op->forward(ForwardArgs{{value_scratch_.data(), ins.size()}, {op_scratch_.data(), ins.size()},
                              graph_->mutable_value(id)});
  }
}

}  // namespace dagml
