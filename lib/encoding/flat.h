// Flat (docs/format.md §6.1): `num_values` values of `bits_per_value` bits back to back
// (1 bit = LSB-first bitmap). The same bytes in every context.
#pragma once

#include <cstdint>

#include "common/bytes.h"
#include "encoding/data_block.h"

namespace lance::encoding {

/// Copies the first ⌈n·bits/8⌉ bytes of `buffer` into a fixed-width block; bytes beyond
/// them are ignored. Throws corrupt when the buffer is shorter.
DataBlock decode_flat(ByteView buffer, uint64_t bits_per_value, uint64_t num_values);

}  // namespace lance::encoding
