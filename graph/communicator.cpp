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

// Note [Matching collectives]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A collective whose ranks pass different lengths, counts or roots has no meaning: MPI leaves it
// undefined (a truncation error at best, a buffer overrun at worst), and in-process a rank would
// read past another's buffer. So every collective first checks that the ranks agree, and on a
// disagreement every rank throws the same ValueError, built by the functions below from every
// rank's arguments. In-process the ranks read each other's posted arguments; MPI's backend agrees
// with one small collective before moving data and gathers the arguments only on a disagreement
// (distributed/mpi_communicator.cpp).
namespace {

// The first rank r whose value differs from rank 0's, or 0 when all agree.
std::size_t first_disagreeing(std::span<const Index> values) {
  for (std::size_t r = 1; r < values.size(); ++r)
    if (values[r] != values[0]) return r;
  return 0;
}

}  // namespace

std::string Communicator::length_mismatch(const char* who, const char* unit, std::span<const Index> lengths) const {
  const std::size_t r = first_disagreeing(lengths);
  if (r == 0) return "";
  return fmt::format("Communicator::{}: the ranks pass different numbers of {}: rank 0 passes {}, rank {} passes {}",
                     who, unit, lengths[0], r, lengths[r]);
}

std::string Communicator::root_mismatch(std::span<const Index> roots) const {
  const std::size_t r = first_disagreeing(roots);
  if (r == 0) return "";
  return fmt::format("Communicator::broadcast: rank 0 names root {}, rank {} names root {}", roots[0], r, roots[r]);
}

std::string Communicator::allgather_mismatch(std::span<const Index> counts, std::span<const Index> lengths) const {
  const auto p = static_cast<std::size_t>(size());
  for (std::size_t q = 0; q < p; ++q)
    for (std::size_t r = 0; r < p; ++r)
      if (counts[q * p + r] != lengths[r])
        return fmt::format("Communicator::allgather: rank {} expects {} values from rank {}, which passes {}", q,
                           counts[q * p + r], r, lengths[r]);
  return "";
}

std::string Communicator::alltoall_mismatch(std::span<const Index> send_counts,
                                            std::span<const Index> receive_counts) const {
  const auto p = static_cast<std::size_t>(size());
  for (std::size_t r = 0; r < p; ++r)
    for (std::size_t q = 0; q < p; ++q)
      if (send_counts[r * p + q] != receive_counts[q * p + r])
        return fmt::format("Communicator::alltoall: rank {} expects {} values from rank {}, which sends {}", q,
                           receive_counts[q * p + r], r, send_counts[r * p + q]);
  return "";
}

void SingleProcessCommunicator::alltoall(std::span<const double> send, std::span<const Index> send_counts,
                                         std::span<double> received, std::span<const Index> receive_counts) {
  check_alltoall(send, send_counts, received, receive_counts);
  if (const std::string mismatch = alltoall_mismatch(send_counts, receive_counts); !mismatch.empty())
    throw ValueError(mismatch);
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
    throw_together(
        length_mismatch("allreduce_sum", "entries", posted(first_, [&](int r) { return group_.post(r).length; })));
    sum_.assign(buffer.size(), 0.0);
    for (int r = 0; r < size(); ++r) {
      const double* other = static_cast<const double*>(group_.post(r).data);
      for (std::size_t j = 0; j < buffer.size(); ++j) sum_[j] += other[j];
    }
    group_.rendezvous();
    std::copy(sum_.begin(), sum_.end(), buffer.begin());
  }

  // Each rank posts its values and the counts it expects; every rank checks every rank's counts
  // against every rank's length before any data is read (Note [Matching collectives]).
  void allgather(std::span<const double> local, std::span<const Index> counts, std::span<double> gathered) override {
    check_allgather(local, counts, gathered);
    const Contribution mine{local.data(), counts.data()};
    group_.post_and_wait(rank_, &mine, local.size());
    auto contribution = [&](int r) { return static_cast<const Contribution*>(group_.post(r).data); };
    throw_together(allgather_mismatch(posted_matrix(first_, [&](int q) { return contribution(q)->counts; }),
                                      posted(second_, [&](int r) { return group_.post(r).length; })));
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
  // against its receiver's before any data is read (Note [Matching collectives]); then rank q
  // copies, from every rank r in rank order, the block r sends to q (after r's blocks for ranks
  // 0 … q − 1).
  void alltoall(std::span<const double> send, std::span<const Index> send_counts, std::span<double> received,
                std::span<const Index> receive_counts) override {
    check_alltoall(send, send_counts, received, receive_counts);
    const Outbox mine{send.data(), send_counts.data(), receive_counts.data()};
    group_.post_and_wait(rank_, &mine, send.size());
    auto outbox = [&](int r) { return static_cast<const Outbox*>(group_.post(r).data); };
    throw_together(alltoall_mismatch(posted_matrix(first_, [&](int r) { return outbox(r)->send_counts; }),
                                     posted_matrix(second_, [&](int r) { return outbox(r)->receive_counts; })));
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
    const Broadcast mine{data, root};
    group_.post_and_wait(rank_, &mine, bytes);
    auto broadcast = [&](int r) { return static_cast<const Broadcast*>(group_.post(r).data); };
    throw_together(length_mismatch("broadcast", "bytes", posted(first_, [&](int r) { return group_.post(r).length; })));
    throw_together(root_mismatch(posted(first_, [&](int r) { return broadcast(r)->root; })));
    if (rank_ != root && bytes > 0) std::memcpy(data, broadcast(root)->data, bytes);
    group_.rendezvous();
  }

 private:
  // Every rank finds the same mismatch from the same posts, so all throw together; the rendezvous
  // first lets every rank finish reading the posts before any unwinds its own.
  void throw_together(const std::string& mismatch) {
    if (mismatch.empty()) return;
    group_.rendezvous();
    throw ValueError(mismatch);
  }
  // value(r) for every rank r, in `values` (a member buffer: once grown, a collective allocates
  // nothing).
  template <class Value>
  std::span<const Index> posted(std::vector<Index>& values, Value value) const {
    values.resize(static_cast<std::size_t>(size()));
    for (int r = 0; r < size(); ++r) values[static_cast<std::size_t>(r)] = static_cast<Index>(value(r));
    return values;
  }
  // Row r: the size() counts at counts_of(r), in `matrix` (a member buffer, as above).
  template <class Counts>
  std::span<const Index> posted_matrix(std::vector<Index>& matrix, Counts counts_of) const {
    const auto p = static_cast<std::size_t>(size());
    matrix.resize(p * p);
    for (std::size_t r = 0; r < p; ++r)
      std::copy(counts_of(static_cast<int>(r)), counts_of(static_cast<int>(r)) + p,
                matrix.begin() + static_cast<std::ptrdiff_t>(r * p));
    return matrix;
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
  struct Broadcast {
    void* data;
    int root;
  };

  InProcessGroup& group_;
  int rank_;
  std::vector<double> sum_;
  std::vector<Index> first_, second_;  // every rank's arguments, read for the mismatch checks
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
