#include "graph/communicator.h"

#include <fmt/format.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>
#include <tuple>
#include <vector>

namespace dagml {

RankFailedError::RankFailedError(int rank, const std::string& what)
    : Error(fmt::format("rank {} failed: {}", rank, what)), rank_(rank), reason_(what) {}

void Communicator::allgather(std::span<const double> local, std::span<double> gathered) {
  const std::vector<Index> counts(static_cast<std::size_t>(size()), static_cast<Index>(local.size()));
  allgather(local, counts, gathered);
}

void Communicator::check_root(int root, const char* who) const {
  if (root < 0 || root >= size())
    throw ValueError(fmt::format("Communicator::{}: expected a root rank in [0, {}), found {}", who, size(), root));
}

void Communicator::check_allgather(std::span<const double> local, std::span<const Index> counts,
                                   std::span<double> gathered) const {
  if (counts.size() != static_cast<std::size_t>(size()))
    throw ValueError(fmt::format("Communicator::allgather: expected {} counts (one per rank), found {}", size(),
                                 counts.size()));
  if (std::any_of(counts.begin(), counts.end(), [](Index c) { return c < 0; }))
    throw ValueError("Communicator::allgather: expected counts ≥ 0, found a negative one");
  if (static_cast<Index>(local.size()) != counts[static_cast<std::size_t>(rank())])
    throw ValueError(fmt::format("Communicator::allgather: rank {} passes {} values, its count says {}", rank(),
                                 local.size(), counts[static_cast<std::size_t>(rank())]));
  const Index total = std::accumulate(counts.begin(), counts.end(), Index{0});
  if (static_cast<Index>(gathered.size()) != total)
    throw ValueError(fmt::format("Communicator::allgather: expected room for {} gathered values, found {}", total,
                                 gathered.size()));
}

void Communicator::check_alltoall(std::span<const double> send, std::span<const Index> send_counts,
                                  std::span<double> received, std::span<const Index> receive_counts) const {
  for (const auto& [counts, values, what] : {std::tuple{send_counts, send.size(), "send"},
                                             std::tuple{receive_counts, received.size(), "receive"}}) {
    if (counts.size() != static_cast<std::size_t>(size()))
      throw ValueError(fmt::format("Communicator::alltoall: expected {} {} counts (one per rank), found {}", size(),
                                   what, counts.size()));
    if (std::any_of(counts.begin(), counts.end(), [](Index c) { return c < 0; }))
      throw ValueError(fmt::format("Communicator::alltoall: expected {} counts ≥ 0, found a negative one", what));
    const Index total = std::accumulate(counts.begin(), counts.end(), Index{0});
    if (static_cast<Index>(values) != total)
      throw ValueError(fmt::format("Communicator::alltoall: the {} counts add up to {}, the buffer holds {}", what,
                                   total, values));
  }
}

void SingleProcessCommunicator::alltoall(std::span<const double> send, std::span<const Index> send_counts,
                                         std::span<double> received, std::span<const Index> receive_counts) {
  check_alltoall(send, send_counts, received, receive_counts);
  if (send_counts[0] != receive_counts[0])
    throw ValueError(fmt::format("Communicator::alltoall: rank 0 expects {} values from rank 0, which sends {}",
                                 receive_counts[0], send_counts[0]));
  std::copy(send.begin(), send.end(), received.begin());
}

void SingleProcessCommunicator::allgather(std::span<const double> local, std::span<const Index> counts,
                                          std::span<double> gathered) {
  check_allgather(local, counts, gathered);
  std::copy(local.begin(), local.end(), gathered.begin());
}

// Note [Rank failure]
// ~~~~~~~~~~~~~~~~~~~
// In-process, the ranks share one InProcessGroup. A collective is two rendezvous: every rank
// posts a pointer to its buffer and its length, waits until all have posted (the first
// rendezvous), reads the others' buffers, and waits again (the second) before returning, so no
// rank reuses its buffer while another still reads it. A rendezvous waits on a condition
// variable until the group's generation moves, or until a rank has failed or has returned, which
// would make the wait endless: then it throws RankFailedError naming that rank. A rank that
// throws records the first failure, wakes every waiter, and ends; a rank that returns while
// others wait is reported the same way (its collectives did not match theirs). So every rank
// stops within the time it takes to reach its next collective.
namespace {

class InProcessGroup {
 public:
  explicit InProcessGroup(int size) : size_(size), posts_(static_cast<std::size_t>(size)) {}

