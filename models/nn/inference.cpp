#include "models/nn/inference.h"

#include <fmt/format.h>

#include "graph/error.h"
#include "graph/executor.h"

namespace dagml::nn {

Tensor forward_batches(const Layer& network, const Tensor& X, Index batch_size) {
  if (X.rows() < 1 || X.cols() < 1) throw ValueError("forward_batches: X is empty");
  if (batch_size < 1) throw ValueError(fmt::format("forward_batches: batch_size must be >= 1, found {}", batch_size));
  const Index first = std::min(batch_size, X.rows());
  Graph g;
  BuildContext ctx(g, Mode::Eval);
  const Var x = g.input("x", X.topRows(first));
  const Var y = network.build(x, ctx);
  Tensor out(X.rows(), y.cols());
  out.topRows(first) = y.value();
  Executor ex(g, {y});
  for (Index begin = first; begin < X.rows(); begin += batch_size) {
    const Index m = std::min(batch_size, X.rows() - begin);
    ex.feed(x, X.middleRows(begin, m));
    ex.run();
    out.middleRows(begin, m) = y.value();
  }
  return out;
}

Vector flatten_parameters(const std::vector<Parameter*>& parameters) {
  Index total = 0;
  for (const Parameter* p : parameters) total += p->value.size();
  Vector theta(total);
  Index offset = 0;
  for (const Parameter* p : parameters) {
    theta.segment(offset, p->value.size()) = Eigen::Map<const Vector>(p->value.data(), p->value.size());
    offset += p->value.size();
  }
  return theta;
}

void unflatten_parameters(const Vector& theta, const std::vector<Parameter*>& parameters) {
  Index total = 0;
  for (const Parameter* p : parameters) total += p->value.size();
  if (theta.size() != total)
    throw ShapeError(fmt::format("unflatten_parameters: expected {} values, found {}", total, theta.size()));
  Index offset = 0;
  for (Parameter* p : parameters) {
    Eigen::Map<Vector>(p->value.data(), p->value.size()) = theta.segment(offset, p->value.size());
    offset += p->value.size();
  }
}

}  // namespace dagml::nn
