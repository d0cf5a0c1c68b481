#include "models/select/permutation_importance.h"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"

namespace dagml {

PermutationImportance permutation_importance(const std::function<Scalar(const Tensor&)>& score, const Tensor& X,
                                             const PermutationImportanceOptions& options) {
  const char* who = "permutation_importance";
  if (options.num_repeats < 1)
    throw ValueError(fmt::format("{}: expected num_repeats ≥ 1, found {}", who, options.num_repeats));
  check_not_empty(X, who);
  check_finite(X, who);
  const Index n = X.rows(), d = X.cols(), R = options.num_repeats;
  PermutationImportance out;
  out.baseline = score(X);
  out.importances.resize(d, R);
  tbb::parallel_for(tbb::blocked_range<Index>(0, d, 1), [&](const tbb::blocked_range<Index>& range) {
    for (Index j = range.begin(); j != range.end(); ++j) {
      Tensor Xp = X;
      const std::uint64_t feature_seed = derive_seed(options.seed, static_cast<std::uint64_t>(j));
      for (Index r = 0; r < R; ++r) {
        const std::vector<Index> pi = random_permutation(n, derive_seed(feature_seed, static_cast<std::uint64_t>(r)));
        for (Index i = 0; i < n; ++i) Xp(i, j) = X(pi[static_cast<std::size_t>(i)], j);
        out.importances(j, r) = out.baseline - score(Xp);
      }
    }
  });
  out.mean = out.importances.rowwise().mean();
  out.std = ((out.importances.colwise() - out.mean).array().square().rowwise().sum() / static_cast<Scalar>(R)).sqrt();
  return out;
}

}  // namespace dagml
