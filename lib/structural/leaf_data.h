// What a page layout decoder hands upward for a range of rows of one leaf column.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "encoding/data_block.h"
#include "encodings_v2_1.pb.h"

namespace lance::structural {

using RepDefLayer = ::lance::encodings21::RepDefLayer;

/// Levels and values of a run of whole rows of one leaf column (docs/format.md §5.2).
///
/// `rep` and `def` are either empty (no repetition / no definition: every level is 0) or
/// hold one u16 per level entry. When both are empty there is one level per row and per
/// value. `values` holds the *visible* items only (null items included, null/empty lists
/// excluded), already decompressed and, for dictionary pages, looked up — unless
/// `dictionary` is set (PageContext::keep_dictionary): then `values` are fixed-width
/// unsigned indices into it.
struct LeafData {
  std::vector<RepDefLayer> layers;  ///< innermost first
  std::vector<uint16_t> rep;
  std::vector<uint16_t> def;
  encoding::DataBlock values;
  uint64_t num_rows = 0;
  /// The page dictionary `values` index (MiniBlockLayout.dictionary, decoded); null: `values`
  /// are the values themselves.
  std::shared_ptr<const encoding::DataBlock> dictionary;

  uint64_t num_levels() const { return !rep.empty() ? rep.size() : !def.empty() ? def.size() : values.num_values; }
};

// Pages decoded apart are gathered in a std::vector<LeafData>: it must move them as it grows.
static_assert(std::is_nothrow_move_constructible_v<LeafData>);

/// Number of list layers (= the highest repetition level).
int max_rep_level(const std::vector<RepDefLayer>& layers);
/// Highest definition level that still carries a value slot (docs/format.md §5.2,
/// "max_visible_def": def levels of the layers below the first list layer).
int max_visible_def(const std::vector<RepDefLayer>& layers);
/// Definition levels a layer adds (0, 1 or 2).
int def_levels_of(RepDefLayer layer);
bool is_list_layer(RepDefLayer layer);

/// Resets `leaf` to an empty LeafData, keeping the room its values' bytes and its levels
/// have (reserved by a caller: PageDecoder::size_hint).
void clear_keeping_room(LeafData& leaf);

/// Appends values [begin, end) of `src` to `dst` (same kind/width; `dst` may be empty).
void append_values(encoding::DataBlock& dst, const encoding::DataBlock& src, uint64_t begin, uint64_t end);

/// Rewrites `leaf`'s def levels for layers `to` (same structure, each layer at least as
/// permissive as before) and sets `leaf.layers = to`.
void remap_def_levels(LeafData& leaf, const std::vector<RepDefLayer>& to);

/// Replaces `leaf`'s dictionary indices by the values they name (nothing when it keeps no
/// dictionary). Throws Error(corrupt) for an index outside the dictionary.
void expand_dictionary(LeafData& leaf);

/// Appends rows of `src` (all of it) to `dst`: levels, values and row count. When both
/// keep dictionaries, they stay indices: into the same dictionary, or into one joining
/// `dst`'s and `src`'s (while it has fewer entries than the rows have values); a side
/// without one makes both expand first.
void append_leaf(LeafData& dst, LeafData&& src);

/// `append_leaf` of every piece in order, with `dst`'s buffers grown once to their final size
/// first: each byte is copied once (appending page after page regrows, and recopies, them).
void append_leaves(LeafData& dst, std::vector<LeafData>&& pieces);

}  // namespace lance::structural
