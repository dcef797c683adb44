// Internal to lib/encoding/v2_0: one function per ArrayEncoding message, each defined in
// its own file, called by the dispatcher `decode_array` (array_decoder.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "encoding/v2_0/array_decoder.h"

namespace lance::encoding::v2_0 {

// flat.cpp — Flat: values back to back, optionally one zstd/lz4 frame for the whole buffer.
Decoded decode_flat(const pb::Flat& flat, const Buffers& buffers, uint64_t num_rows);
// nullable.cpp — Nullable: no_nulls / some_nulls (validity bitmap + values) / all_nulls.
Decoded decode_nullable(const pb::Nullable& nullable, const Buffers& buffers, const TypePtr& type, uint64_t num_rows);
// binary.cpp — Binary: u64 end offsets with null adjustment, and the bytes.
Decoded decode_binary(const pb::Binary& binary, const Buffers& buffers, uint64_t num_rows);
// dictionary.cpp — Dictionary: indices into decoded items (two rules, see array_decoder.h).
Decoded decode_dictionary(const pb::Dictionary& dict, const Buffers& buffers, const TypePtr& type, uint64_t num_rows);
// fsst.cpp — Fsst: a Binary tree of FSST code streams and the symbol table.
Decoded decode_fsst(const pb::Fsst& fsst, const Buffers& buffers, const TypePtr& type, uint64_t num_rows);
// fixed_size_list.cpp — FixedSizeList: `dimension` items per row.
Decoded decode_fixed_size_list(const pb::FixedSizeList& fsl, const Buffers& buffers, const TypePtr& type,
                               uint64_t num_rows);
// Rows of `dimension` items each from `num_rows × dimension` decoded items: the items'
// validity becomes this layer's item validity (data_block.h).
Decoded wrap_fixed_size_list(Decoded items, uint64_t dimension, uint64_t num_rows);
// packed_struct.cpp — PackedStruct: row-major fixed-width children in one buffer.
Decoded decode_packed_struct(const pb::PackedStruct& packed, const Buffers& buffers, const TypePtr& type,
                             uint64_t num_rows);
// bitpacked.cpp — Bitpacked (sequential LSB-first bits) and BitpackedForNonNeg (FastLanes).
Decoded decode_bitpacked(const pb::Bitpacked& bp, const Buffers& buffers, uint64_t num_rows);
Decoded decode_bitpacked_for_non_neg(const pb::BitpackedForNonNeg& bp, const Buffers& buffers, uint64_t num_rows);
// fixed_size_binary.cpp — FixedSizeBinary: `byte_width` bytes per row, offsets synthesized.
Decoded decode_fixed_size_binary(const pb::FixedSizeBinary& fsb, const Buffers& buffers, uint64_t num_rows);
// constant.cpp — Constant: one scalar repeated.
Decoded decode_constant(const pb::Constant& constant, uint64_t num_rows);

// nullable.cpp — `num_rows` null rows of `type`, laid out like decoded values (zero bytes,
// empty strings, all-null items) so that they combine with other pages' values.
Decoded null_rows(const TypePtr& type, uint64_t num_rows);

// array_decoder.cpp — decodes `enc` as unsigned integers (8/16/32/64-bit values) widened
// to u64; `valid` receives the validity flags (empty when none is null). `what` names the
// values in messages ("Binary indices").
std::vector<uint64_t> decode_unsigned(const pb::ArrayEncoding& enc, const Buffers& buffers, uint64_t num_rows,
                                      const char* what, std::vector<uint8_t>* valid = nullptr);

// Frequently used internal types.
const TypePtr& uint8_type();
const TypePtr& uint64_type();
const TypePtr& bool_type();

}  // namespace lance::encoding::v2_0
