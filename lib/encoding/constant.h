// Constant (docs/format.md §6.3): the encoding's own `value` bytes are the value of every
// slot; no value bytes at all means every slot is null.
#pragma once

#include <cstdint>
#include <optional>

#include "common/bytes.h"
#include "encoding/data_block.h"

namespace lance::encoding {

/// `num_values` copies of `scalar` (its size × 8 bits each), or, without a scalar, an
/// all-null block (`all_null` set, no data).
DataBlock expand_constant(std::optional<ByteView> scalar, uint64_t num_values);

}  // namespace lance::encoding
