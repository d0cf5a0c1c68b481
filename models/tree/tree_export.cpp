#include "models/tree/tree_export.h"

#include <fmt/format.h>

#include <algorithm>

#include "graph/error.h"

namespace dagml::tree {
namespace {

void check_names(const TreeExportOptions& o, Index num_features, Index num_classes, const char* who) {
  if (!o.feature_names.empty() && static_cast<Index>(o.feature_names.size()) != num_features) {
    throw ValueError(fmt::format("{}: expected {} feature names (or none), found {}", who, num_features,
                                 o.feature_names.size()));
  }
  if (!o.class_names.empty() && static_cast<Index>(o.class_names.size()) != num_classes) {
    throw ValueError(
        fmt::format("{}: expected {} class names (or none), found {}", who, num_classes, o.class_names.size()));
  }
  if (o.precision < 1 || o.precision > 17)
    throw ValueError(fmt::format("{}: expected precision in 1..17, found {}", who, o.precision));
}

std::string feature_name(const TreeExportOptions& o, Index j) {
  return o.feature_names.empty() ? fmt::format("x[{}]", j) : o.feature_names[static_cast<std::size_t>(j)];
}

std::string number(Scalar v, int precision) { return fmt::format("{:.{}g}", v, precision); }

Index majority_class(const Tree& tree, Index t) {
  const Scalar* v = tree.value(t);
  return static_cast<Index>(std::max_element(v, v + tree.outputs) - v);
}

std::string class_name(const TreeExportOptions& o, Index k) {
  return o.class_names.empty() ? fmt::format("{}", k) : o.class_names[static_cast<std::size_t>(k)];
}

std::string values(const Tree& tree, Index t, int precision) {
  std::string out = "[";
  for (Index k = 0; k < tree.outputs; ++k) out += (k ? ", " : "") + number(tree.value(t)[k], precision);
  return out + "]";
}

std::string escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string export_text(const Tree& tree, Index num_features, bool classifier, const TreeExportOptions& o) {
  check_names(o, num_features, classifier ? tree.outputs : 0, "export_text");
  std::string out;
  auto indent = [](Index depth) {
    std::string s;
    for (Index i = 0; i < depth; ++i) s += "|   ";
    return s + "|--- ";
  };
  auto leaf = [&](Index t) {
    return classifier ? "class: " + class_name(o, majority_class(tree, t)) : "value: " + values(tree, t, o.precision);
  };
  // Pre-order walk with an explicit stack: a split prints its "<" line, its left subtree, its
  // ">=" line, then its right subtree.
  struct Task {
    Index node, depth;
    bool second_test;  // print the ">=" line of `node`
  };
  std::vector<Task> stack{{0, 0, false}};
  while (!stack.empty()) {
    const Task task = stack.back();
    stack.pop_back();
    const Index t = task.node;
    const auto u = static_cast<std::size_t>(t);
    if (tree.is_leaf(t)) {
      out += indent(task.depth) + leaf(t) + "\n";
      continue;
    }
    const std::string test = feature_name(o, tree.feature[u]) + (task.second_test ? " >= " : " < ") +
                             number(tree.threshold[u], o.precision);
    out += indent(task.depth) + test + "\n";
    if (task.second_test) {
      stack.push_back({tree.right[u], task.depth + 1, false});
    } else {
      stack.push_back({t, task.depth, true});
      stack.push_back({tree.left[u], task.depth + 1, false});
    }
  }
  return out;
}

std::string export_dot(const Tree& tree, Index num_features, bool classifier, std::string_view impurity_name,
                       const TreeExportOptions& o) {
  check_names(o, num_features, classifier ? tree.outputs : 0, "export_dot");
  std::string out = "digraph Tree {\nnode [shape=box, fontname=\"helvetica\"] ;\nedge [fontname=\"helvetica\"] ;\n";
  for (Index t = 0; t < tree.num_nodes(); ++t) {
    const auto u = static_cast<std::size_t>(t);
    std::string label;
    if (!tree.is_leaf(t)) {
      label += escape(feature_name(o, tree.feature[u])) + " < " + number(tree.threshold[u], o.precision) + "\\n";
    }
    label += fmt::format("{} = {}\\nsamples = {}\\nvalue = {}", escape(impurity_name),
                         number(tree.impurity[u], o.precision), tree.num_samples[u], values(tree, t, o.precision));
    if (classifier) label += "\\nclass = " + escape(class_name(o, majority_class(tree, t)));
    out += fmt::format("{} [label=\"{}\"] ;\n", t, label);
  }
  for (Index t = 0; t < tree.num_nodes(); ++t) {
    if (tree.is_leaf(t)) continue;
    const auto u = static_cast<std::size_t>(t);
    const std::string left_attr = t == 0 ? " [labeldistance=2.5, labelangle=45, headlabel=\"True\"]" : "";
    const std::string right_attr = t == 0 ? " [labeldistance=2.5, labelangle=-45, headlabel=\"False\"]" : "";
    out += fmt::format("{} -> {}{} ;\n{} -> {}{} ;\n", t, tree.left[u], left_attr, t, tree.right[u], right_attr);
  }
  return out + "}\n";
}

}  // namespace dagml::tree
