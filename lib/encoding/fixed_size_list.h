// FixedSizeList flattening (docs/format.md §6.9, 5.4).
//
// Nested FixedSizeList layers (outer first) wrap a Flat item encoding. Layers with
// `has_validity` carry an LSB-first item-validity bitmap covering rows·cum_dim bits,
// where cum_dim is the product of the dimensions of that layer and all outer layers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/bytes.h"
#include "encoding/data_block.h"
#include "encoding/registry.h"

namespace lance::encoding {

/// The shape of a FixedSizeList tree.
struct FslLayout {
  SmallVector<uint64_t, 4> dims;      // outer first, each ≥ 1
  SmallVector<bool, 4> has_validity;  // one per layer
  uint64_t item_bits = 0;             // width of the innermost Flat items

  /// Product of `dims[0..=layer]` (checked against the decode limit).
  uint64_t cum_dim(size_t layer) const;
  /// Items per row (product of all dims).
  uint64_t items_per_row() const { return dims.empty() ? 1 : cum_dim(dims.size() - 1); }
  size_t validity_layers() const;
  /// Bits of one full-zip value: per validity layer ⌈cum_dim/8⌉ bytes, then the items.
  uint64_t zipped_bits_per_row() const;
};

/// Mini-block chunk: `buffers` = one validity bitmap per layer with validity (outer
/// first), then the item data. Returns a block with `fsl_dims`/`fsl_validity` filled.
DataBlock decode_fsl_miniblock(const FslLayout& layout, std::span<const ByteView> buffers, uint64_t num_rows);

/// Full-zip values: each of the `num_rows` rows is `zipped_bits_per_row()/8` bytes
/// (validity bytes of each validity layer, outer first, then the items).
DataBlock unzip_fsl_per_value(const FslLayout& layout, ByteView zipped, uint64_t num_rows);
/// Same, taking the bytes: without validity bitmaps they become the items as they are (no copy).
DataBlock unzip_fsl_per_value(const FslLayout& layout, Bytes&& zipped, uint64_t num_rows);

/// Block context (only layouts without validity): the flattened items.
DataBlock decode_fsl_block(const FslLayout& layout, ByteView buffer, uint64_t num_rows);

// FixedSizeList's row of the encoding registry (registry.h).
DataBlock fixed_size_list_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                    uint64_t num_values);
DataBlock fixed_size_list_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values);
DataBlock fixed_size_list_fixed_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped);
std::string describe_fixed_size_list(const pb::CompressiveEncoding& enc);

}  // namespace lance::encoding
