#include "models/data/split.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>

#include "graph/error.h"
#include "graph/random.h"
#include "models/data/validate.h"

namespace dagml {
namespace {

// Stratified test counts: class c gets ⌊f·n_c⌋, then the classes with the largest fractional
// parts f·n_c − ⌊f·n_c⌋ (ties: lower class first) get one more until the total is n_test.
std::vector<Index> stratified_test_counts(const std::vector<Index>& class_sizes, double f,
                                          Index n_test) {
  const std::size_t k = class_sizes.size();
  std::vector<Index> counts(k);
  std::vector<std::pair<double, std::size_t>> remainders;
  Index total = 0;
  for (std::size_t c = 0; c < k; ++c) {
    const double exact = f * static_cast<double>(class_sizes[c]);
    counts[c] = static_cast<Index>(std::floor(exact));
    total += counts[c];
    remainders.emplace_back(exact - std::floor(exact), c);
  }
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t r = 0; total < n_test && r < k; ++r) {
    const std::size_t c = remainders[r].second;
    if (counts[c] < class_sizes[c]) {
      ++counts[c];
      ++total;
    }
  }
  DAGML_CHECK(total == n_test, "stratified counts sum to {}, expected {}", total, n_test);
  return counts;
}

}  // namespace

SplitIndices train_test_indices(Index n, const SplitOptions& options, const Vector* labels) {
  const double f = options.test_fraction;
  if (!(f > 0 && f < 1)) {
    throw ValueError(fmt::format("train_test_split: expected 0 < test_fraction < 1, found {}", f));
  }
  // ⌈f·n⌉, except that a product within rounding error of an integer is that integer
  // (0.3 · 10 = 3.0000000000000004 gives 3 test rows, not 4).
  const double exact = f * static_cast<double>(n);
  const double nearest = std::round(exact);
  const auto n_test = static_cast<Index>(
      std::abs(exact - nearest) <= 1e-9 * std::max(1.0, exact) ? nearest : std::ceil(exact));
  if (n_test < 1 || n_test >= n) {
    throw ValueError(
        fmt::format("train_test_split: expected at least one train and one test row, "
                    "found {} rows of which {} would be test rows",
                    n, n_test));
  }
  std::mt19937_64 rng(options.seed);
  SplitIndices out;
  if (!options.stratify) {
    std::vector<Index> order = iota_indices(n);
    if (options.shuffle) shuffle_indices(order, rng);
    out.train.assign(order.begin(), order.end() - n_test);
    out.test.assign(order.end() - n_test, order.end());
    return out;
  }

  if (labels == nullptr)
    throw ValueError("train_test_split: stratify needs class labels, found none");
  if (!options.shuffle) throw ValueError("train_test_split: stratify needs shuffle = true");
  if (labels->size() != n) {
    throw ShapeError(
        fmt::format("train_test_split: expected {} labels, found {}", n, labels->size()));
  }
  const Index k = check_labels(*labels, "train_test_split");
  std::vector<std::vector<Index>> members(static_cast<std::size_t>(k));
  for (Index i = 0; i < n; ++i) members[static_cast<std::size_t>((*labels)(i))].push_back(i);
  std::vector<Index> sizes;
  for (const auto& m : members) sizes.push_back(static_cast<Index>(m.size()));
  const std::vector<Index> counts = stratified_test_counts(sizes, f, n_test);
  for (std::size_t c = 0; c < members.size(); ++c) {
    shuffle_indices(members[c], rng);
    const auto split = members[c].begin() + counts[c];
    out.test.insert(out.test.end(), members[c].begin(), split);
    out.train.insert(out.train.end(), split, members[c].end());
  }
  // Mix the classes so the order carries no class information.
  shuffle_indices(out.train, rng);
  shuffle_indices(out.test, rng);
  return out;
}

TrainTestSplit train_test_split(const Tensor& X, const Vector& y, const SplitOptions& options) {
  check_same_rows(X, y, "train_test_split");
  const SplitIndices s = train_test_indices(X.rows(), options, &y);
  return {take_rows(X, s.train), take_rows(X, s.test), take_rows(y, s.train), take_rows(y, s.test)};
}

namespace {
void check_rows(std::span<const Index> rows, Index n) {
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r] < 0 || rows[r] >= n) {
      throw ShapeError(fmt::format(
          "take_rows: expected row indices in [0, {}), found {} at position {}", n, rows[r], r));
    }
  }
}
}  // namespace

Tensor take_rows(const Tensor& X, std::span<const Index> rows) {
  check_rows(rows, X.rows());
  Tensor out(static_cast<Index>(rows.size()), X.cols());
  for (std::size_t r = 0; r < rows.size(); ++r) out.row(static_cast<Index>(r)) = X.row(rows[r]);
  return out;
}

Vector take_rows(const Vector& y, std::span<const Index> rows) {
  check_rows(rows, y.size());
  Vector out(static_cast<Index>(rows.size()));
  for (std::size_t r = 0; r < rows.size(); ++r) out(static_cast<Index>(r)) = y(rows[r]);
  return out;
}

}  // namespace dagml
