// run_distributed: the entry point of a program that runs on one process or on many.
//
//   int main(int argc, char** argv) {
//     return dagml::run_distributed(argc, argv, [](dagml::Communicator& comm) { … });
//   }
//
// Built with DAGML_WITH_MPI, it initialises MPI (MPI_THREAD_FUNNELED), runs the function with a
// communicator over MPI_COMM_WORLD and finalises MPI; started without a launcher the program is
// one rank (MPI's singleton start). Without MPI it runs the function with the one-rank
// SingleProcessCommunicator. If the function throws on a rank, that rank prints
// "rank R failed: <message>" on stderr and, under MPI, calls MPI_Abort(MPI_COMM_WORLD, 1), which
// ends every rank of the job (mpirun then exits non-zero); without MPI it returns 1. Returns 0
// when the function returns on every rank.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "graph/communicator.h"

namespace dagml {

int run_distributed(int argc, char** argv, const std::function<void(Communicator&)>& rank_main);

// Whether this build has the MPI backend (DAGML_WITH_MPI).
bool built_with_mpi();

// A 64-bit FNV-1a hash of the bytes of `values`: equal checksums across ranks or runs say the
// values are bitwise equal (up to hash collisions), for printing and comparing fitted weights.
std::uint64_t bitwise_checksum(std::span<const double> values);
inline std::uint64_t bitwise_checksum(const Vector& values) {
  return bitwise_checksum(std::span<const double>(values.data(), static_cast<std::size_t>(values.size())));
}

}  // namespace dagml
