// Where the decode work of a read runs: inline on the calling thread, or as tasks on the
// CPU pool (common/cpu_pool.h) so that decoding a batch's columns uses every core while the
// I/O of the next batch is in flight.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include "common/cpu_pool.h"

namespace lance::read {

enum class DecodeMode {
  inline_run,  ///< decode on the caller's thread, no fan-out
  /// Decode on the caller's thread; only a decompression big enough to split (a page's
  /// per-value zstd/lz4 values of >= 512 KiB compressed, lib/encoding/decompress.cpp) runs
  /// its parts on the pool. Random access: a take of a few rows pays no hand-off, one of 2048 long texts
  /// (40+ ms of zstd) uses both cores.
  inline_split_large,
  pool,  ///< decode columns as tasks on the CPU pool, fan-out allowed (scans)
};

/// A take whose distinct rows hold at least this many file bytes to decode (at the projected
/// fields' average, leaving out full-zip pages of plain fixed-width values, which are only
/// moved) decodes on the pool rather than inline_split_large, unless the options set a mode
/// (read::FileRowReader::take).
inline constexpr uint64_t kPoolTakeBytes = 1024 * 1024;

/// A local scan whose projected file bytes are known and under this many decodes inline:
/// handing its few batches to the CPU pool (threads started, woken, waited for) costs more
/// than decoding them here (a 24,000-row list<int64> column of 0.6 MB over 8 files: 10.9 ->
/// 8.2 ms). The same bound as a take's (kPoolTakeBytes).
inline constexpr uint64_t kInlineScanBytes = kPoolTakeBytes;

/// The decode mode of a scan: `set` when the options name one; else inline_run for a local
/// scan of `bytes` (> 0: known) under kInlineScanBytes; inline_split_large for a larger local
/// scan whose batches may run one after another (`in_order`): those of one chain (one data
/// file, or one fragment of a dataset), which run one after another wherever they run, where
/// on the pool each costs a hand-off and fields as tasks cost more wake-ups than they save (a
/// 1 M-row scan of six scalar columns 48 → 36 ms, the 100k × 384 vectors 38 → 33 ms, 110k
/// long texts 913 → 747 ms on the 2-core VM, docs/performance.md), or those whose work is
/// mostly large decompressions, which split across the pool anyway; the pool otherwise
/// (several chains run side by side there).
inline DecodeMode scan_decode_mode(std::optional<DecodeMode> set, bool local, double bytes, bool in_order = false) {
  if (set) return *set;
  if (local && bytes > 0 && bytes < static_cast<double>(kInlineScanBytes)) return DecodeMode::inline_run;
  return local && in_order ? DecodeMode::inline_split_large : DecodeMode::pool;
}

/// Runs `task(i)` for every i in [0, n) and waits for all; rethrows the first exception.
/// `pool`: lance::parallel_for (tasks may fan out further); `inline_run` and
/// `inline_split_large`: in order on this thread (the latter lets a large decompression fan out).
inline void run_decode_tasks(DecodeMode mode, size_t n, const std::function<void(size_t)>& task) {
  if (mode == DecodeMode::pool) return parallel_for(n, task);
  FanOutScope none(mode == DecodeMode::inline_split_large);
  for (size_t i = 0; i < n; ++i) task(i);
}

/// Threads of the CPU pool (one per core, at least 1).
inline size_t pool_threads() { return cpu_pool_threads(); }

}  // namespace lance::read
