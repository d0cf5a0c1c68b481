// A first dagml program: build a small model as a graph, look at its values and gradients, take
// a few gradient steps by replaying the graph, and write the graph as Graphviz DOT.
//
//   ./build/examples/first_graph [out.dot]
//
// The model is logistic regression on four points: p = σ(X w + b), loss = mean BCE(p, y).
#include <fmt/format.h>

#include "dagml/dagml.h"

using namespace dagml;

int main(int argc, char** argv) {
  const std::string dot_path = argc > 1 ? argv[1] : "first_graph.dot";
  Graph g;
  const Var X = g.input("X", (Tensor(4, 2) << 0.0, 1.0, 1.0, 0.5, 2.0, 2.5, 3.0, 3.0).finished());
  const Var y = g.input("y", (Tensor(4, 1) << 0, 0, 1, 1).finished());
  const Var w = g.parameter("w", Tensor::Zero(2, 1));
  const Var b = g.parameter("b", Tensor::Zero(1, 1));
  const Var logits = (matmul(X, w) + b).named("logits");
  const Var loss = binary_cross_entropy_with_logits(logits, y).named("loss");
  const std::vector<Var> grads = gradients(loss, {w, b});

  // Building is eager: every node already holds its value.
  fmt::print("graph: {} nodes (forward and backward)\n", g.size());
  fmt::print("loss at w = 0: {:.6f}  (= log 2 = {:.6f})\n", loss.item(), std::log(2.0));
  fmt::print("dloss/dw = [{:.6f}, {:.6f}], dloss/db = {:.6f}\n", grads[0].value()(0, 0), grads[0].value()(1, 0),
             grads[1].item());

  // Training replays the same graph: no rebuild, no allocation per step.
  Executor step(g, {loss, grads[0], grads[1]});
  for (int t = 1; t <= 200; ++t) {
    g.parameter_value(w) -= 0.5 * grads[0].value();
    g.parameter_value(b) -= 0.5 * grads[1].value();
    step.run();
    if (t % 50 == 0) fmt::print("step {:3d}: loss {:.6f}\n", t, loss.item());
  }
  fmt::print("w = [{:.4f}, {:.4f}], b = {:.4f}\n", w.value()(0, 0), w.value()(1, 0), b.item());

  write_text_file(dot_path, to_dot(g, {.show_values = true, .gradients = {{w, grads[0]}, {b, grads[1]}}, .outputs = {loss}}));
  fmt::print("wrote {} (render with: dot -Tpng {} -o graph.png)\n", dot_path, dot_path);
  return 0;
}
