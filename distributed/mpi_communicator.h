// The MPI backend of Communicator (graph/communicator.h), built with the CMake option
// DAGML_WITH_MPI. Ranks are the processes of an `mpirun` or `srun` job.
//
// Threads: MPI is initialised with MPI_THREAD_FUNNELED and only the thread that initialised it
// (the one that runs run_distributed's rank function) may call a collective; a call from any
// other thread, a TBB worker included, throws InternalError before touching MPI.
//
// Before moving data, every collective checks that the ranks pass matching lengths, counts and
// roots (one small MPI_Allreduce, plus an MPI_Alltoall of the counts for alltoall), so a mismatch
// is the same ValueError on every rank instead of MPI's undefined behaviour (Note [Matching
// collectives], graph/communicator.cpp).
//
// allgather and broadcast move bytes unchanged, so deterministic_chunk_sum gives every rank the
// same bits; allreduce_sum is MPI_Allreduce, whose order of additions MPI chooses.
#pragma once

#include <mpi.h>

#include <thread>
#include <vector>

#include "graph/communicator.h"

namespace dagml {

class MpiCommunicator final : public Communicator {
 public:
  // A duplicate of `comm`, which must outlive it; MPI must be initialised with at least
  // MPI_THREAD_FUNNELED (ValueError otherwise). The calling thread becomes the one that may
  // call collectives.
  explicit MpiCommunicator(MPI_Comm comm = MPI_COMM_WORLD);
  ~MpiCommunicator() override;
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void allreduce_sum(std::span<double> buffer) override;
  void allgather(std::span<const double> local, std::span<const Index> counts, std::span<double> gathered) override;
  void alltoall(std::span<const double> send, std::span<const Index> send_counts, std::span<double> received,
                std::span<const Index> receive_counts) override;
  void barrier() override;
  MPI_Comm native() const { return comm_; }

 protected:
  void broadcast_bytes(void* data, std::size_t bytes, int root) override;

 private:
  void check_thread(const char* who) const;
  // Whether every rank passes the same values (a collective over all ranks).
  bool agree(std::span<const Index> values);
  // Every rank's `mine` (each of the same size), in rank order.
  std::vector<Index> gather_from_all(std::span<const Index> mine);
  // ValueError, on every rank, unless every rank passes the same length.
  void check_length(const char* who, const char* unit, Index length);

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::thread::id owner_;
  std::vector<Index> agreement_;  // agree's buffer
  std::vector<Index> incoming_;   // alltoall's check: the counts every rank will send this one
};

}  // namespace dagml
