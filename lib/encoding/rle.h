// Run-length decoding (docs/format.md §6.6).
//
// Runs are two parallel arrays: run values (`value_bits` wide: 8/16/32/64) and run
// lengths (unsigned, `length_bits` wide: 8 in every file Lance 8.0 writes; 16/32 accepted
// for newer writers). Runs longer than the length type allows are split by the writer.
#pragma once

#include <cstdint>
#include <vector>

#include "common/bytes.h"
#include "encoding/registry.h"

namespace lance::encoding {

/// Expands runs into `num_values` values of `value_bits` bits.
///
/// `clamp_overflow` is the mini-block rule: the last run of a chunk may claim more values
/// than remain (legacy writers rolled chunks back to a power-of-two boundary after a run
/// crossed it), so expansion stops at `num_values` and later runs are ignored. Without it
/// (block form) the run lengths must sum to exactly `num_values`.
/// Zero-length runs are skipped. Throws corrupt when the runs cover fewer values.
Bytes rle_expand(ByteView values, ByteView run_lengths, unsigned value_bits, unsigned length_bits, uint64_t num_values,
                 bool clamp_overflow);

/// The two parts of a block-form RLE buffer: `[u64 LE values byte length][values][lengths]`.
struct RleBlockParts {
  ByteView values;
  ByteView run_lengths;
};

/// Splits a block-form RLE buffer; throws corrupt when the header overruns it.
RleBlockParts split_rle_block(ByteView buffer);

/// Sum of the run lengths (the number of values the runs encode, without clamping).
uint64_t rle_total_length(ByteView run_lengths, unsigned length_bits);

// Rle's row of the encoding registry (registry.h). Its children (run values, run lengths)
// are plain Flat, or any fixed-width encoding when one of them states the run count.
DataBlock rle_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers, uint64_t num_values);
DataBlock rle_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values);
/// The sum of the run lengths of a block-form buffer.
std::optional<uint64_t> rle_block_num_values(const pb::CompressiveEncoding& enc, ByteView buffer);
std::string describe_rle(const pb::CompressiveEncoding& enc);

/// Levels (repetition or definition, docs/format.md §5.2) stored as block-form `Rle` of 16-bit
/// Flat values and Flat run lengths, as Lance 2.2 writes them, expanded straight into `levels`
/// (resized to `num_levels`): decode_levels' path without a temporary block, one allocation
/// and one copy less per level buffer of every mini-block chunk. Returns false, leaving
/// `levels` as it was, for any other encoding; throws like rle_block otherwise, the count
/// checked against the decode limit before anything is allocated.
bool rle_levels_u16(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_levels,
                    std::vector<uint16_t>& levels);

}  // namespace lance::encoding
