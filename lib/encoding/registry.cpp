#include "encoding/registry.h"

#include <array>

#include "encoding/bitpacking.h"
#include "encoding/byte_stream_split.h"
#include "encoding/constant.h"
#include "encoding/fixed_size_list.h"
#include "encoding/flat.h"
#include "encoding/fsst.h"
#include "encoding/general.h"
#include "encoding/packed_struct.h"
#include "encoding/rle.h"
#include "encoding/sizes.h"
#include "encoding/variable.h"

namespace lance::encoding {
namespace {

using Case = EncodingCase;

/// One row per case of the `CompressiveEncoding` oneof, in its order.
constexpr EncodingRow kRows[] = {
    {.kind = Case::kFlat,
     .name = "Flat",
     .describe = describe_flat,
     .miniblock = flat_miniblock,
     .miniblock_ranges = flat_miniblock_ranges,
     .block = flat_block,
     .fixed_per_value = flat_fixed_per_value,
     .count_by_size = flat_count_by_size},
    {.kind = Case::kVariable,
     .name = "Variable",
     .describe = describe_variable,
     .miniblock = variable_miniblock,
     .miniblock_ranges = variable_miniblock_ranges,
     .block = variable_block,
     .variable_per_value = variable_variable_per_value},
    {.kind = Case::kConstant,
     .name = "Constant",
     .describe = describe_constant,
     .block = constant_block,
     .fixed_per_value = constant_fixed_per_value},
    {.kind = Case::kOutOfLineBitpacking,
     .name = "OutOfLineBitpacking",
     .describe = describe_out_of_line_bitpacking,
     .block = out_of_line_bitpacking_block},
    {.kind = Case::kInlineBitpacking,
     .name = "InlineBitpacking",
     .describe = describe_inline_bitpacking,
     .miniblock = inline_bitpacking_miniblock,
     .miniblock_ranges = inline_bitpacking_miniblock_ranges,
     .block = inline_bitpacking_block},
    {.kind = Case::kFsst,
     .name = "Fsst",
     .describe = describe_fsst,
     .miniblock = fsst_miniblock,
     .miniblock_ranges = fsst_miniblock_ranges,
     .variable_per_value = fsst_variable_per_value},
    {.kind = Case::kDictionary, .name = "Dictionary", .describe = describe_dictionary},
    {.kind = Case::kRle,
     .name = "Rle",
     .describe = describe_rle,
     .miniblock = rle_miniblock,
     .block = rle_block,
     .block_num_values = rle_block_num_values},
    {.kind = Case::kByteStreamSplit,
     .name = "ByteStreamSplit",
     .describe = describe_byte_stream_split,
     .miniblock = byte_stream_split_miniblock},
    {.kind = Case::kGeneral,
     .name = "General",
     .describe = describe_general,
     .miniblock = general_miniblock,
     .block = general_block,
     .variable_per_value = general_variable_per_value,
     .block_num_values = general_block_num_values,
     .count_by_size = general_count_by_size},
    {.kind = Case::kFixedSizeList,
     .name = "FixedSizeList",
     .describe = describe_fixed_size_list,
     .miniblock = fixed_size_list_miniblock,
     .block = fixed_size_list_block,
     .fixed_per_value = fixed_size_list_fixed_per_value},
    {.kind = Case::kPackedStruct,
     .name = "PackedStruct",
     .describe = describe_packed_struct,
     .miniblock = packed_struct_miniblock},
    {.kind = Case::kVariablePackedStruct,
     .name = "VariablePackedStruct",
     .describe = describe_variable_packed_struct,
     .variable_per_value = variable_packed_struct_variable_per_value},
    {.kind = Case::kRange, .name = "Range", .describe = describe_range},
    {.kind = Case::kDelta, .name = "Delta", .describe = describe_delta},
};

/// Above every case number of the oneof (field numbers, 1 to 15 today).
constexpr size_t kMaxCase = 64;

/// The rows by case number.
const std::array<const EncodingRow*, kMaxCase>& rows_by_case() {
  static const std::array<const EncodingRow*, kMaxCase> table = [] {
    std::array<const EncodingRow*, kMaxCase> t{};
    for (const EncodingRow& row : kRows) {
      const auto k = static_cast<size_t>(row.kind);
      if (k >= kMaxCase || t[k]) throw_internal("encoding registry: case {} out of range or listed twice", k);
      t[k] = &row;
    }
    return t;
  }();
  return table;
}

}  // namespace

const EncodingRow* find_encoding(EncodingCase kind) {
  const auto k = static_cast<size_t>(kind);
  return k < kMaxCase ? rows_by_case()[k] : nullptr;
}

std::span<const EncodingRow> encoding_rows() { return kRows; }

const pb::CompressiveEncoding& require(bool present, const pb::CompressiveEncoding& child, const char* what) {
  check_corrupt(present, "{} is missing", what);
  return child;
}

uint64_t flat_bits(const pb::CompressiveEncoding& enc, const char* what) {
  if (enc.compression_case() != Case::kFlat) {
    throw_unsupported("{} encoded as {} is not supported (only Flat)", what, encoding_name(enc));
  }
  return enc.flat().bits_per_value();
}

void reject_buffer_compression(bool present, const pb::BufferCompression& bc, const char* what) {
  if (present && bc.scheme() != pb::COMPRESSION_ALGORITHM_UNSPECIFIED) {
    throw_unsupported("{} with its own buffer compression is not supported", what);
  }
}

unsigned word_bits_of(uint64_t bits, const char* what) {
  if (!is_word_width(bits)) throw_unsupported("{} of {}-bit values is not supported", what, bits);
  return static_cast<unsigned>(bits);
}

DataBlock fixed_block(uint64_t num_values, uint64_t bits, Bytes data) {
  DataBlock block;
  block.num_values = num_values;
  block.bits_per_value = bits;
  block.data = std::move(data);
  return block;
}

void check_buffer_count(std::span<const ByteView> buffers, size_t expected, const char* what) {
  check_corrupt(buffers.size() == expected, "{} expects {} buffer(s) per chunk, got {}", what, expected,
                buffers.size());
}

}  // namespace lance::encoding
