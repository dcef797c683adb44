// Counters of what a read did, for `--stats`: I/O comes from the scheduler (IoStats);
// these count the planning and decoding side. Process-wide, thread-safe.
#pragma once

#include <atomic>
#include <cstdint>

namespace lance::read {

struct ReadStats {
  std::atomic<uint64_t> pages_touched{0};   ///< page decoders created
  std::atomic<uint64_t> rows_out{0};        ///< rows handed to the caller
  std::atomic<uint64_t> plan_ns{0};         ///< planning and metadata rounds (incl. their waits)
  std::atomic<uint64_t> io_wait_ns{0};      ///< waiting for data reads
  std::atomic<uint64_t> decode_ns{0};       ///< decompression and assembly

  static ReadStats& global();
};

}  // namespace lance::read
