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
  std::vector<uint8_t> valid;    ///< one flag per slot (1 = valid); empty when !has_nulls
  std::vector<int64_t> offsets;  ///< lists: num_slots + 1 offsets into the next layer's slots
  bool has_nulls = false;
};

/// What a column's layers make of its levels, worked out once per column (like Arrow's
/// `LevelInfo`) and then applied to every batch of its levels by `unravel`. Building one never
/// throws: layers `unravel` cannot use (an unknown kind, more than it supports) are refused by
/// `unravel`, in the order it checks its input.
///
/// What a level does depends only on its (rep, def) pair, so the effect of every pair is
/// worked out here, into `code`: per pair and layer, bit 0 = the level makes a slot there,
/// bit 1 = that slot is valid. Pairs out of range (rep above max_rep, def above max_def) get a
/// row of their own, marked bad. `unravel` then reads the levels as pair numbers, once per
/// layer, with no branch per level.
struct LevelPlan {
  /// What one layer's def values mean (outermost first): the def values that mean null /
  /// empty here, the highest def that is still "valid at this layer", and for lists their
  /// depth (innermost = 1).
  struct Layer {
    bool is_list = false;
    int null_def = -1, empty_def = -1;
    int valid_max = 0;
    int depth = 0;
  };

  explicit LevelPlan(std::vector<RepDefLayer> inner_first);

  std::vector<RepDefLayer> inner_first;  ///< the layers as stored, innermost first
  bool any_list = false;
  /// Index (in `inner_first`) of the first layer of an unknown kind, or -1. Then the fields
  /// below are empty.
  int unknown_layer = -1;
  /// Whether there are more layers than `unravel` supports. Then the fields below are empty.
  bool too_many_layers = false;

  std::vector<Layer> layers;  ///< outermost first
  int max_rep = 0, max_def = 0;
  size_t reps = 0, defs = 0;  ///< table dimensions: max_rep + 2 by max_def + 2 pairs
  /// Per pair (rep * defs + def), layers.size() + 1 bytes: the slot/valid bits of each
  /// layer, then a last one that is never a slot (a list's child count stops there).
  std::vector<uint8_t> code;
  std::vector<int> bad_layer;  ///< per pair: the layer where its def has no meaning, or -1

  size_t num_layers() const { return inner_first.size(); }
  size_t num_pairs() const { return reps * defs; }
  bool out_of_range(size_t pair) const {
    return pair / defs > static_cast<size_t>(max_rep) || pair % defs > static_cast<size_t>(max_def);
  }
};

/// Unravels levels for `plan`'s layers into per-layer slots, outermost first. `rep`/`def`
/// may be empty (all zero); then there are `num_levels` entries. Throws Error(corrupt) for
/// levels that do not fit the layers (a rep above the number of list layers, a def above
/// the highest meaning, a row continuing before any row started). The innermost layer's
/// `num_slots` is the number of visible values.
std::vector<LayerSlots> unravel(const LevelPlan& plan, const std::vector<uint16_t>& rep,
                                const std::vector<uint16_t>& def, uint64_t num_levels);

/// The same for `layers` (innermost first, as stored), with a plan built for this call.
std::vector<LayerSlots> unravel(const std::vector<RepDefLayer>& layers, const std::vector<uint16_t>& rep,
                                const std::vector<uint16_t>& def, uint64_t num_levels);

}  // namespace lance::structural
