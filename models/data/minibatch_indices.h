// Minibatch index iteration with seeded per-epoch shuffling.
//
//   MinibatchIndices batches(X.rows(), {.batch_size = 64, .seed = 1});
//   for (Index epoch = 0; epoch < epochs; ++epoch) {
//     batches.set_epoch(epoch);
//     for (std::span<const Index> rows : batches) step(take_rows(X, rows), take_rows(y, rows));
//   }
#pragma once

#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

#include "graph/tensor.h"

namespace dagml {

struct MinibatchOptions {
  Index batch_size = 32;   // ≥ 1
  bool shuffle = true;     // false: every epoch visits 0..n−1 in order
  std::uint64_t seed = 0;  // epoch e visits epoch_order(n, seed, e, shuffle) (graph/random.h)
  bool drop_last = false;  // drop a final batch smaller than batch_size
};

// The order of one epoch over n samples, cut into consecutive batches of batch_size (the last
// one smaller unless dropped). The order of epoch e depends only on (n, seed, e), so an epoch
// can be replayed, and a run resumed, without replaying the ones before it.
class MinibatchIndices {
 public:
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = std::span<const Index>;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = std::span<const Index>;

    Iterator() = default;
    Iterator(const MinibatchIndices* owner, Index b) : owner_(owner), b_(b) {}
    std::span<const Index> operator*() const { return owner_->batch(b_); }
    Iterator& operator++() {
      ++b_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator old = *this;
      ++b_;
      return old;
    }
    friend bool operator==(const Iterator& a, const Iterator& b) { return a.b_ == b.b_; }

   private:
    const MinibatchIndices* owner_ = nullptr;
    Index b_ = 0;
  };

  // Starts at epoch 0. Throws ValueError if n < 1 or batch_size < 1, or if drop_last leaves no
  // batch (n < batch_size).
  MinibatchIndices(Index n, const MinibatchOptions& options = {});

  // Sets the order to that of epoch `epoch` ≥ 0 (throws ValueError if negative).
  void set_epoch(Index epoch);
  Index epoch() const { return epoch_; }

  Index num_samples() const { return static_cast<Index>(order_.size()); }
  Index num_batches() const { return num_batches_; }
  // Batch b (0 ≤ b < num_batches()): a view into order(), valid until the next set_epoch.
  // Throws ValueError for any other b.
  std::span<const Index> batch(Index b) const;
  // This epoch's order of all n samples.
  const std::vector<Index>& order() const { return order_; }

  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, num_batches_}; }

 private:
  MinibatchOptions options_;
  std::vector<Index> order_;
  Index num_batches_ = 0;
  Index epoch_ = 0;
};

}  // namespace dagml
