#include "models/classify/one_vs_rest.h"

#include <fmt/format.h>

#include "graph/error.h"

namespace dagml {

Vector binary_scores(const Tensor& scores) {
  if (scores.cols() != 1)
    throw ShapeError(fmt::format("binary_scores: expected the n×1 scores of a binary classifier, found {}×{}",
                                 scores.rows(), scores.cols()));
  return scores.col(0);
}

}  // namespace dagml
