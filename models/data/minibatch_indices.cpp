#include "models/data/minibatch_indices.h"

#include <algorithm>

#include "graph/error.h"
#include "graph/random.h"

namespace dagml {

MinibatchIndices::MinibatchIndices(Index n, const MinibatchOptions& options) : options_(options) {
  if (n < 1) throw ValueError(fmt::format("MinibatchIndices: expected n ≥ 1 samples, found {}", n));
  const Index bs = options.batch_size;
  if (bs < 1)
    throw ValueError(fmt::format("MinibatchIndices: expected batch_size ≥ 1, found {}", bs));
  num_batches_ = options.drop_last ? n / bs : (n + bs - 1) / bs;
  if (num_batches_ == 0) {
    throw ValueError(fmt::format(
        "MinibatchIndices: drop_last with batch_size {} > n = {} leaves no batch", bs, n));
  }
  order_ = iota_indices(n);
  set_epoch(0);
}

void MinibatchIndices::set_epoch(Index epoch) {
  if (epoch < 0)
    throw ValueError(
        fmt::format("MinibatchIndices::set_epoch: expected epoch ≥ 0, found {}", epoch));
  epoch_ = epoch;
  order_ = epoch_order(num_samples(), options_.seed, epoch, options_.shuffle);
}

std::span<const Index> MinibatchIndices::batch(Index b) const {
  if (b < 0 || b >= num_batches_) {
    throw ValueError(fmt::format(
        "MinibatchIndices::batch: expected a batch index in [0, {}), found {}", num_batches_, b));
  }
  const Index bs = options_.batch_size;
  const Index begin = b * bs;
  const Index size = std::min(bs, num_samples() - begin);
  return {order_.data() + begin, static_cast<std::size_t>(size)};
}

}  // namespace dagml
