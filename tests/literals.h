// Literal tensors and special values for the tests: rows({{1, 2}, {3, 4}}) is a 2×2 tensor,
// column({1, 2}) a 2×1 tensor, vec({1, 2}) a vector.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <limits>

#include "graph/tensor.h"

namespace dagml::testing {

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A tensor from its rows; every row must have the first row's length.
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

// An n×1 tensor: one column, one sample per row.
inline Tensor column(std::initializer_list<double> v) {
  Tensor t(static_cast<Index>(v.size()), 1);
  Index i = 0;
  for (double x : v) t(i++, 0) = x;
  return t;
}

inline Vector vec(std::initializer_list<double> v) {
  Vector out(static_cast<Index>(v.size()));
  Index i = 0;
  for (double x : v) out(i++) = x;
  return out;
}

// A recorded reference array (a generated header's `double v[N]`) read row after row as an
// r×(N/r) tensor.
template <std::size_t N>
Tensor reference_rows(const double (&v)[N], Index r) {
  return Eigen::Map<const Tensor>(v, r, static_cast<Index>(N) / r);
}

}  // namespace dagml::testing
