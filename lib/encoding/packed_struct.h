// Packed structs (docs/format.md §6.10).
//
// PackedStruct: fixed-width children concatenated per row (row-major); the rows are a
// fixed-width block of Σ child bits, stored with the `values` encoding (Flat in practice).
//
// VariablePackedStruct (full-zip only): each row (one variable-width value) is, for each
// field in order, either a fixed child's `bits_per_value/8` bytes or a variable child's
// length prefix (`bits_per_length` 32/64) followed by that many bytes. Each field's bytes
// are still compressed with that field's own per-value encoding.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/bytes.h"
#include "encoding/data_block.h"
#include "encoding/registry.h"

namespace lance::encoding {

/// Checks that `rows` (a decoded PackedStruct `values` block) has Σ `child_bits` bits per
/// row, all byte-aligned, and records the child widths in it.
DataBlock finish_packed_struct(DataBlock rows, std::span<const uint64_t> child_bits);

/// One VariablePackedStruct field: fixed (`bits` per value) or variable (`bits`-wide length).
struct PackedField {
  bool variable = false;
  uint64_t bits = 0;
};

/// Splits the rows of a variable block into one raw block per field: fixed fields become
/// fixed-width blocks of `bits`; variable fields become variable blocks whose offsets are
/// `bits` wide. An empty row (a null placeholder) gives zero bytes / an empty value to
/// every field. Throws corrupt when a row does not parse exactly.
std::vector<DataBlock> split_variable_packed_rows(const DataBlock& rows, std::span<const PackedField> fields);

// The rows of PackedStruct and VariablePackedStruct in the encoding registry (registry.h).
DataBlock packed_struct_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                  uint64_t num_values);
std::string describe_packed_struct(const pb::CompressiveEncoding& enc);
/// Splits the rows into fields, then decodes each field with its own per-value encoding.
DataBlock variable_packed_struct_variable_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped);
std::string describe_variable_packed_struct(const pb::CompressiveEncoding& enc);

}  // namespace lance::encoding
