// A strict decoder of the portable serialization of a 32-bit roaring bitmap, the format of
// `.bin` deletion files and of IndexMetadata.fragment_bitmap. libroaring's own
// deserializer checks sizes only: a bitmap whose containers contradict themselves decodes,
// and then crashes its iterator (a fuzz finding, data/fuzz-regressions/fuzz_manifest/). This
// one checks every count, key and value against the bytes and the caller's bound.
// Format: RoaringFormatSpec (github.com/RoaringBitmap/RoaringFormatSpec): cookie 12346
// + u32 container count, or cookie 12347 | (count - 1) << 16 + a run-container bitset; per
// container u16 key, u16 cardinality - 1; u32 offsets (absent when runs are present and
// fewer than 4 containers); then each container: run (u16 count, {u16 start, u16 length - 1}...),
// bitset (8 KiB, cardinality > 4096) or array (sorted u16 values).
#pragma once

#include <cstdint>
#include <vector>

#include "common/bytes.h"

namespace lance::dataset {

struct RoaringValues {
  std::vector<uint32_t> values;  ///< ascending, unique
  uint64_t bytes_used = 0;       ///< bytes of the input the bitmap spans
};

/// Decodes the bitmap at the start of `bytes`. Throws Error(corrupt) when it is malformed or
/// holds more than `max_values` values (checked before they are stored).
RoaringValues decode_roaring_portable(ByteView bytes, uint64_t max_values);

}  // namespace lance::dataset
