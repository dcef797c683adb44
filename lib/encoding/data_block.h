// The value of a compressive decoder: a block of fixed- or variable-width values.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/bytes.h"
#include "common/small_vector.h"

namespace lance::encoding {

/// Values produced by a compressive decoder (section 6 of docs/format.md).
///
/// Fixed width (`bits_per_offset == 0`): `data` holds `num_values` values of
/// `bits_per_value` bits each, little-endian, back to back (1 bit = LSB-first bitmap).
///
/// Variable width (`bits_per_offset` = 32 or 64): `offsets` holds `num_values + 1`
/// unsigned offsets of that width into `data`; value i is `data[offsets[i], offsets[i+1])`.
/// `offsets[0]` need not be 0.
///
/// Fixed-size lists (`FixedSizeList` encodings): `data` holds the flattened items
/// (`bits_per_value` is the item width and `num_values` counts rows), `fsl_dims` lists the
/// layers' dimensions outer first, and `fsl_validity` holds one LSB-first item-validity
/// bitmap per layer that has validity (empty Bytes for a layer without), outer first.
///
/// Packed structs (`PackedStruct`): `data` holds row-major rows of `bits_per_value` bits
/// (the sum of `packed_child_bits`).
///
/// Variable packed structs (`VariablePackedStruct`, full-zip only): `children` holds one
/// decoded block per struct field, each of `num_values` values; `data`/`offsets` are empty.
///
/// All null (`Constant` without a value): `all_null` is set, `num_values` counts the slots
/// and there is no data.
///
/// The FixedSizeList shape lives inline for up to four layers: a mini-block page decodes one
/// block per chunk, and two heap allocations per chunk for it were a tenth of a nested scan's
/// calls to malloc, whose one lock the decoding threads share.
struct DataBlock {
  uint64_t num_values = 0;
  uint64_t bits_per_value = 0;
  uint32_t bits_per_offset = 0;
  Bytes data;
  Bytes offsets;
  SmallVector<uint64_t, 4> fsl_dims;
  SmallVector<Bytes, 4> fsl_validity;
  std::vector<uint64_t> packed_child_bits;
  std::vector<DataBlock> children;
  bool all_null = false;

  bool is_variable() const { return bits_per_offset != 0; }

  /// Offset `i` of a variable-width block, whatever its width.
  uint64_t offset(uint64_t i) const {
    return bits_per_offset == 32 ? ByteView(offsets).read<uint32_t>(i * 4) : ByteView(offsets).read<uint64_t>(i * 8);
  }
};

// std::vector<DataBlock> (and of structs holding one) moves its elements when it grows only
// if this holds; otherwise it copies every decoded page.
static_assert(std::is_nothrow_move_constructible_v<DataBlock>);

}  // namespace lance::encoding
