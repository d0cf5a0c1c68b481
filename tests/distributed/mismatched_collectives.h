// Collectives whose arguments disagree across ranks, for both backends
// (tests/graph/communicator_test.cpp in-process, tests/distributed/mpi_distributed.cpp under
// mpirun): each must be the same ValueError on every rank (Note [Matching collectives]).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "graph/communicator.h"

namespace dagml::testing {

// Runs `call`, which must throw a ValueError whose message contains `message`.
template <class Call>
void require_value_error(const std::string& what, const std::string& message, Call call) {
  try {
    call();
  } catch (const ValueError& e) {
    if (std::string(e.what()).find(message) == std::string::npos)
      throw InternalError(
          fmt::format("check failed: {}: the message \"{}\" does not say \"{}\"", what, e.what(), message));
    return;
  }
  throw InternalError(fmt::format("check failed: {} did not throw", what));
}

// Arguments that disagree across ranks (the last rank passes other lengths, counts or roots):
// every rank throws the ValueError the in-process backend throws (Note [Matching collectives]),
// and no data moved, so the communicator still works.
inline void check_mismatched_arguments(Communicator& comm) {
  const int p = comm.size(), r = comm.rank(), last = p - 1;
  std::vector<double> buffer(r == last ? 2 : 1, 1.0);
  require_value_error("allreduce_sum", fmt::format("numbers of entries: rank 0 passes 1, rank {} passes 2", last),
                      [&] { comm.allreduce_sum(buffer); });
  std::vector<Index> counts(static_cast<std::size_t>(p), 1);
  if (r == 0) counts[static_cast<std::size_t>(last)] = 2;
  std::vector<double> gathered(static_cast<std::size_t>(r == 0 ? p + 1 : p));
  require_value_error("allgather", fmt::format("rank 0 expects 2 values from rank {}, which passes 1", last),
                      [&] { comm.allgather(std::vector<double>{1.0}, counts, gathered); });
  const std::vector<double> outgoing(static_cast<std::size_t>(p), 1.0);
  const std::vector<Index> send_counts(static_cast<std::size_t>(p), 1);
  std::vector<double> incoming(gathered.size());
  require_value_error("alltoall", fmt::format("rank 0 expects 2 values from rank {}, which sends 1", last),
                      [&] { comm.alltoall(outgoing, send_counts, incoming, counts); });
  std::vector<std::int64_t> values(r == last ? 2 : 1);
  require_value_error("broadcast", fmt::format("numbers of bytes: rank 0 passes 8, rank {} passes 16", last),
                      [&] { comm.broadcast(std::span<std::int64_t>(values), 0); });
  values.resize(1);
  require_value_error("broadcast", fmt::format("rank 0 names root 0, rank {} names root {}", last, last),
                      [&] { comm.broadcast(std::span<std::int64_t>(values), r == last ? last : 0); });
  std::vector<double> one{1.0};
  comm.allreduce_sum(one);
  if (one[0] != p) throw InternalError("check failed: a collective after the mismatches");
}

}  // namespace dagml::testing
