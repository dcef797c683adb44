// Counters of what a read did, for `--stats`: one object per read (or per process, as the
// CLI uses it), passed down through ReaderOptions / FileReader::open to the I/O scheduler
// (requests, iops, bytes), the column readers (pages, planning and wait times) and the page
// decoders (chunks). Thread-safe: every field is an atomic counter.
#pragma once

#include <atomic>
#include <cstdint>

namespace lance {

struct ReadStats {
  // I/O (io::IoScheduler)
  std::atomic<uint64_t> requests{0};        ///< submitted requests (each a list of byte ranges)
  std::atomic<uint64_t> iops{0};            ///< positional reads issued after merging/splitting
  std::atomic<uint64_t> bytes_read{0};      ///< bytes those reads returned
  // Planning and decoding (read::ColumnReader, structural page decoders)
  std::atomic<uint64_t> pages_touched{0};   ///< page decoders created
  std::atomic<uint64_t> chunks_decoded{0};  ///< mini-block chunks decompressed
  std::atomic<uint64_t> plan_ns{0};         ///< planning and metadata rounds (incl. their waits), ns
  std::atomic<uint64_t> io_wait_ns{0};      ///< waiting for data reads, ns
  std::atomic<uint64_t> decode_ns{0};       ///< decompression and assembly, ns
  // What was read (dataset::Dataset::open)
  std::atomic<uint64_t> dataset_version{0};  ///< version of the dataset opened; 0 = none (a single data file)
};

}  // namespace lance
