#include "distributed/launch.h"

#include <bit>
#include <cstdio>
#include <exception>
#include <string>

#ifdef DAGML_WITH_MPI
#include "distributed/mpi_communicator.h"
#endif

namespace dagml {
namespace {

void report_failure(int rank, const char* what) {
  std::fprintf(stderr, "rank %d failed: %s\n", rank, what);
  std::fflush(stderr);
}

// Runs rank_main; on an exception reports it as this rank's failure and returns false.
bool run_rank(Communicator& comm, const std::function<void(Communicator&)>& rank_main) {
  try {
    rank_main(comm);
    return true;
  } catch (const std::exception& e) {
    report_failure(comm.rank(), e.what());
  } catch (...) {
    report_failure(comm.rank(), "an exception that is not a std::exception");
  }
  return false;
}

}  // namespace

bool built_with_mpi() {
#ifdef DAGML_WITH_MPI
  return true;
#else
  return false;
#endif
}

std::uint64_t bitwise_checksum(std::span<const double> values) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const double v : values) {
    const auto bits = std::bit_cast<std::uint64_t>(v);
    for (int byte = 0; byte < 8; ++byte) hash = (hash ^ ((bits >> (8 * byte)) & 0xff)) * 1099511628211ull;
  }
  return hash;
}

#ifdef DAGML_WITH_MPI
int run_distributed(int argc, char** argv, const std::function<void(Communicator&)>& rank_main) {
  int provided = MPI_THREAD_SINGLE;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    report_failure(-1, "MPI_Init_thread failed");
    return 1;
  }
  bool ok = false;
  int rank = 0;
  {
    try {
      MpiCommunicator comm(MPI_COMM_WORLD);
      rank = comm.rank();
      ok = run_rank(comm, rank_main);
    } catch (const std::exception& e) {  // the communicator could not be made
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      report_failure(rank, e.what());
    }
  }
  // A failed rank ends the whole job: the others may wait in a collective it never reaches.
  if (!ok) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Finalize();
  return 0;
}
#else
int run_distributed(int, char**, const std::function<void(Communicator&)>& rank_main) {
  SingleProcessCommunicator comm;
  return run_rank(comm, rank_main) ? 0 : 1;
}
#endif

}  // namespace dagml
