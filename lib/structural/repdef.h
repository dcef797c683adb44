// Repetition/definition levels → per-layer slots, validity and list offsets
// (docs/format.md §5.2). A pure function with no I/O; `assemble.h` builds arrays from it.
//
// Worked example — `list<int32>` (nullable items, null and empty lists), layers innermost
// first `[NULLABLE_ITEM, NULL_AND_EMPTY_LIST]`, so def 1 = null item, 2 = null list,
// 3 = empty list, and rep 1 (= max_rep) starts a row:
//
//   rows:   [1, 2]   null   [null, 5]   []
//   rep:    1  0     1      1     0     1
//   def:    0  0     2      1     0     3
//
// unravel() numbers layers outermost first, so layer 0 is the list, layer 1 the item:
//
//   layer 0 (list):  4 slots, valid = 1 0 1 1, offsets = 0 2 2 4 4
//   layer 1 (item):  4 slots, valid = 1 1 0 1   (one per visible value)
//
// and the leaf's 4 value slots (1, 2, garbage, 5) line up with layer 1's slots.
//
// tests/test_repdef.cpp has a hand-written level sequence for every layer kind (and
// struct/list mixes); bench/bench_repdef.cpp times unravel (target bench_repdef).
#pragma once

#include <cstdint>
#include <vector>

#include "structural/leaf_data.h"

namespace lance::structural {

/// The result for one layer (outermost first).
struct LayerSlots {
  bool is_list = false;
  uint64_t num_slots = 0;
  std::vector<uint8_t> valid;    ///< one flag per slot (1 = valid)
  std::vector<int64_t> offsets;  ///< lists: num_slots + 1 offsets into the next layer's slots
  bool has_nulls = false;
};

/// Unravels levels for `layers` (innermost first, as stored) into per-layer slots,
/// outermost first. `rep`/`def` may be empty (all zero); then there are `num_levels`
/// entries. Throws Error(corrupt) for levels that do not fit the layers (a rep above the
/// number of list layers, a def above the highest meaning, a row continuing before any
/// row started). The innermost layer's `num_slots` is the number of visible values.
std::vector<LayerSlots> unravel(const std::vector<RepDefLayer>& layers, const std::vector<uint16_t>& rep,
                                const std::vector<uint16_t>& def, uint64_t num_levels);

}  // namespace lance::structural
