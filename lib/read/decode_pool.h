// Where the decode work of a read runs: inline on the calling thread, or as tasks on the
// CPU pool (common/cpu_pool.h) so that decoding a batch's columns uses every core while the
// I/O of the next batch is in flight.
#pragma once

#include <cstddef>
#include <functional>

#include "common/cpu_pool.h"

namespace lance::read {

enum class DecodeMode {
  inline_run,  ///< decode on the caller's thread, no fan-out (random access: little to decode)
  pool,        ///< decode columns as tasks on the CPU pool, fan-out allowed (scans)
};

/// Runs `task(i)` for every i in [0, n) and waits for all; rethrows the first exception.
/// `pool`: lance::parallel_for (tasks may fan out further); `inline_run`: in order on this
/// thread.
inline void run_decode_tasks(DecodeMode mode, size_t n, const std::function<void(size_t)>& task) {
  if (mode == DecodeMode::pool) return parallel_for(n, task);
  FanOutScope none(false);
  for (size_t i = 0; i < n; ++i) task(i);
}

/// Threads of the CPU pool (one per core, at least 1).
inline size_t pool_threads() { return cpu_pool_threads(); }

}  // namespace lance::read
