// ByteStreamSplit (docs/format.md §6.8): inside a chunk of n values of `bytes_per_value`
// bytes, byte j of value i is stored at j·n + i (all first bytes, then all second bytes…).
#pragma once

#include <cstdint>

#include "common/bytes.h"
#include "encoding/registry.h"

namespace lance::encoding {

/// Re-interleaves `num_values` values. `split` must hold exactly n·bytes_per_value bytes.
Bytes byte_stream_unsplit(ByteView split, uint64_t bytes_per_value, uint64_t num_values);

// ByteStreamSplit's row of the encoding registry (registry.h).
DataBlock byte_stream_split_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                      uint64_t num_values);
std::string describe_byte_stream_split(const pb::CompressiveEncoding& enc);

}  // namespace lance::encoding
