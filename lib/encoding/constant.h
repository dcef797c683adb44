// Constant (docs/format.md §6.3): the encoding's own `value` bytes are the value of every
// slot; no value bytes at all means every slot is null.
#pragma once

#include <cstdint>
#include <optional>

#include "common/bytes.h"
#include "encoding/data_block.h"
#include "encoding/registry.h"

namespace lance::encoding {

/// `num_values` copies of `scalar` (its size × 8 bits each), or, without a scalar, an
/// all-null block (`all_null` set, no data).
DataBlock expand_constant(std::optional<ByteView> scalar, uint64_t num_values);

// Constant's row of the encoding registry (registry.h).
DataBlock constant_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values);
DataBlock constant_fixed_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped);
std::string describe_constant(const pb::CompressiveEncoding& enc);

}  // namespace lance::encoding
