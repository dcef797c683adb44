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
/// With `pool`, the caller takes part: it claims indices like the pool's helpers do and
/// waits only for indices a running helper claimed, so a call from inside a pool task (a
/// scan batch decoding its fields, a field its pages) never waits on queued work and
/// cannot deadlock the pool.
void run_decode_tasks(DecodeMode mode, size_t n, const std::function<void(size_t)>& task);

/// Runs `job` on the CPU pool (fire and forget: `job` must catch its own exceptions).
void post_to_pool(std::function<void()> job);

/// Threads of the CPU pool (one per core, at least 1).
size_t pool_threads();

}  // namespace lance::read
