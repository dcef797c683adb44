// Variable-width values: offsets + bytes (docs/format.md §6.2).
#pragma once

#include <cstdint>

#include "common/bytes.h"
#include "encoding/data_block.h"
#include "encoding/registry.h"

namespace lance::encoding {

/// Mini-block chunk form: `chunk` starts with n+1 offsets of `offset_bits` (32 or 64)
/// bits, measured from the start of `chunk` (so offsets[0] = (n+1)·width for a writer's
/// chunk), followed by the value bytes and padding. Returns a variable block with
/// offsets of the same width rebased to 0.
DataBlock decode_variable_chunk(ByteView chunk, unsigned offset_bits, uint64_t num_values);

/// Block form (dictionaries, general-compressed blocks):
/// `[u32 32][u32 bytes_start][u32 offsets…][bytes]` or
/// `[u64 64][u64 bytes_start][u64 offsets…][bytes]`, offsets measured from `bytes_start`.
/// Also accepts the pre-release layout `[u8 bits][u32|u64 count][u32|u64 bytes_start]…`.
/// Uses the first n+1 offsets; returns offsets rebased to 0.
DataBlock decode_variable_block(ByteView buffer, uint64_t num_values);

/// Builds a variable block from n+1 offsets (`offset_bits` wide) read from `offsets`,
/// each minus `base`, that must ascend and lie in `bytes`. The result is rebased to 0
/// with the same offset width and owns only the referenced bytes.
DataBlock make_variable_block(ByteView offsets, unsigned offset_bits, uint64_t num_values, ByteView bytes,
                              uint64_t base);

/// Appends offset `o` to `block.offsets`, `block.bits_per_offset` (32 or 64) wide; a corrupt
/// error naming `what` when it does not fit 32 bits.
void push_variable_offset(DataBlock& block, uint64_t o, const char* what);

/// Checks a variable block handed in by a caller: offset width 32/64, n+1 offsets present,
/// ascending and inside `data`. Throws corrupt otherwise.
void validate_variable_block(const DataBlock& block);

// Variable's row of the encoding registry (registry.h).
DataBlock variable_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                             uint64_t num_values);
/// Some values of one chunk (decode_miniblock_ranges): only their offsets are read and
/// checked, their bytes copied; offsets as wide as the chunk's.
std::optional<DataBlock> variable_miniblock_ranges(const pb::CompressiveEncoding& enc,
                                                   std::span<const ByteView> buffers, uint64_t num_values,
                                                   std::span<const ValueRange> ranges);
/// The block form states its own offset width; the offsets child is not consulted.
DataBlock variable_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values);
/// Full-zip variable-width values stored as they are: `zipped` itself.
DataBlock variable_variable_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped);
std::string describe_variable(const pb::CompressiveEncoding& enc);

}  // namespace lance::encoding
