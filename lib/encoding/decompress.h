// Entry points of the compressive decoders: one function per context in which Lance
// uses a `CompressiveEncoding` tree (docs/format.md §6.0). They dispatch through the
// encoding registry (registry.h) to the per-encoding files in this folder. They never
// do I/O and know nothing of rows or pages; errors are `Error`s (unsupported encodings
// → kind unsupported naming the encoding; malformed buffers → kind corrupt).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "encoding/data_block.h"
#include "encodings_v2_1.pb.h"

namespace lance::encoding {

namespace pb = ::lance::encodings21;

/// Mini-block context: decodes one chunk's value buffers (`buffers.size()` equals the
/// layout's `num_buffers`) into `num_values` values.
DataBlock decode_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers, uint64_t num_values);

/// Values [begin, end) of a block (indices into its values).
struct ValueRange {
  uint64_t begin = 0;
  uint64_t end = 0;
};

/// Mini-block context, some values: those of `ranges` (each within the chunk's `num_values`,
/// in the order given, overlaps allowed) of one chunk, back to back in one block of the
/// chunk's kind (fixed-width, or variable with offsets from 0). Only they are decoded: a
/// take's row needs one value of a chunk, not its 1024. nullopt when the encoding has no
/// such decoder (Flat of whole bytes, InlineBitpacking of one 1024-value block, Variable
/// and Fsst over Variable have one); decode_miniblock then decodes the chunk whole. Corrupt
/// buffers and out-of-range ranges are corrupt-file errors, as for decode_miniblock.
std::optional<DataBlock> decode_miniblock_ranges(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                                 uint64_t num_values, std::span<const ValueRange> ranges);

/// Block context (rep/def levels, mini-block dictionaries, constant-layout levels):
/// decodes one whole buffer into `num_values` values.
DataBlock decode_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values);

/// Full-zip fixed-width context: `zipped` holds `num_values` compressed values of the
/// layout's `bits_per_value` each, back to back; returns the decompressed values.
DataBlock decode_fixed_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped);

/// Full-zip variable-width context: `zipped` is a variable block of compressed values
/// (64-bit offsets); returns the decompressed values.
DataBlock decode_variable_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped);

/// Rep or def levels of one block: decodes `buffer` with `enc` (block context) and
/// widens the result to u16 levels. `num_levels` values are returned.
std::vector<uint16_t> decode_levels(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_levels);

/// For block encodings whose buffer records its own value count (block-form Rle, possibly
/// under General), that count (the sum of the run lengths); otherwise nullopt. Lets a
/// caller resolve a mini-block `num_levels` header that wrapped modulo 65536 (docs/format.md
/// 5.3) before calling `decode_levels`.
std::optional<uint64_t> infer_block_num_values(const pb::CompressiveEncoding& enc, ByteView buffer);

/// The name of the encoding at the root of `enc` ("Flat", "Rle", …; "(unset)" if empty).
const char* encoding_name(const pb::CompressiveEncoding& enc);

/// A one-line description of an encoding tree for error messages and `inspect`,
/// e.g. "General(zstd) › Variable(offsets: Flat(32))".
std::string describe(const pb::CompressiveEncoding& enc);

}  // namespace lance::encoding
