// Export of a graph for people (Graphviz DOT) and for programs (JSON).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "graph/graph.h"

namespace dagml {

struct DotOptions {
  bool show_values = false;  // add min / mean / max of each value to its label
  // (node, its gradient node) pairs: each node's label gets a summary of its gradient.
  std::vector<std::pair<Var, Var>> gradients;
  // Export only what these nodes depend on; all nodes when empty.
  std::vector<Var> outputs;
};

// The graph in Graphviz DOT: one box per node with its name, op and shape.
std::string to_dot(const Graph& graph, const DotOptions& options = {});
// The graph in JSON: {"nodes": [{"id", "kind", "op", "name", "shape", "inputs", "attributes"}]}.
std::string to_json(const Graph& graph);
// Writes text to a file; throws IoError naming the path on failure.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace dagml
