// The process-wide CPU pool (one Boost.Asio thread per core) on which scans decode, and the
// one primitive every layer uses to run work on it: `parallel_for`.
//
// Fan-out is opt-in per thread: a scan's decode tasks run under a FanOutScope, so that a
// decoder holding a lot of independent work (e.g. the values of a full-zip page, each its
// own zstd frame: lib/encoding/decompress.cpp) can split it across cores with
// `fan_out_allowed()`; a small take (random access) decodes inline, where only a
// decompression of over 512 KiB fans out (read::DecodeMode::inline_split_large), a large one
// on the pool (read::kPoolTakeBytes).
#pragma once

#include <cstddef>
#include <functional>

namespace lance {

/// Threads of the CPU pool (one per core, at least 1).
size_t cpu_pool_threads();

/// Runs `job` on the CPU pool (fire and forget: `job` must catch its own exceptions).
void post_to_cpu_pool(std::function<void()> job);

/// Runs `task(i)` for every i in [0, n) on the CPU pool and waits for all; rethrows the
/// first exception (the other indices still run). The caller takes part: it claims
/// indices like the pool's helpers do and waits only for indices a running helper claimed,
/// so a call from inside a pool task (a scan batch decoding its fields, a field its
/// values) never waits on queued work and cannot deadlock the pool. Every task runs with
/// fan-out allowed. n <= 1 runs inline.
void parallel_for(size_t n, const std::function<void(size_t)>& task);

/// Whether code on this thread may split its work with `parallel_for` (see FanOutScope).
bool fan_out_allowed();

/// While alive, `fan_out_allowed()` returns `allowed` on this thread (nests; the previous
/// value comes back on exit).
class FanOutScope {
 public:
  explicit FanOutScope(bool allowed);
  ~FanOutScope();
  FanOutScope(const FanOutScope&) = delete;
  FanOutScope& operator=(const FanOutScope&) = delete;

 private:
  bool saved_;
};

}  // namespace lance
