// Packed structs (`lance-encoding:packed`, docs/format.md §3.4 and 6.10): a struct stored as one
// leaf column whose values are whole struct rows. This turns such decoded values back into
// an Arrow struct array.
//
// Two value shapes arrive here:
//   - PackedStruct (mini-block): a fixed-width block of row-major rows; `packed_child_bits`
//     gives each child's width, children are concatenated in field order;
//   - VariablePackedStruct (full-zip, 2.2+): a block with one decoded child block per field
//     (`DataBlock::children`).
// Child values are never null in files Lance writes (the writer refuses packed structs with
// nulls); only the struct itself carries validity, from the leaf's levels.
#pragma once

#include <vector>

#include "array/array.h"
#include "encoding/data_block.h"

namespace lance::structural {

/// The struct array of `type` (a struct type) from one leaf column's decoded packed values,
/// with the struct's validity `valid` (one flag per value; empty = all valid). Throws
/// Error(corrupt) when the values do not match the struct's children.
ArrayPtr packed_struct_to_array(const TypePtr& type, encoding::DataBlock&& values, const std::vector<uint8_t>& valid);

/// Splits a PackedStruct block (row-major rows of Σ `packed_child_bits` bits, every child
/// a whole number of bytes) into one fixed-width block per child.
std::vector<encoding::DataBlock> split_packed_rows(const encoding::DataBlock& rows);

}  // namespace lance::structural
