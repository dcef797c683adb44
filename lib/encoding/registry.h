// The encoding registry: one row per compressive encoding (a case of `CompressiveEncoding`,
// docs/format.md §6), saying what lance-cli does with it in each context in which Lance uses
// one (decompress.h): its name, its description, and its decoder per context, or none where
// the encoding cannot appear (the entry points of decompress.h then throw "unsupported",
// naming it and the context).
//
// Each encoding's file (flat.{h,cpp}, rle.{h,cpp}, …) holds its byte-level kernels and, in a
// section of its own, the functions of its row: they read the encoding's protobuf message,
// check it, and call the kernels (and, for wrappers, the entry points of decompress.h on the
// child encodings). The rows are in registry.cpp; adding an encoding is its file plus a row.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "common/bytes.h"
#include "encoding/data_block.h"
#include "encoding/decompress.h"
#include "encodings_v2_1.pb.h"

namespace lance::encoding {

using EncodingCase = pb::CompressiveEncoding::CompressionCase;

/// What lance-cli does with one encoding. Null functions: not supported there.
struct EncodingRow {
  EncodingCase kind = pb::CompressiveEncoding::COMPRESSION_NOT_SET;
  /// Its name in messages and `inspect` ("Flat", "Rle", …): `encoding_name`.
  const char* name = nullptr;
  /// `describe`: a one-line rendering of a tree rooted at this encoding.
  std::string (*describe)(const pb::CompressiveEncoding& enc) = nullptr;

  // Its decoder in each context: the implementations of the entry points of decompress.h.
  /// `decode_miniblock`: one mini-block chunk's buffers → `num_values` values.
  DataBlock (*miniblock)(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                         uint64_t num_values) = nullptr;
  /// `decode_miniblock_ranges`: some values of one chunk (ranges checked to lie within
  /// `num_values`), or nullopt where this encoding's buffers do not allow it.
  std::optional<DataBlock> (*miniblock_ranges)(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                               uint64_t num_values, std::span<const ValueRange> ranges) = nullptr;
  /// `decode_block`: one whole buffer → `num_values` values.
  DataBlock (*block)(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values) = nullptr;
  /// `decode_fixed_per_value`: full-zip fixed-width values (checked to be fixed-width).
  DataBlock (*fixed_per_value)(const pb::CompressiveEncoding& enc, DataBlock zipped) = nullptr;
  /// `decode_variable_per_value`: full-zip variable-width values (checked and validated).
  DataBlock (*variable_per_value)(const pb::CompressiveEncoding& enc, DataBlock zipped) = nullptr;

  // What a buffer of this encoding says of its own value count, where it says it.
  /// `infer_block_num_values`: the count a block-context buffer records (block-form Rle).
  std::optional<uint64_t> (*block_num_values)(const pb::CompressiveEncoding& enc, ByteView buffer) = nullptr;
  /// `count_by_size`: the count a buffer holds by its size alone (Flat words); Rle asks its
  /// children for the run count this way.
  std::optional<uint64_t> (*count_by_size)(const pb::CompressiveEncoding& enc, ByteView buffer) = nullptr;
};

/// The row of `kind`, or null (COMPRESSION_NOT_SET, or a case newer than our .proto).
const EncodingRow* find_encoding(EncodingCase kind);

/// Every row, in the order of the `CompressiveEncoding` oneof.
std::span<const EncodingRow> encoding_rows();

/// How many values `buffer` holds by its size alone when `enc` says so (its row's
/// `count_by_size`), else nullopt.
std::optional<uint64_t> count_by_size(const pb::CompressiveEncoding& enc, ByteView buffer);

// ------------------------------------------------------------------------------------
// Shared by the rows' functions (registry.cpp)
// ------------------------------------------------------------------------------------

/// The child encoding `child`, or a corrupt-file error "`what` is missing".
const pb::CompressiveEncoding& require(bool present, const pb::CompressiveEncoding& child, const char* what);

/// The bit width of a child that must be `Flat` (else unsupported, naming `what`).
uint64_t flat_bits(const pb::CompressiveEncoding& enc, const char* what);

/// Refuses a `BufferCompression` of its own on `what` (unsupported), when set.
void reject_buffer_compression(bool present, const pb::BufferCompression& bc, const char* what);

/// `bits` as a word width (8/16/32/64), else unsupported "`what` of N-bit values".
unsigned word_bits_of(uint64_t bits, const char* what);

/// A fixed-width block of `num_values` values of `bits` bits holding `data`.
DataBlock fixed_block(uint64_t num_values, uint64_t bits, Bytes data);

/// Checks that a mini-block chunk of `what` has `expected` buffers.
void check_buffer_count(std::span<const ByteView> buffers, size_t expected, const char* what);

// For the rows' `describe` (describe.cpp).

/// `describe(enc)` when `present`, else "?".
std::string describe_child(bool present, const pb::CompressiveEncoding& enc);
/// "lz4", "zstd", "unspecified" or "scheme N", with " level L" when set.
std::string scheme_name(const pb::BufferCompression& bc);
/// ", <scheme_name>" when `present`, else "".
std::string buffer_compression_suffix(bool present, const pb::BufferCompression& bc);

// The rows of encodings lance-cli names and describes but does not decode (describe.cpp).
std::string describe_dictionary(const pb::CompressiveEncoding& enc);
std::string describe_range(const pb::CompressiveEncoding& enc);
std::string describe_delta(const pb::CompressiveEncoding& enc);

}  // namespace lance::encoding
