#include "graph/executor.h"

#include <fmt/format.h>

#include <algorithm>

#include "graph/error.h"

namespace dagml {

Executor::Executor(Graph& graph, std::vector<Var> outputs)
    : slot_(graph.own_slot()), generation_(graph.generation_), outputs_(std::move(outputs)),
      shape_version_(graph.shape_version()) {
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
  shape_scratch_.resize(max_inputs);
  steps_.reserve(plan_.size());
  for (int id : plan_) {
    const auto ins = graph.inputs_of(id);
    steps_.push_back({graph.node(id).op.get(), &graph.mutable_value(id), static_cast<std::uint32_t>(input_values_.size()),
                      static_cast<std::uint32_t>(ins.size())});
    for (int in : ins) {
      input_values_.push_back(&graph.node(in).value);
      input_ops_.push_back(graph.node(in).op.get());
    }
  }
}

Graph& Executor::graph() const {
  Graph* graph = slot_->get(generation_);
  if (graph == nullptr) [[unlikely]]
    throw ValueError("Executor: its graph was destroyed; an Executor can be used only while its Graph lives");
  return *graph;
}

void Executor::feed(Var input, const Tensor& value) {
  Graph& g = graph();
  g.check_owns(input, "Executor::feed");
  const Node& n = g.node(input.id());
  if (n.kind != NodeKind::Input && n.kind != NodeKind::Parameter)
    throw ValueError(fmt::format("Executor::feed: {} is not an input", describe(g, input.id())));
  g.set_value(input, value);
}

void Executor::infer_shapes(Graph& graph) {
  for (int id : plan_) {
    const auto ins = graph.inputs_of(id);
    for (std::size_t i = 0; i < ins.size(); ++i) shape_scratch_[i] = shape_of(graph.node(ins[i]).value);
    const Shape s = graph.node(id).op->infer_shape({shape_scratch_.data(), ins.size()});
    Tensor& out = graph.mutable_value(id);
    if (shape_of(out) != s) out.resize(s.rows, s.cols);
  }
  shape_version_ = graph.shape_version();
}

void Executor::run() {
  Graph& g = graph();
  if (shape_version_ != g.shape_version()) infer_shapes(g);
  const Tensor* const* values = input_values_.data();
  const Op* const* ops = input_ops_.data();
  for (const Step& s : steps_)
    s.op->forward(ForwardArgs{{values + s.first_input, s.num_inputs}, {ops + s.first_input, s.num_inputs}, *s.out});
}

}  // namespace dagml
