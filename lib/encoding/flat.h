// Flat (docs/format.md §6.1): `num_values` values of `bits_per_value` bits back to back
// (1 bit = LSB-first bitmap). The same bytes in every context.
#pragma once

#include <cstdint>

#include "common/bytes.h"
#include "encoding/data_block.h"
#include "encoding/registry.h"

namespace lance::encoding {

/// Copies the first ⌈n·bits/8⌉ bytes of `buffer` into a fixed-width block; bytes beyond
/// them are ignored. Throws corrupt when the buffer is shorter.
DataBlock decode_flat(ByteView buffer, uint64_t bits_per_value, uint64_t num_values);

// Flat's row of the encoding registry (registry.h).
DataBlock flat_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers, uint64_t num_values);
std::optional<DataBlock> flat_miniblock_ranges(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                               uint64_t num_values, std::span<const ValueRange> ranges);
DataBlock flat_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values);
/// Full-zip values: the gathered bytes themselves (no copy) when the values are whole bytes.
DataBlock flat_fixed_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped);
/// Bytes / width, for Flat of whole words without buffer compression; else nullopt.
std::optional<uint64_t> flat_count_by_size(const pb::CompressiveEncoding& enc, ByteView buffer);
std::string describe_flat(const pb::CompressiveEncoding& enc);

}  // namespace lance::encoding
