#include "models/sequence/hmm_forward_graph.h"

#include <fmt/format.h>

#include "autodiff/elementwise.h"
#include "autodiff/linalg.h"
#include "autodiff/reduce.h"
#include "autodiff/structure.h"
#include "graph/error.h"

namespace dagml {

Var hmm_forward_log_likelihood(Var log_emission, Var log_start, Var log_transition) {
  const Index K = log_transition.rows();
  if (log_transition.cols() != K || log_start.rows() != 1 || log_start.cols() != K || log_emission.cols() != K)
    throw ShapeError(fmt::format("hmm_forward_log_likelihood: expected log_emission T×K, log_start 1×K and "
                                 "log_transition K×K, found {}×{}, {}×{} and {}×{}",
                                 log_emission.rows(), log_emission.cols(), log_start.rows(), log_start.cols(),
                                 log_transition.rows(), log_transition.cols()));
  Var log_alpha = log_start;  // 1×K: log α_{n−1}(j) in column j
  for (Index n = 0; n < log_emission.rows(); ++n) {
    // (k, j) ↦ log Π(k, j) + log α_{n−1}(j), reduced over j in each row k.
    const Var moves = row_logsumexp(log_transition + log_alpha);
    log_alpha = transpose(moves) + slice_rows(log_emission, n, 1);
  }
  return logsumexp(log_alpha);
}

}  // namespace dagml
