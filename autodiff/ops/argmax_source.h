// Internal: ops that route their gradient through saved argmax positions (max, max_pool2d), and
// the two linear ops that do the routing. Both routing ops are each other's adjoint.
#pragma once

#include <vector>

#include "graph/graph.h"

namespace dagml::detail {

class ArgmaxSource : public Op {
 public:
  // For each output entry (row-major), the flat row-major index of the input entry it took.
  const std::vector<Index>& argmax() const { return argmax_; }

 protected:
  std::vector<Index> argmax_;
};

// y = zeros shaped like `like`, with y.flat[argmax[j]] += g.flat[j] (source: an ArgmaxSource node).
Var argmax_scatter(Var like, Var source, Var g);
// y.flat[j] = h.flat[argmax[j]], shaped like the source node's output.
Var argmax_gather(Var h, Var source);
// The same for each row of a q-row node (the batched layout, one entry per row per position):
// g is q × size(source), the result q × size(like) (like: the source's input, or any node of
// its size); h is q × size(source's input), the result q × size(source).
Var argmax_scatter_rows(Var like, Var source, Var g);
Var argmax_gather_rows(Var h, Var source);

}  // namespace dagml::detail