  struct Post {
    const void* data = nullptr;
    std::size_t length = 0;
  };

  int size() const { return size_; }
  const Post& post(int rank) const { return posts_[static_cast<std::size_t>(rank)]; }

  // Posts this rank's buffer and waits until every rank has posted.
  void post_and_wait(int rank, const void* data, std::size_t length) {
    std::unique_lock lock(mutex_);
    posts_[static_cast<std::size_t>(rank)] = {data, length};
    arrive(lock);
  }
  // Waits until every rank has arrived.
  void rendezvous() {
    std::unique_lock lock(mutex_);
    arrive(lock);
  }

  void fail(int rank, const std::string& what) {
    std::lock_guard lock(mutex_);
    if (!failure_) failure_ = Failure{rank, what};
    changed_.notify_all();
  }
  void leave(int rank) {
    std::lock_guard lock(mutex_);
    if (!departed_) departed_ = rank;
    changed_.notify_all();
  }
  std::optional<std::pair<int, std::string>> first_failure() const {
    std::lock_guard lock(mutex_);
    if (!failure_) return std::nullopt;
    return std::pair{failure_->rank, failure_->what};
  }

 private:
  struct Failure {
    int rank;
    std::string what;
  };

  void arrive(std::unique_lock<std::mutex>& lock) {
    throw_if_broken();
    const std::uint64_t generation = generation_;
    if (++arrived_ == size_) {
      arrived_ = 0;
      ++generation_;
      changed_.notify_all();
      return;
    }
    changed_.wait(lock, [&] { return generation_ != generation || failure_ || departed_; });
    if (generation_ == generation) throw_if_broken();
  }
  void throw_if_broken() const {
    if (failure_) throw RankFailedError(failure_->rank, failure_->what);
    if (departed_)
      throw RankFailedError(*departed_, "it returned while other ranks waited in a collective (every rank must "
                                        "call the same collectives in the same order)");
  }

  const int size_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Post> posts_;
  int arrived_ = 0;
  std::uint64_t generation_ = 0;
  std::optional<Failure> failure_;
  std::optional<int> departed_;
};

class InProcessCommunicator final : public Communicator {
 public:
  InProcessCommunicator(InProcessGroup& group, int rank) : group_(group), rank_(rank) {}

  int rank() const override { return rank_; }
  int size() const override { return group_.size(); }

  // Σ_r buffer_r added in rank order r = 0, 1, … (the same on every rank).
  void allreduce_sum(std::span<double> buffer) override {
    group_.post_and_wait(rank_, buffer.data(), buffer.size());
    check_lengths("allreduce_sum", buffer.size());
    sum_.assign(buffer.size(), 0.0);
    for (int r = 0; r < size(); ++r) {
      const double* other = static_cast<const double*>(group_.post(r).data);
      for (std::size_t j = 0; j < buffer.size(); ++j) sum_[j] += other[j];
    }
    group_.rendezvous();
    std::copy(sum_.begin(), sum_.end(), buffer.begin());
  }

  // Each rank posts its values and the counts it expects; every rank checks every rank's counts
  // against every rank's length before any data is read, so all throw together, after a
  // rendezvous (no rank unwinds a buffer another still reads), as alltoall below.
  void allgather(std::span<const double> local, std::span<const Index> counts, std::span<double> gathered) override {
    check_allgather(local, counts, gathered);
    const Contribution mine{local.data(), counts.data()};
    group_.post_and_wait(rank_, &mine, local.size());
    auto contribution = [&](int r) { return static_cast<const Contribution*>(group_.post(r).data); };
    std::string mismatch;
    for (int q = 0; q < size() && mismatch.empty(); ++q)
      for (int r = 0; r < size() && mismatch.empty(); ++r)
        if (static_cast<Index>(group_.post(r).length) != contribution(q)->counts[r])
          mismatch = fmt::format("Communicator::allgather: rank {} expects {} values from rank {}, which passes {}", q,
                                 contribution(q)->counts[r], r, group_.post(r).length);
    if (!mismatch.empty()) {
      group_.rendezvous();  // every rank has read the posts before any unwinds its own
      throw ValueError(mismatch);
    }
    std::size_t at = 0;
    for (int r = 0; r < size(); ++r) {
      const double* other = contribution(r)->values;
      const std::size_t length = group_.post(r).length;
      std::copy(other, other + length, gathered.begin() + static_cast<std::ptrdiff_t>(at));
      at += length;
    }
    group_.rendezvous();
  }

