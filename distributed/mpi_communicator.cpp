#include "distributed/mpi_communicator.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

namespace dagml {
namespace {

// Throws InternalError naming the MPI call when it did not succeed (MPI_ERRORS_RETURN is set on
// the communicator, so errors come back here instead of aborting inside MPI).
void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw InternalError(fmt::format("{} failed: {}", call, std::string(text, static_cast<std::size_t>(length))));
}

int mpi_count(std::size_t count, const char* who) {
  if (count > static_cast<std::size_t>(INT_MAX))
    throw ValueError(fmt::format("MpiCommunicator::{}: {} entries exceed MPI's int count", who, count));
  return static_cast<int>(count);
}

static_assert(sizeof(Index) == sizeof(std::int64_t), "counts travel as MPI_INT64_T");

}  // namespace

MpiCommunicator::MpiCommunicator(MPI_Comm comm) : owner_(std::this_thread::get_id()) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw ValueError("MpiCommunicator: MPI is not initialised (use run_distributed)");
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  if (provided < MPI_THREAD_FUNNELED)
    throw ValueError(fmt::format(
        "MpiCommunicator: expected MPI initialised with at least MPI_THREAD_FUNNELED, found thread level {}",
        provided));
  check_mpi(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

MpiCommunicator::~MpiCommunicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
}

void MpiCommunicator::check_thread(const char* who) const {
  if (std::this_thread::get_id() != owner_)
    throw InternalError(fmt::format(
        "MpiCommunicator::{}: called from a thread other than the rank's main thread (MPI_THREAD_FUNNELED: TBB "
        "tasks must not call collectives)",
        who));
}

// Note [Matching collectives] (graph/communicator.cpp): one MPI_Allreduce(MAX) of (v, −v) gives
// every rank each value's largest and smallest across the ranks.
bool MpiCommunicator::agree(std::span<const Index> values) {
  const std::size_t n = values.size();
  agreement_.resize(2 * n);
  for (std::size_t i = 0; i < n; ++i) agreement_[i] = values[i], agreement_[n + i] = -values[i];
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, agreement_.data(), mpi_count(2 * n, "agree"), MPI_INT64_T, MPI_MAX, comm_),
            "MPI_Allreduce");
  for (std::size_t i = 0; i < n; ++i)
    if (agreement_[i] != -agreement_[n + i]) return false;
  return true;
}

std::vector<Index> MpiCommunicator::gather_from_all(std::span<const Index> mine) {
  std::vector<Index> all(mine.size() * static_cast<std::size_t>(size_));
  check_mpi(MPI_Allgather(mine.data(), mpi_count(mine.size(), "gather"), MPI_INT64_T, all.data(),
                          mpi_count(mine.size(), "gather"), MPI_INT64_T, comm_),
            "MPI_Allgather");
  return all;
}

void MpiCommunicator::check_length(const char* who, const char* unit, Index length) {
  const Index mine[] = {length};
  if (!agree(mine)) throw ValueError(length_mismatch(who, unit, gather_from_all(mine)));
}

void MpiCommunicator::allreduce_sum(std::span<double> buffer) {
  check_thread("allreduce_sum");
  check_length("allreduce_sum", "entries", static_cast<Index>(buffer.size()));
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, buffer.data(), mpi_count(buffer.size(), "allreduce_sum"), MPI_DOUBLE, MPI_SUM,
                          comm_),
            "MPI_Allreduce");
}

void MpiCommunicator::allgather(std::span<const double> local, std::span<const Index> counts,
                                std::span<double> gathered) {
  check_thread("allgather");
  check_allgather(local, counts, gathered);
  if (!agree(counts)) {  // every rank's own count is its length (check_allgather)
    const std::vector<Index> all = gather_from_all(counts);
    std::vector<Index> lengths(static_cast<std::size_t>(size_));
    for (std::size_t r = 0; r < lengths.size(); ++r) lengths[r] = all[r * lengths.size() + r];
    throw ValueError(allgather_mismatch(all, lengths));
  }
  std::vector<int> sizes(counts.size()), offsets(counts.size());
  std::size_t at = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    sizes[r] = mpi_count(static_cast<std::size_t>(counts[r]), "allgather");
    offsets[r] = mpi_count(at, "allgather");
    at += static_cast<std::size_t>(counts[r]);
  }
  check_mpi(MPI_Allgatherv(local.data(), sizes[static_cast<std::size_t>(rank_)], MPI_DOUBLE, gathered.data(),
                           sizes.data(), offsets.data(), MPI_DOUBLE, comm_),
            "MPI_Allgatherv");
}

void MpiCommunicator::alltoall(std::span<const double> send, std::span<const Index> send_counts,
                               std::span<double> received, std::span<const Index> receive_counts) {
  check_thread("alltoall");
  check_alltoall(send, send_counts, received, receive_counts);
  // Rank q learns what every rank will send it, and the ranks agree on whether all counts pair up.
  incoming_.resize(static_cast<std::size_t>(size_));
  check_mpi(MPI_Alltoall(send_counts.data(), 1, MPI_INT64_T, incoming_.data(), 1, MPI_INT64_T, comm_), "MPI_Alltoall");
  const Index paired[] = {std::equal(incoming_.begin(), incoming_.end(), receive_counts.begin()) ? 1 : 0};
  if (!agree(paired) || paired[0] == 0)
    throw ValueError(alltoall_mismatch(gather_from_all(send_counts), gather_from_all(receive_counts)));
  // Counts and displacements as MPI's ints, for both directions.
  auto layout = [](std::span<const Index> counts, std::vector<int>& sizes, std::vector<int>& offsets) {
    std::size_t at = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      sizes.push_back(mpi_count(static_cast<std::size_t>(counts[r]), "alltoall"));
      offsets.push_back(mpi_count(at, "alltoall"));
      at += static_cast<std::size_t>(counts[r]);
    }
  };
  std::vector<int> send_sizes, send_offsets, receive_sizes, receive_offsets;
  layout(send_counts, send_sizes, send_offsets);
  layout(receive_counts, receive_sizes, receive_offsets);
  check_mpi(MPI_Alltoallv(send.data(), send_sizes.data(), send_offsets.data(), MPI_DOUBLE, received.data(),
                          receive_sizes.data(), receive_offsets.data(), MPI_DOUBLE, comm_),
            "MPI_Alltoallv");
}

void MpiCommunicator::barrier() {
  check_thread("barrier");
  check_mpi(MPI_Barrier(comm_), "MPI_Barrier");
}

void MpiCommunicator::broadcast_bytes(void* data, std::size_t bytes, int root) {
  check_thread("broadcast");
  check_root(root, "broadcast");
  check_length("broadcast", "bytes", static_cast<Index>(bytes));
  const Index roots[] = {root};
  if (!agree(roots)) throw ValueError(root_mismatch(gather_from_all(roots)));
  check_mpi(MPI_Bcast(data, mpi_count(bytes, "broadcast"), MPI_BYTE, root, comm_), "MPI_Bcast");
}

}  // namespace dagml
