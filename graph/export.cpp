#include "graph/export.h"

#include <fmt/format.h>

#include <fstream>
#include <unordered_map>

#include "graph/error.h"

namespace dagml {
namespace {

std::string summary(const Tensor& t) {
  if (t.size() == 0) return "empty";
  if (t.size() == 1) return fmt::format("{:.4g}", t(0, 0));
  return fmt::format("min {:.3g} mean {:.3g} max {:.3g}", t.minCoeff(), t.mean(), t.maxCoeff());
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    out += c;
  }
  return out;
}

std::vector<char> reachable(const Graph& graph, const std::vector<Var>& outputs) {
  std::vector<char> keep(static_cast<std::size_t>(graph.size()), outputs.empty() ? 1 : 0);
  for (const Var& v : outputs) {
    graph.check_owns(v, "to_dot output");
    keep[static_cast<std::size_t>(v.id())] = 1;
  }
  for (int id = graph.size() - 1; id >= 0; --id)
    if (keep[static_cast<std::size_t>(id)])
      for (int in : graph.inputs_of(id)) keep[static_cast<std::size_t>(in)] = 1;
  return keep;
}

const char* op_name(const Node& n) { return n.kind == NodeKind::Op ? n.op->name() : to_string(n.kind); }

}  // namespace

std::string to_dot(const Graph& graph, const DotOptions& options) {
  const std::vector<char> keep = reachable(graph, options.outputs);
  std::unordered_map<int, int> gradient_of;
  for (const auto& [node, grad] : options.gradients) {
    graph.check_owns(node, "to_dot gradient");
    graph.check_owns(grad, "to_dot gradient");
    gradient_of[node.id()] = grad.id();
  }
  std::string out = "digraph dagml {\n  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\"];\n";
  for (int id = 0; id < graph.size(); ++id) {
    if (!keep[static_cast<std::size_t>(id)]) continue;
    const Node& n = graph.node(id);
    std::string label = n.name.empty() ? fmt::format("#{}", id) : escape(n.name);
    label += fmt::format("\\n{} {}", op_name(n), to_string(shape_of(n.value)));
    if (n.kind == NodeKind::Op && !n.op->attributes().empty()) label += "\\n" + escape(n.op->attributes());
    if (options.show_values) label += "\\nvalue: " + summary(n.value);
    if (auto it = gradient_of.find(id); it != gradient_of.end())
      label += "\\ngrad: " + summary(graph.node(it->second).value);
    const char* style = n.kind == NodeKind::Parameter ? ", style=filled, fillcolor=\"#cfe2ff\""
                        : n.kind == NodeKind::Input   ? ", style=filled, fillcolor=\"#d1e7dd\""
                                                      : "";
    out += fmt::format("  n{} [label=\"{}\"{}];\n", id, label, style);
    for (int in : graph.inputs_of(id)) out += fmt::format("  n{} -> n{};\n", in, id);
  }
  out += "}\n";
  return out;
}

std::string to_json(const Graph& graph) {
  std::string out = "{\"nodes\": [";
  for (int id = 0; id < graph.size(); ++id) {
    const Node& n = graph.node(id);
    std::string inputs;
    for (int in : graph.inputs_of(id)) inputs += fmt::format("{}{}", inputs.empty() ? "" : ", ", in);
    out += fmt::format(
        "{}\n  {{\"id\": {}, \"kind\": \"{}\", \"op\": \"{}\", \"name\": \"{}\", \"shape\": [{}, {}], "
        "\"inputs\": [{}], \"attributes\": \"{}\"}}",
        id ? "," : "", id, to_string(n.kind), op_name(n), escape(n.name), n.value.rows(), n.value.cols(),
        inputs, n.kind == NodeKind::Op ? escape(n.op->attributes()) : "");
  }
  out += "\n]}\n";
  return out;
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  if (!file) throw IoError(fmt::format("cannot open '{}' for writing", path));
  file << text;
  if (!file) throw IoError(fmt::format("failed writing '{}'", path));
}

}  // namespace dagml
