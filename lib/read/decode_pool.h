// Where decode work runs: inline on the calling thread, or as tasks on a shared CPU pool
// (one thread per core) so that decoding of a batch's columns uses every core while the
// I/O of the next batch is in flight.
#pragma once

#include <cstddef>
#include <functional>

namespace lance::read {

enum class DecodeMode {
  inline_run,  ///< decode on the caller's thread (random access: little to decode)
  pool,        ///< decode columns as tasks on the CPU pool (scans)
};

/// Runs `task(i)` for every i in [0, n) and waits for all; rethrows the first exception.
void run_decode_tasks(DecodeMode mode, size_t n, const std::function<void(size_t)>& task);

}  // namespace lance::read
