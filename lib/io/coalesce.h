// Pure planning of physical reads: merging nearby byte ranges and splitting large ones.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace lance::io {

/// A byte range of a file: [offset, offset + length).
struct ByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;
  uint64_t end() const { return offset + length; }
  bool operator==(const ByteRange&) const = default;
};

/// A part of a physical read that is wanted: file bytes [offset, offset + length), to be
/// stored at `out`. Reads that span holes (coalesced) keep only their extents
/// (RandomAccessFile::read_extents).
struct ReadExtent {
  uint64_t offset = 0;
  uint64_t length = 0;
  uint8_t* out = nullptr;
  uint64_t end() const { return offset + length; }
};

/// Copies the parts of `extents` (sorted by offset; they may overlap) that lie in the bytes
/// `data` = file bytes [at, at + n) to their `out`. `cursor` (start at 0, keep between calls
/// for consecutive pieces of one read) skips the extents wholly before `at`.
void copy_into_extents(std::span<const ReadExtent> extents, uint64_t at, const uint8_t* data, uint64_t n,
                       size_t& cursor);

/// One physical read and the caller ranges it serves.
struct PlannedRead {
  ByteRange range;
  /// Indices into the caller's range list of the ranges that lie (partly) in this read.
  std::vector<size_t> serves;
};

/// Plans the reads for `ranges` (any order, may overlap, may be empty or zero-length):
/// sorts them, merges neighbours whose gap is ≤ `block_size` bytes (a hole that small is
/// cheaper to read through than to seek over), then splits any merged read longer than
/// `max_iop_size` into pieces of at most that size. Zero-length ranges need no read and
/// appear in no `serves` list. Every non-empty caller range is covered by the union of
/// the reads that list it.
std::vector<PlannedRead> plan_reads(std::span<const ByteRange> ranges, uint64_t block_size, uint64_t max_iop_size);

}  // namespace lance::io
