#include "optim/adam.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>

#include "graph/error.h"

namespace dagml {
namespace {

void check_beta(Scalar beta, const char* field) {
  if (!(beta > 0 && beta < 1)) throw ValueError(fmt::format("Adam: {} must be in (0, 1), got {}", field, beta));
}

}  // namespace

Adam::Adam(AdamOptions options) : options_(options) {
  check_beta(options.beta1, "beta1");
  check_beta(options.beta2, "beta2");
  if (!(options.epsilon > 0) || !std::isfinite(options.epsilon))
    throw ValueError(fmt::format("Adam: epsilon must be finite and > 0, got {}", options.epsilon));
}

// The step as x −= (α/c₁)·Δ / (√V·(1/√c₂) + ε), c_k = 1 − β_kᵗ: the same quantity as
// α·Δ̃/(√Ṽ + ε) with one root and one division per entry (PyTorch arranges it so too); the entries
// go in blocks small enough that Δ, V, g and x are each read and written once from L1, the
// blocks on the threads (entry by entry, so the bits do not depend on them).
void Adam::update(Eigen::Ref<Vector> x, const Eigen::Ref<const Vector>& g, Index t) {
  const Scalar b1 = options_.beta1, b2 = options_.beta2, epsilon = options_.epsilon;
  const Scalar c1 = 1 - std::pow(b1, static_cast<Scalar>(t));  // bias corrections
  const Scalar c2 = 1 - std::pow(b2, static_cast<Scalar>(t));
  const Scalar step = options_.schedule.at(t) / c1, inverse_root_c2 = 1 / std::sqrt(c2);
  constexpr Index kBlock = 256, kBlocksPerTask = 32;
  const Index blocks = (x.size() + kBlock - 1) / kBlock;
  tbb::parallel_for(tbb::blocked_range<Index>(0, blocks, kBlocksPerTask), [&](const tbb::blocked_range<Index>& r) {
    for (Index block = r.begin(); block != r.end(); ++block) {
      const Index begin = block * kBlock, n = std::min(kBlock, x.size() - begin);
      const auto gradient = g.segment(begin, n).array();
      auto m = m_.segment(begin, n).array();
      auto v = v_.segment(begin, n).array();
      m = b1 * m + (1 - b1) * gradient;
      v = b2 * v + (1 - b2) * gradient.square();
      x.segment(begin, n).array() -= step * m / (v.sqrt() * inverse_root_c2 + epsilon);
    }
  });
}

}  // namespace dagml
