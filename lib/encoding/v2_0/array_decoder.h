// Format 2.0 pages: the legacy `lance.encodings.ArrayEncoding` tree (docs/format.md §4).
//
// A 2.0 page is described by one ArrayEncoding tree whose leaves name buffers (page,
// column or file buffers, map 4.1). `decode_array` walks the tree over buffers already in
// memory and returns the page's values; it never does I/O and knows nothing of columns.
// Each encoding lives in its own file in this folder (flat.cpp, nullable.cpp, binary.cpp,
// dictionary.cpp, fsst.cpp, fixed_size_list.cpp, packed_struct.cpp, bitpacked.cpp,
// fixed_size_binary.cpp, constant.cpp, list_offsets.cpp); this header is the entry point.
//
// Usage:
//   Buffers bufs{page_views, column_views, file_views};
//   Decoded d = decode_array(*page.array_encoding, bufs, field_type, page.num_rows);
//   // d.values: fixed / variable / fixed-size-list / packed-struct DataBlock of num_rows
//   // d.valid:  one flag per row (empty: no nulls)
//
// List offsets pages (`List`) and struct header pages (`SimpleStruct`) are not values:
// they are read with `decode_list_offsets` and not at all, respectively.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "array/types.h"
#include "common/bytes.h"
#include "encoding/data_block.h"
#include "encodings_v2_0.pb.h"

namespace lance::encoding::v2_0 {

namespace pb = ::lance::encodings;

/// The bytes an encoding tree may name: the page's buffers (in `Page.buffer_offsets`
/// order), the column's buffers and the file's global buffers. A view may be empty when
/// the caller knows the tree does not reference it (see `referenced_buffers`).
struct Buffers {
  std::span<const ByteView> page;
  std::span<const ByteView> column;
  std::span<const ByteView> file;

  /// The buffer `ref` names; throws corrupt when its index is out of range.
  ByteView get(const pb::Buffer& ref) const;
};

/// Values of a page (or of one node of its tree).
///
/// `values.num_values` counts rows. Fixed-size lists keep their items flattened in
/// `values` (`fsl_dims`, `fsl_validity` as documented in data_block.h); packed structs
/// hold one block per child field in `values.children`. `valid` has one flag per row
/// (1 = valid) or is empty when no row is null. Null rows still own a slot in `values`
/// (zero bytes / an empty value).
struct Decoded {
  DataBlock values;
  std::vector<uint8_t> valid;

  bool has_nulls() const { return !valid.empty(); }
};

/// Decodes `num_rows` rows of the tree `enc`.
///
/// `type` is the Arrow type stored at this node (the field's type for a page root). It
/// decides what the format leaves implicit: how an all-null node is materialised, the
/// child widths of a packed struct, and which of the two `Dictionary` rules applies (map
/// 4.3: plain strings use u8 indices with 0 = null; an Arrow dictionary field uses 0-based
/// indices of its key width). Dictionary values come back decoded (looked up).
///
/// Throws Error(unsupported) for encodings this reader does not decode (naming them) and
/// Error(corrupt) for buffers or parameters that contradict the tree.
Decoded decode_array(const pb::ArrayEncoding& enc, const Buffers& buffers, const TypePtr& type, uint64_t num_rows);

/// One page of a list offsets column (`List` encoding, map 4.3): for each row the end of
/// its items relative to the first item this page references, and its validity.
struct ListOffsets {
  std::vector<uint64_t> ends;  ///< one per row, non-decreasing, ≤ num_items
  std::vector<uint8_t> valid;  ///< one per row (1 = valid list)
  uint64_t num_items = 0;      ///< items of the item column(s) this page references
};

/// Decodes a `List` page of `num_rows` rows. Throws corrupt when an end exceeds
/// `num_items` or the ends decrease.
ListOffsets decode_list_offsets(const pb::List& list, const Buffers& buffers, uint64_t num_rows);

/// Appends every buffer reference in the tree (so a caller can load exactly those).
void referenced_buffers(const pb::ArrayEncoding& enc, std::vector<pb::Buffer>& out);

/// Name of the root encoding ("Flat", "Nullable", … or "(unset)"), for messages.
const char* array_encoding_name(const pb::ArrayEncoding& enc);

/// One-line description of a tree, e.g. "Nullable(some_nulls, Flat(32))".
std::string describe_array_encoding(const pb::ArrayEncoding& enc);

}  // namespace lance::encoding::v2_0