  // Each rank posts its send buffer and both count lists; every rank checks every sender's count
  // against its receiver's before any data is read, so all throw together (after a rendezvous: no
  // rank unwinds an outbox another still reads); otherwise rank q copies, from every rank r in rank order, the block r
  // sends to q (after r's blocks for ranks 0 … q − 1).
  void alltoall(std::span<const double> send, std::span<const Index> send_counts, std::span<double> received,
                std::span<const Index> receive_counts) override {
    check_alltoall(send, send_counts, received, receive_counts);
    const Outbox mine{send.data(), send_counts.data(), receive_counts.data()};
    group_.post_and_wait(rank_, &mine, send.size());
    auto outbox = [&](int r) { return static_cast<const Outbox*>(group_.post(r).data); };
    std::string mismatch;
    for (int r = 0; r < size() && mismatch.empty(); ++r)
      for (int q = 0; q < size() && mismatch.empty(); ++q)
        if (outbox(r)->send_counts[q] != outbox(q)->receive_counts[r])
          mismatch = fmt::format("Communicator::alltoall: rank {} expects {} values from rank {}, which sends {}", q,
                                 outbox(q)->receive_counts[r], r, outbox(r)->send_counts[q]);
    if (!mismatch.empty()) {
      group_.rendezvous();  // every rank has read the outboxes before any unwinds its own
      throw ValueError(mismatch);
    }
    std::size_t at = 0;
    for (int r = 0; r < size(); ++r) {
      const Outbox* theirs = outbox(r);
      const Index offset = std::accumulate(theirs->send_counts, theirs->send_counts + rank_, Index{0});
      const Index count = theirs->send_counts[rank_];
      std::copy(theirs->values + offset, theirs->values + offset + count, received.begin() + static_cast<std::ptrdiff_t>(at));
      at += static_cast<std::size_t>(count);
    }
    group_.rendezvous();
  }

  void barrier() override { group_.rendezvous(); }

 protected:
  void broadcast_bytes(void* data, std::size_t bytes, int root) override {
    check_root(root, "broadcast");
    group_.post_and_wait(rank_, data, bytes);
    check_lengths("broadcast", bytes);
    if (rank_ != root && bytes > 0) std::memcpy(data, group_.post(root).data, bytes);
    group_.rendezvous();
  }

 private:
  // Every rank checks every length, so all of them throw together and none waits alone.
  void check_lengths(const char* who, std::size_t mine) const {
    for (int r = 0; r < size(); ++r) {
      if (group_.post(r).length != mine)
        throw ValueError(fmt::format("Communicator::{}: rank {} passes {} entries, rank {} passes {}", who, rank_,
                                     mine, r, group_.post(r).length));
    }
  }

  struct Contribution {  // of allgather
    const double* values;
    const Index* counts;
  };
  struct Outbox {
    const double* values;
    const Index* send_counts;
    const Index* receive_counts;
  };

  InProcessGroup& group_;
  int rank_;
  std::vector<double> sum_;
};

}  // namespace

void run_in_process(int num_ranks, const std::function<void(Communicator&)>& rank_main, InProcessOptions options) {
  if (num_ranks < 1) throw ValueError(fmt::format("run_in_process: expected num_ranks ≥ 1, found {}", num_ranks));
  if (options.threads_per_rank < 0)
    throw ValueError(
        fmt::format("run_in_process: expected threads_per_rank ≥ 0, found {}", options.threads_per_rank));
  InProcessGroup group(num_ranks);
  auto run_rank = [&](int rank) {
    InProcessCommunicator comm(group, rank);
    try {
      if (options.threads_per_rank > 0) {
        tbb::task_arena arena(options.threads_per_rank);
        arena.execute([&] { rank_main(comm); });
      } else {
        rank_main(comm);
      }
      group.leave(rank);
    } catch (const RankFailedError& e) {
      // Stopped because another rank failed or left: that rank is the one reported (a failure
      // recorded first wins).
      group.fail(e.failed_rank(), e.reason());
    } catch (const std::exception& e) {
      group.fail(rank, e.what());
    } catch (...) {
      group.fail(rank, "an exception that is not a std::exception");
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(num_ranks - 1));
  for (int rank = 1; rank < num_ranks; ++rank) threads.emplace_back(run_rank, rank);
  run_rank(0);  // the caller's thread is rank 0
  for (std::thread& t : threads) t.join();
  if (const auto failure = group.first_failure()) throw RankFailedError(failure->first, failure->second);
}

}  // namespace dagml
