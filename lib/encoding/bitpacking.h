// FastLanes bit-unpacking (docs/format.md §6.4 InlineBitpacking, 6.5 OutOfLineBitpacking).
//
// Lance packs unsigned words of T = 8/16/32/64 bits in blocks of 1024 values using the
// FastLanes "transposed" layout (crate `lance-bitpacking`, a copy of spiraldb/fastlanes).
// With LANES = 1024 / T, lane l and row r (0 ≤ r < T) hold logical value
//   FL_ORDER[r / 8] * 16 + (r % 8) * 128 + l,   FL_ORDER = {0, 4, 2, 6, 1, 5, 3, 7};
// each lane's T values form an LSB-first W-bit stream whose bit r·W lives in packed word
// LANES·⌊r·W/T⌋ + l at bit (r·W) mod T (spilling into word LANES·(⌊r·W/T⌋+1) + l).
// A packed block therefore holds exactly 1024·W/T words of T bits.
//
// All functions take and return little-endian bytes; outputs hold T-bit words.
#pragma once

#include <cstdint>
#include <vector>

#include "common/bytes.h"
#include "encoding/registry.h"

namespace lance::encoding {

/// Values in one FastLanes block (and in one InlineBitpacking chunk).
inline constexpr uint64_t kFastLanesBlockValues = 1024;

/// Bytes of one packed FastLanes block of width `packed_bits` over `word_bits`-bit words.
inline constexpr uint64_t fastlanes_block_bytes(unsigned packed_bits) {
  return kFastLanesBlockValues * packed_bits / 8;
}

/// Unpacks one 1024-value block: `packed` must hold `fastlanes_block_bytes(packed_bits)`
/// bytes, `out` receives 1024 words of `word_bits` bits (1024·word_bits/8 bytes).
/// `word_bits` ∈ {8, 16, 32, 64}; `packed_bits` ≤ `word_bits` (checked by callers).
void fastlanes_unpack_block(unsigned word_bits, unsigned packed_bits, const uint8_t* packed, uint8_t* out);

/// Value `index` (< 1024) of one packed block, as `fastlanes_unpack_block` would place it,
/// without unpacking the others: its lane and row follow from the index (FL_ORDER is its own
/// inverse). Same preconditions as `fastlanes_unpack_block`.
uint64_t fastlanes_value_at(unsigned word_bits, unsigned packed_bits, const uint8_t* packed, unsigned index);

/// Decodes InlineBitpacking chunks: `buffer` is one or more chunks back to back, each
/// `[T-bit word W][1024·W/T T-bit words]`, every chunk holding 1024 values (the last one
/// zero-padded). Returns the first `num_values` values as T-bit words.
///
/// `exact` demands that the chunks fill `buffer` completely (mini-block chunks have exact
/// sizes); otherwise trailing bytes are ignored.
Bytes unpack_inline_bitpacking(ByteView buffer, unsigned word_bits, uint64_t num_values, bool exact);

/// Decodes an OutOfLineBitpacking buffer: ⌊n/1024⌋ packed blocks of width `packed_bits`
/// with no headers, then the n mod 1024 tail values either packed as a zero-padded block
/// or stored raw as T-bit words. The buffer length tells which: exactly
/// `full·block_words + tail` words means raw. Returns `num_values` T-bit words.
Bytes unpack_out_of_line_bitpacking(ByteView buffer, unsigned word_bits, unsigned packed_bits, uint64_t num_values);

/// When `enc` is OutOfLineBitpacking of 16-bit words (how Lance writes most rep/def levels),
/// decodes its block `buffer` of `num_values` values straight into `levels` (resized to
/// `num_values`) and returns true; otherwise leaves `levels` alone and returns false.
/// decode_levels' path without a temporary block (one allocation less per level buffer of every
/// mini-block chunk). Throws like out_of_line_bitpacking_block, the value count checked against
/// the decode limit before anything is allocated.
bool out_of_line_bitpacking_u16(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values,
                                std::vector<uint16_t>& levels);

// The rows of InlineBitpacking and OutOfLineBitpacking in the encoding registry (registry.h).
DataBlock inline_bitpacking_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                      uint64_t num_values);
std::optional<DataBlock> inline_bitpacking_miniblock_ranges(const pb::CompressiveEncoding& enc,
                                                            std::span<const ByteView> buffers, uint64_t num_values,
                                                            std::span<const ValueRange> ranges);
DataBlock inline_bitpacking_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values);
std::string describe_inline_bitpacking(const pb::CompressiveEncoding& enc);
DataBlock out_of_line_bitpacking_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values);
std::string describe_out_of_line_bitpacking(const pb::CompressiveEncoding& enc);

}  // namespace lance::encoding
