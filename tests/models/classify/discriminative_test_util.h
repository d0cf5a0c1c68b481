// Small helpers for the discriminative-classifier tests: literal matrices and vectors.
#pragma once

#include <initializer_list>

#include "graph/tensor.h"

namespace dagml::test {

inline Tensor rows(std::initializer_list<std::initializer_list<double>> r) {
  Tensor t(static_cast<Index>(r.size()), static_cast<Index>(r.begin()->size()));
  Index i = 0;
  for (const auto& row : r) {
    Index j = 0;
    for (double v : row) t(i, j++) = v;
    ++i;
  }
  return t;
}

inline Vector vec(std::initializer_list<double> v) {
  Vector out(static_cast<Index>(v.size()));
  Index i = 0;
  for (double x : v) out(i++) = x;
  return out;
}

}  // namespace dagml::test
