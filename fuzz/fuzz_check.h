// What every fuzz harness shares: a check that aborts with a message (libFuzzer then saves the
// input as a crash), and the oracle that dagml::Error is the only exception a reader may throw.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "graph/error.h"
#include "graph/tensor.h"

namespace dagml::fuzz {

[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what);
  std::abort();
}

inline void check(bool holds, const char* what) {
  if (!holds) fail(what);
}

// Runs f; a dagml::Error is an accepted answer to bad input and returns false, except an
// InternalError (a broken invariant: the input got past a check that should have refused it),
// which is a finding. Any other exception escapes, and libFuzzer reports it as a crash
// (std::terminate).
template <class F>
bool accepts(F&& f) {
  try {
    f();
    return true;
  } catch (const InternalError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    fail("an InternalError");
  } catch (const Error&) {
    return false;
  }
}

// Bitwise equality of two matrices, any NaN equal to any NaN (the text formats keep no payload).
inline bool same_values(const Tensor& a, const Tensor& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return false;
  for (Index k = 0; k < a.size(); ++k) {
    const double x = a.data()[k], y = b.data()[k];
    if (!(x != x && y != y) && std::memcmp(&x, &y, sizeof x) != 0) return false;
  }
  return true;
}

}  // namespace dagml::fuzz
