// The distance of a computed matrix from a recorded reference on the reference's own scale, for
// the decomposition tests whose references mix columns of very different sizes (wine).
#pragma once

#include <gtest/gtest.h>

#include <limits>

#include "graph/tensor.h"

namespace dagml::testing {

// max |a − b| / max |b| (ADD_FAILURE when the shapes differ).
inline Scalar max_relative_gap(const Tensor& a, const Tensor& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) {
    ADD_FAILURE() << "shapes differ: " << a.rows() << "×" << a.cols() << " and " << b.rows() << "×" << b.cols();
    return std::numeric_limits<Scalar>::infinity();
  }
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

}  // namespace dagml::testing
