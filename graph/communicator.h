// Communicator: the collectives data-parallel fitting needs between ranks (processes or threads
// that each hold a shard of the data), with two backends:
//   - in-process (run_in_process below): ranks are threads of this process, so tests and
//     single-machine runs need no launcher;
//   - MPI (distributed/mpi_communicator.h, built with DAGML_WITH_MPI): ranks are the processes
//     of an mpirun or srun job.
// The architecture (why here, why these collectives, how determinism is kept) is in
// docs/distributed.md.
//
// Every rank calls every collective in the same order with matching lengths; a collective
// returns on a rank once every rank has reached it. Lengths, counts or roots that disagree across
// ranks are a ValueError on every rank, in both backends (Note [Matching collectives]), never
// memory read or written past a buffer. Only the thread that runs a rank's function
// calls collectives: never a TBB task (the MPI backend checks it). allreduce_sum adds in an order
// the backend chooses (MPI's tree or ring depends on the rank count), so a result that must not
// depend on the rank count is summed by deterministic_chunk_sum (graph/chunked_sum.h) instead.
//
// Faults (Note [Rank failure]): a rank whose function throws makes every rank stop within a
// bounded time with an error naming it. In-process, the other ranks' collectives throw
// RankFailedError (at once for a rank already waiting in one) and run_in_process rethrows on its
// caller RankFailedError("rank R failed: <message>") for the first rank that threw. Under MPI the
// failing rank prints "rank R failed: <message>" and aborts the job (run_mpi).
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <type_traits>

#include "graph/error.h"
#include "graph/tensor.h"

namespace dagml {

// A rank of a distributed run failed: it threw (the message is "rank R failed: <its message>"),
// or it returned while the others waited in a collective.
class RankFailedError : public Error {
 public:
  RankFailedError(int rank, const std::string& what);
  int failed_rank() const { return rank_; }
  // The failed rank's own message, without the "rank R failed: " prefix.
  const std::string& reason() const { return reason_; }

 private:
  int rank_;
  std::string reason_;
};

class Communicator {
 public:
  virtual ~Communicator() = default;

  // This rank, in [0, size()).
  virtual int rank() const = 0;
  // The number of ranks, ≥ 1.
  virtual int size() const = 0;

  // buffer ← Σ_r buffer_r on every rank (same length everywhere; ValueError otherwise). The order
  // of the additions is the backend's: see above.
  virtual void allreduce_sum(std::span<double> buffer) = 0;
  // Every rank's `gathered` ← the concatenation, in rank order, of every rank's `local`, where
  // rank r's local has counts[r] entries (every rank passes the same counts; ValueError if local
  // or gathered has the wrong length).
  virtual void allgather(std::span<const double> local, std::span<const Index> counts, std::span<double> gathered) = 0;
  // Personalised exchange: `send` holds, in rank order, send_counts[q] values for every rank q;
  // `received` gets, in rank order, the values every rank r sent to this one, receive_counts[r]
  // of them (ValueError when a length disagrees with its counts, or a count with the sender's).
  virtual void alltoall(std::span<const double> send, std::span<const Index> send_counts, std::span<double> received,
                        std::span<const Index> receive_counts) = 0;
  // Returns once every rank has called it.
  virtual void barrier() = 0;

  // The root's `values` copied into every rank's (same length and root everywhere; ValueError
  // otherwise).
  template <class T>
    requires std::is_trivially_copyable_v<T>
  void broadcast(std::span<T> values, int root) {
    broadcast_bytes(values.data(), values.size_bytes(), root);
  }
  // allgather with the same count, local.size(), on every rank.
  void allgather(std::span<const double> local, std::span<double> gathered);

 protected:
  virtual void broadcast_bytes(void* data, std::size_t bytes, int root) = 0;
  // ValueError unless 0 ≤ root < size().
  void check_root(int root, const char* who) const;
  // ValueError unless counts has size() entries ≥ 0, local has counts[rank()] and gathered their sum.
  void check_allgather(std::span<const double> local, std::span<const Index> counts,
                       std::span<double> gathered) const;
  // ValueError unless both count lists have size() entries ≥ 0 and send and received their sums.
  void check_alltoall(std::span<const double> send, std::span<const Index> send_counts, std::span<double> received,
                      std::span<const Index> receive_counts) const;

  // The messages of the ValueError every rank throws when the ranks' arguments of a collective
  // disagree, or "" when they agree; both backends gather every rank's arguments on a
  // disagreement, so every rank of either backend says the same.
  //   lengths[r]: rank r's buffer length, in `unit` (allreduce_sum, broadcast);
  //   roots[r]: the root rank r names (broadcast);
  //   counts: size() × size(), row q the counts rank q passes; lengths[r]: rank r's values (allgather);
  //   send_counts, receive_counts: size() × size(), row r rank r's counts (alltoall).
  std::string length_mismatch(const char* who, const char* unit, std::span<const Index> lengths) const;
  std::string root_mismatch(std::span<const Index> roots) const;
  std::string allgather_mismatch(std::span<const Index> counts, std::span<const Index> lengths) const;
  std::string alltoall_mismatch(std::span<const Index> send_counts, std::span<const Index> receive_counts) const;
};

// The one-rank communicator: every collective is a copy or nothing. The serial reference that a
// distributed run must reproduce bitwise.
class SingleProcessCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void allreduce_sum(std::span<double>) override {}
  void allgather(std::span<const double> local, std::span<const Index> counts, std::span<double> gathered) override;
  void alltoall(std::span<const double> send, std::span<const Index> send_counts, std::span<double> received,
                std::span<const Index> receive_counts) override;
  void barrier() override {}

 protected:
  void broadcast_bytes(void*, std::size_t, int root) override { check_root(root, "broadcast"); }
};

struct InProcessOptions {
  // The TBB threads of each rank (each rank runs in a task arena of that many slots); 0 lets the
  // ranks share the process's threads (dagml::set_num_threads).
  int threads_per_rank = 0;
};

// Runs rank_main on num_ranks ≥ 1 threads, rank r with a communicator of rank r and size
// num_ranks, and returns when every rank has returned. If a rank throws, rethrows on the caller
// RankFailedError("rank R failed: <message>") for the first rank that threw (Note [Rank
// failure]). ValueError for num_ranks < 1 or threads_per_rank < 0.
void run_in_process(int num_ranks, const std::function<void(Communicator&)>& rank_main, InProcessOptions options = {});

}  // namespace dagml
