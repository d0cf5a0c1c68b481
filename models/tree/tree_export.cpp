#include "models/tree/tree_export.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <type_traits>

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

// The text of any flat tree (Tree, GradientTree), one line per node in pre-order, with an explicit
// stack: a split prints its left test, its left subtree, its right test, then its right subtree.
// leaf(t) is a leaf's line, test(t, right) a split's test for its left (right = false) or right
// side.
template <class FlatTree, class Leaf, class Test>
std::string pre_order_text(const FlatTree& tree, Leaf&& leaf, Test&& test) {
  std::string out;
  auto indent = [](Index depth) {
    std::string s;
    for (Index i = 0; i < depth; ++i) s += "|   ";
    return s + "|--- ";
  };
  struct Task {
    Index node, depth;
    bool right_test;  // print the right-side test of `node`
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
    out += indent(task.depth) + test(t, task.right_test) + "\n";
    if (task.right_test) {
      stack.push_back({tree.right[u], task.depth + 1, false});
    } else {
      stack.push_back({t, task.depth, true});
      stack.push_back({tree.left[u], task.depth + 1, false});
    }
  }
  return out;
}

// The DOT edges of any flat tree: True (left) and False labels on the root's.
template <class FlatTree>
std::string dot_edges(const FlatTree& tree) {
  std::string out;
  for (Index t = 0; t < tree.num_nodes(); ++t) {
    if (tree.is_leaf(t)) continue;
    const auto u = static_cast<std::size_t>(t);
    const std::string left_attr = t == 0 ? " [labeldistance=2.5, labelangle=45, headlabel=\"True\"]" : "";
    const std::string right_attr = t == 0 ? " [labeldistance=2.5, labelangle=-45, headlabel=\"False\"]" : "";
    out += fmt::format("{} -> {}{} ;\n{} -> {}{} ;\n", t, tree.left[u], left_attr, t, tree.right[u], right_attr);
  }
  return out;
}

constexpr const char* kDotHeader =
    "digraph Tree {\nnode [shape=box, fontname=\"helvetica\"] ;\nedge [fontname=\"helvetica\"] ;\n";

// "x < θ" (left) or "x >= θ" (right), with " or missing" on the side NaN goes to when show_missing;
// at a categorical split "x in {a, b, …}" (Note [Categorical splits]).
template <class AnyTree>
std::string test_text(const AnyTree& tree, Index t, bool right, const TreeExportOptions& o, bool show_missing) {
  const auto u = static_cast<std::size_t>(t);
  const bool missing_here = show_missing && (tree.missing_left[u] != 0) != right;
  std::string test = feature_name(o, tree.feature[u]);
  if constexpr (std::is_same_v<AnyTree, GradientTree>) {
    if (tree.category_set[u] >= 0) {
      std::vector<unsigned> categories;
      for (unsigned c = 0; c < kMissingBin; ++c)
        if (tree.in_category_set(tree.category_set[u], right, c)) categories.push_back(c);
      return test + fmt::format(" in {{{}}}", fmt::join(categories, ", ")) + (missing_here ? " or missing" : "");
    }
  }
  return test + (right ? " >= " : " < ") + number(tree.threshold[u], o.precision) + (missing_here ? " or missing" : "");
}

}  // namespace

std::string export_text(const Tree& tree, Index num_features, bool classifier, const TreeExportOptions& o,
                        bool allow_missing) {
  check_names(o, num_features, classifier ? tree.outputs : 0, "export_text");
  return pre_order_text(
      tree,
      [&](Index t) {
        return classifier ? "class: " + class_name(o, majority_class(tree, t)) : "value: " + values(tree, t, o.precision);
      },
      [&](Index t, bool right) { return test_text(tree, t, right, o, allow_missing); });
}

std::string export_text(const GradientTree& tree, Index num_features, const TreeExportOptions& o) {
  check_names(o, num_features, 0, "export_text");
  return pre_order_text(
      tree, [&](Index t) { return "value: " + number(tree.value[static_cast<std::size_t>(t)], o.precision); },
      [&](Index t, bool right) { return test_text(tree, t, right, o, true); });
}

std::string export_dot(const GradientTree& tree, Index num_features, const TreeExportOptions& o) {
  check_names(o, num_features, 0, "export_dot");
  std::string out = kDotHeader;
  for (Index t = 0; t < tree.num_nodes(); ++t) {
    const auto u = static_cast<std::size_t>(t);
    std::string label;
    if (!tree.is_leaf(t))
      label += escape(test_text(tree, t, false, o, true)) + "\\ngain = " + number(tree.gain[u], o.precision) + "\\n";
    label += fmt::format("samples = {}\\nvalue = {}", tree.num_samples[u], number(tree.value[u], o.precision));
    out += fmt::format("{} [label=\"{}\"] ;\n", t, label);
  }
  return out + dot_edges(tree) + "}\n";
}

std::string export_dot(const Tree& tree, Index num_features, bool classifier, std::string_view impurity_name,
                       const TreeExportOptions& o, bool allow_missing) {
  check_names(o, num_features, classifier ? tree.outputs : 0, "export_dot");
  std::string out = kDotHeader;
  for (Index t = 0; t < tree.num_nodes(); ++t) {
    const auto u = static_cast<std::size_t>(t);
    std::string label;
    if (!tree.is_leaf(t)) {
      label += escape(test_text(tree, t, false, o, allow_missing)) + "\\n";
    }
    label += fmt::format("{} = {}\\nsamples = {}\\nvalue = {}", escape(impurity_name),
                         number(tree.impurity[u], o.precision), tree.num_samples[u], values(tree, t, o.precision));
    if (classifier) label += "\\nclass = " + escape(class_name(o, majority_class(tree, t)));
    out += fmt::format("{} [label=\"{}\"] ;\n", t, label);
  }
  return out + dot_edges(tree) + "}\n";
}

}  // namespace dagml::tree
