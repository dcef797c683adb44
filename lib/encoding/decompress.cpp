// Dispatch from a `CompressiveEncoding` tree to the per-encoding decoders, per context
// (docs/format.md §6.0), through each encoding's row of the registry (registry.h): an
// encoding with no decoder for a context is refused here, naming it and the context.
#include "encoding/decompress.h"

#include <cstring>

#include <optional>

#include "common/proto_unknown.h"
#include "common/recycled.h"
#include "encoding/bitpacking.h"
#include "encoding/registry.h"
#include "encoding/rle.h"
#include "encoding/sizes.h"
#include "encoding/variable.h"

namespace lance::encoding {
namespace {

enum class Context { miniblock, block, fixed_per_value, variable_per_value };

const char* context_phrase(Context c) {
  switch (c) {
    case Context::miniblock:
      return "a mini-block chunk";
    case Context::block:
      return "a block buffer";
    case Context::fixed_per_value:
      return "a fixed-width full-zip value";
    case Context::variable_per_value:
      return "a variable-width full-zip value";
  }
  return "an unknown context";
}

[[noreturn]] void unsupported_in(const pb::CompressiveEncoding& enc, Context ctx) {
  if (enc.compression_case() == pb::CompressiveEncoding::COMPRESSION_NOT_SET) {
    // A oneof member newer than our .proto parses as an unknown field.
    if (const uint32_t field = first_unknown_field(enc)) {
      throw_unsupported("unknown encoding (field {} of CompressiveEncoding) in {} is not supported", field,
                        context_phrase(ctx));
    }
    throw_corrupt("an encoding with no compression set in {}", context_phrase(ctx));
  }
  throw_unsupported("{} encoding in {} is not supported", encoding_name(enc), context_phrase(ctx));
}

/// The decoder `Member` of `enc`'s row, or the "unsupported" error of context `ctx`.
template <auto Member>
auto decoder_for(const pb::CompressiveEncoding& enc, Context ctx) {
  const EncodingRow* row = find_encoding(enc.compression_case());
  if (!row || !(row->*Member)) unsupported_in(enc, ctx);
  return row->*Member;
}

}  // namespace

const char* encoding_name(const pb::CompressiveEncoding& enc) {
  if (const EncodingRow* row = find_encoding(enc.compression_case())) return row->name;
  return enc.compression_case() == pb::CompressiveEncoding::COMPRESSION_NOT_SET ? "(unset)" : "(unknown)";
}

DataBlock decode_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers, uint64_t num_values) {
  return decoder_for<&EncodingRow::miniblock>(enc, Context::miniblock)(enc, buffers, num_values);
}

std::optional<DataBlock> decode_miniblock_ranges(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                                 uint64_t num_values, std::span<const ValueRange> ranges) {
  const EncodingRow* row = find_encoding(enc.compression_case());
  if (!row || !row->miniblock_ranges) return std::nullopt;
  for (const ValueRange& r : ranges)
    check_corrupt(r.begin <= r.end && r.end <= num_values, "values [{}, {}) outside a chunk of {}", r.begin, r.end,
                  num_values);
  return row->miniblock_ranges(enc, buffers, num_values, ranges);
}

DataBlock decode_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values) {
  return decoder_for<&EncodingRow::block>(enc, Context::block)(enc, buffer, num_values);
}

DataBlock decode_fixed_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped) {
  check_corrupt(!zipped.is_variable(), "fixed-width full-zip values arrived as variable-width data");
  return decoder_for<&EncodingRow::fixed_per_value>(enc, Context::fixed_per_value)(enc, std::move(zipped));
}

DataBlock decode_variable_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped) {
  check_corrupt(zipped.is_variable(), "variable-width full-zip values arrived as fixed-width data");
  validate_variable_block(zipped);
  return decoder_for<&EncodingRow::variable_per_value>(enc, Context::variable_per_value)(enc, std::move(zipped));
}

std::vector<uint16_t> decode_levels(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_levels) {
  // From this thread's recycled vectors: a mini-block page decodes levels for every chunk
  // (common/recycled.h; DecodedChunks gives them back).
  std::vector<uint16_t> levels = Recycled<uint16_t>::take(num_levels);
  if (out_of_line_bitpacking_u16(enc, buffer, num_levels, levels)) return levels;
  if (rle_levels_u16(enc, buffer, num_levels, levels)) return levels;
  const DataBlock block = decode_block(enc, buffer, num_levels);
  check_corrupt(!block.all_null && !block.is_variable(), "levels did not decode to fixed-width integers");
  check_corrupt(block.num_values == num_levels, "levels decoded {} values, expected {}", block.num_values, num_levels);
  const uint64_t bits = block.bits_per_value;
  if (!is_word_width(bits)) throw_unsupported("{}-bit levels are not supported", bits);
  const uint64_t width = bits / 8;
  check_corrupt(block.data.size() >= num_levels * width, "levels: {} bytes for {} levels of {} bits", block.data.size(),
                num_levels, bits);
  levels.resize(num_levels);
  if (width == 2) {  // the usual case: u16 levels, copied in one go
    if (num_levels) std::memcpy(levels.data(), block.data.data(), num_levels * 2);
    return levels;
  }
  if (width == 1) {
    for (uint64_t i = 0; i < num_levels; ++i) levels[i] = block.data[i];
    return levels;
  }
  ByteView data(block.data);
  for (uint64_t i = 0; i < num_levels; ++i) {
    uint64_t v = 0;
    switch (width) {
      case 1:
        v = block.data[i];
        break;
      case 2:
        v = data.read<uint16_t>(i * 2);
        break;
      case 4:
        v = data.read<uint32_t>(i * 4);
        break;
      default:
        v = data.read<uint64_t>(i * 8);
        break;
    }
    check_corrupt(v <= UINT16_MAX, "level {} is {}, above the u16 range", i, v);
    levels[i] = static_cast<uint16_t>(v);
  }
  return levels;
}

std::optional<uint64_t> infer_block_num_values(const pb::CompressiveEncoding& enc, ByteView buffer) {
  const EncodingRow* row = find_encoding(enc.compression_case());
  if (!row || !row->block_num_values) return std::nullopt;
  return row->block_num_values(enc, buffer);
}

std::optional<uint64_t> count_by_size(const pb::CompressiveEncoding& enc, ByteView buffer) {
  const EncodingRow* row = find_encoding(enc.compression_case());
  if (!row || !row->count_by_size) return std::nullopt;
  return row->count_by_size(enc, buffer);
}

}  // namespace lance::encoding
