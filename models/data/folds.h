// Cross-validation folds: k-fold and stratified k-fold partitions of the sample indices.
//
//   for (const Fold& fold : StratifiedKFold(y, {.k = 5, .shuffle = true, .seed = 7})) {
//     model.fit(take_rows(X, fold.train), take_rows(y, fold.train));
//     score += model.score(take_rows(X, fold.test), take_rows(y, fold.test));
//   }
#pragma once

#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "graph/tensor.h"

namespace dagml {

struct Fold {
  std::vector<Index> train;  // every sample not in `test`, ascending
  std::vector<Index> test;   // this fold's samples, ascending
};

struct KFoldOptions {
  Index k = 5;             // number of folds, 2 ≤ k ≤ n
  bool shuffle = false;    // false: folds are contiguous runs in sample order
  std::uint64_t seed = 0;  // used only when shuffling; same seed, same folds on every platform
};

// A partition of samples 0..n−1 into k test folds. Iterating yields fold 0, 1, …, k−1 as
// (train, test) index pairs; every sample is in exactly one test fold.
class Folds {
 public:
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Fold;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Fold;

    Iterator() = default;
    Iterator(const Folds* folds, Index i) : folds_(folds), i_(i) {}
    Fold operator*() const { return folds_->fold(i_); }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator old = *this;
      ++i_;
      return old;
    }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.i_ == b.i_; }

   private:
    const Folds* folds_ = nullptr;
    Index i_ = 0;
  };

  Index num_folds() const { return k_; }
  Index num_samples() const { return static_cast<Index>(fold_of_.size()); }
  // Fold i (0 ≤ i < k). Throws ValueError for any other i.
  Fold fold(Index i) const;
  // The test fold of each sample (length n).
  const std::vector<Index>& assignment() const { return fold_of_; }

  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, k_}; }

 protected:
  Folds(std::vector<Index> fold_of, Index k) : fold_of_(std::move(fold_of)), k_(k) {}

 private:
  std::vector<Index> fold_of_;
  Index k_;
};

// K-fold: the samples (in order, or permuted by the seed) are cut into k contiguous runs; the
// first n mod k folds have ⌊n/k⌋ + 1 samples and the others ⌊n/k⌋. Throws ValueError unless
// 2 ≤ k ≤ n.
class KFold : public Folds {
 public:
  KFold(Index n, const KFoldOptions& options = {});
};

// Stratified k-fold: the samples are listed class by class (0, 1, …, K−1; within a class in
// order, or permuted by the seed when shuffling) and dealt to folds 0, 1, …, k−1, 0, 1, … in
// turn. Each fold then holds ⌊n_c/k⌋ or ⌈n_c/k⌉ samples of every class c (so class proportions
// are kept up to one sample) and fold sizes differ by at most one. A class with fewer than k
// samples is missing from some test folds. Throws ValueError unless 2 ≤ k ≤ n and the labels
// are integers 0..K−1.
class StratifiedKFold : public Folds {
 public:
  StratifiedKFold(const Vector& labels, const KFoldOptions& options = {});
};

}  // namespace dagml
