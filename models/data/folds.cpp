#include "models/data/folds.h"

#include <random>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"

namespace dagml {
namespace {

void check_k(Index k, Index n, const char* who) {
  if (k < 2 || k > n) {
    throw ValueError(fmt::format("{}: expected 2 ≤ k ≤ n = {}, found k = {}", who, n, k));
  }
}

std::vector<Index> kfold_assignment(Index n, const KFoldOptions& o) {
  check_k(o.k, n, "KFold");
  const std::vector<Index> order = o.shuffle ? random_permutation(n, o.seed) : iota_indices(n);
  std::vector<Index> fold_of(static_cast<std::size_t>(n));
  const Index base = n / o.k, extra = n % o.k;
  std::size_t pos = 0;
  for (Index f = 0; f < o.k; ++f) {
    const Index size = base + (f < extra ? 1 : 0);
    for (Index s = 0; s < size; ++s) fold_of[static_cast<std::size_t>(order[pos++])] = f;
  }
  return fold_of;
}

std::vector<Index> stratified_assignment(const Vector& labels, const KFoldOptions& o) {
  const Index n = labels.size();
  check_k(o.k, n, "StratifiedKFold");
  const Index num_classes = check_labels(labels, "StratifiedKFold");
  std::vector<std::vector<Index>> members(static_cast<std::size_t>(num_classes));
  for (Index i = 0; i < n; ++i) members[static_cast<std::size_t>(labels(i))].push_back(i);
  std::mt19937_64 rng(o.seed);
  std::vector<Index> fold_of(static_cast<std::size_t>(n));
  Index j = 0;  // position in the class-by-class listing
  for (auto& m : members) {
    if (o.shuffle) shuffle_indices(m, rng);
    for (const Index i : m) fold_of[static_cast<std::size_t>(i)] = j++ % o.k;
  }
  return fold_of;
}

}  // namespace

Fold Folds::fold(Index i) const {
  if (i < 0 || i >= k_) {
    throw ValueError(fmt::format("Folds::fold: expected a fold index in [0, {}), found {}", k_, i));
  }
  Fold f;
  for (std::size_t s = 0; s < fold_of_.size(); ++s) {
    (fold_of_[s] == i ? f.test : f.train).push_back(static_cast<Index>(s));
  }
  return f;
}

KFold::KFold(Index n, const KFoldOptions& options)
    : Folds(kfold_assignment(n, options), options.k) {}

StratifiedKFold::StratifiedKFold(const Vector& labels, const KFoldOptions& options)
    : Folds(stratified_assignment(labels, options), options.k) {}

}  // namespace dagml
