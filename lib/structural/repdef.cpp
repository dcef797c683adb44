#include "structural/repdef.h"

#include <algorithm>

#include "common/error.h"

namespace lance::structural {

namespace pb = ::lance::encodings21;

namespace {

/// Layers beyond this are refused (Arrow's own readers stop at 64 levels of nesting); it
/// bounds the (rep, def) table below.
constexpr size_t kMaxLayers = 64;

/// One pass over the levels' pair numbers for layer `k`: a validity flag per slot and, for
/// a list layer, the child slots before each slot (`s.offsets`, num_slots + 1 entries).
/// `s.valid` has one spare byte: every level writes its flag, only a slot moves on.
template <typename Pair>
void fill_layer(const Pair* pair, uint64_t n, const uint8_t* code, size_t stride, size_t k, LayerSlots& s) {
  uint8_t* v = s.valid.data();
  if (!s.is_list) {
    for (uint64_t e = 0; e < n; ++e) {
      const uint8_t c = code[pair[e] * stride + k];
      *v = c >> 1;
      v += c & 1;
    }
    return;
  }
  int64_t* o = s.offsets.data();
  int64_t children = 0;
  for (uint64_t e = 0; e < n; ++e) {
    const uint8_t* row = code + pair[e] * stride;
    const uint8_t c = row[k];
    *v = c >> 1;
    *o = children;
    v += c & 1;
    o += c & 1;
    children += row[k + 1] & 1;
  }
  *o = children;
}

/// The (rep, def) pair number of every level: rep * defs + def, each clamped to its table
/// row or column of out-of-range values. Empty rep means every level starts a row, empty
/// def every level valid.
template <typename Pair>
void pair_numbers(const uint16_t* rp, const uint16_t* dp, uint64_t n, int max_rep, size_t reps, size_t defs,
                  Pair* out) {
  const uint16_t rmax = static_cast<uint16_t>(reps - 1), dmax = static_cast<uint16_t>(defs - 1);
  const uint16_t w = static_cast<uint16_t>(defs);
  if (rp && dp) {
    for (uint64_t e = 0; e < n; ++e) out[e] = static_cast<Pair>(std::min(rp[e], rmax) * w + std::min(dp[e], dmax));
  } else if (rp) {
    for (uint64_t e = 0; e < n; ++e) out[e] = static_cast<Pair>(std::min(rp[e], rmax) * w);
  } else {
    const uint16_t top = static_cast<uint16_t>(max_rep * w);
    if (dp) {
      for (uint64_t e = 0; e < n; ++e) out[e] = static_cast<Pair>(top + std::min(dp[e], dmax));
    } else {
      for (uint64_t e = 0; e < n; ++e) out[e] = static_cast<Pair>(top);
    }
  }
}

}  // namespace

std::vector<LayerSlots> unravel(const std::vector<RepDefLayer>& inner_first, const std::vector<uint16_t>& rep,
                                const std::vector<uint16_t>& def, uint64_t num_levels) {
  const size_t m = inner_first.size();
  check_corrupt(m > 0, "a column with no repetition/definition layers");
  check_corrupt(rep.empty() || rep.size() == num_levels, "{} repetition levels for {} entries", rep.size(), num_levels);
  check_corrupt(def.empty() || def.size() == num_levels, "{} definition levels for {} entries", def.size(), num_levels);

  // Flat columns (no list layer, so no repetition): every entry is one slot per layer.
  bool any_list = false;
  for (RepDefLayer l : inner_first) any_list = any_list || is_list_layer(l);
  if (!any_list && rep.empty() && (def.empty() || m == 1)) {
    std::vector<LayerSlots> flat(m);
    for (auto& s : flat) s.num_slots = num_levels;
    if (def.empty()) {
      for (auto& s : flat) s.valid.assign(num_levels, 1);
      return flat;
    }
    // One item layer with definition levels: 0 is valid, its null level is null.
    const uint16_t max_def = static_cast<uint16_t>(def_levels_of(inner_first[0]));
    auto& s = flat[0];
    s.valid.resize(num_levels);
    uint16_t highest = 0;
    for (uint64_t e = 0; e < num_levels; ++e) {
      highest = std::max(highest, def[e]);
      s.valid[e] = def[e] == 0;
    }
    check_corrupt(highest <= max_def, "definition level {} above the maximum {}", highest, max_def);
    s.has_nulls = highest > 0;
    return flat;
  }

  // Per layer (outermost first): the def values that mean null / empty here, the highest
  // def that is still "valid at this layer", and for lists their depth (innermost = 1).
  struct Meaning {
    bool is_list = false;
    int null_def = -1, empty_def = -1;
    int valid_max = 0;
    int depth = 0;
  };
  std::vector<Meaning> meaning(m);
  int cum = 0, depth = 0;
  for (size_t i = 0; i < m; ++i) {  // inner first
    Meaning& mm = meaning[m - 1 - i];
    RepDefLayer l = inner_first[i];
    mm.valid_max = cum;
    mm.is_list = is_list_layer(l);
    if (mm.is_list) mm.depth = ++depth;
    switch (l) {
      case pb::REPDEF_NULLABLE_ITEM:
      case pb::REPDEF_NULLABLE_LIST:
        mm.null_def = cum + 1;
        break;
      case pb::REPDEF_EMPTYABLE_LIST:
        mm.empty_def = cum + 1;
        break;
      case pb::REPDEF_NULL_AND_EMPTY_LIST:
        mm.null_def = cum + 1, mm.empty_def = cum + 2;
        break;
      default:
        break;
    }
    cum += def_levels_of(l);
  }
  const int max_def = cum;
  const int max_rep = depth;
  // Layer (outer-first index) just inside the list of depth d: where a "continue" at depth d lands.
  std::vector<size_t> inside_list_of_depth(max_rep + 2, 0);
  for (size_t k = 0; k < m; ++k)
    if (meaning[k].is_list) inside_list_of_depth[meaning[k].depth] = k + 1;

  // Which layer each repetition level starts writing at.
  std::vector<size_t> start_of(max_rep + 1);
  for (int r = 0; r <= max_rep; ++r) start_of[r] = r == max_rep ? 0 : inside_list_of_depth[r + 1];

  // What a level does depends only on its (rep, def) pair, so the effect of every pair is
  // worked out once, into `code`: per pair and layer, bit 0 = the level makes a slot there,
  // bit 1 = that slot is valid. Pairs out of range (rep above max_rep, def above max_def)
  // get a row of their own, marked bad. The levels are then read as pair numbers, once per
  // layer, with no branch per level: each layer's slots, validity and offsets come from one
  // pass over a byte-wide (or u16) pair array.
  check_corrupt(m <= kMaxLayers, "{} repetition/definition layers: more than the {} supported", m, kMaxLayers);
  const size_t reps = static_cast<size_t>(max_rep) + 2, defs = static_cast<size_t>(max_def) + 2;
  const size_t pairs = reps * defs;
  std::vector<uint8_t> code(pairs * (m + 1), 0);  // layer m: never a slot (a list's child count stops there)
  std::vector<int> bad_layer(pairs, -1);          // a def with no meaning at this layer
  auto out_of_range = [&](size_t pair) {
    return pair / defs > static_cast<size_t>(max_rep) || pair % defs > static_cast<size_t>(max_def);
  };
  for (size_t r = 0; r < reps; ++r) {
    for (size_t d = 0; d < defs; ++d) {
      const size_t pair = r * defs + d;
      if (out_of_range(pair)) continue;
      uint8_t* c = &code[pair * (m + 1)];
      bool outer_null = false;  // an enclosing struct/item layer is null
      for (size_t k = start_of[r]; k < m; ++k) {
        const Meaning& mm = meaning[k];
        if (outer_null) {
          // Inside a null struct: the slot exists and is null; a list there has no items.
          c[k] = 1;
          if (mm.is_list) break;
          continue;
        }
        if (static_cast<int>(d) > mm.valid_max) {
          const bool is_null = static_cast<int>(d) == mm.null_def;
          if (!is_null && static_cast<int>(d) != mm.empty_def) {
            bad_layer[pair] = static_cast<int>(k);
            break;
          }
          c[k] = is_null ? 1 : 3;
          // A null or empty list ends here; a null struct/item still has (null) inner slots.
          if (mm.is_list || !is_null) break;
          outer_null = true;
          continue;
        }
        c[k] = 3;
      }
    }
  }

  // The pair number of every level, and how often each pair occurs.
  const uint16_t* rp = rep.empty() ? nullptr : rep.data();
  const uint16_t* dp = def.empty() ? nullptr : def.data();
  const bool narrow = pairs <= 256;
  std::vector<uint8_t> pair8(narrow ? num_levels : 0);
  std::vector<uint16_t> pair16(narrow ? 0 : num_levels);
  if (narrow)
    pair_numbers(rp, dp, num_levels, max_rep, reps, defs, pair8.data());
  else
    pair_numbers(rp, dp, num_levels, max_rep, reps, defs, pair16.data());
  // Counted into four tables in turn: runs of one pair (the common case) then do not wait
  // on the previous increment of the same counter.
  std::vector<uint64_t> count(pairs * 4, 0);
  {
    uint64_t e = 0;
    auto tally = [&](const auto* p) {
      for (; e + 4 <= num_levels; e += 4) {
        ++count[p[e] * 4];
        ++count[p[e + 1] * 4 + 1];
        ++count[p[e + 2] * 4 + 2];
        ++count[p[e + 3] * 4 + 3];
      }
      for (; e < num_levels; ++e) ++count[p[e] * 4];
    };
    if (narrow)
      tally(pair8.data());
    else
      tally(pair16.data());
    for (size_t pair = 0; pair < pairs; ++pair)
      count[pair] = count[pair * 4] + count[pair * 4 + 1] + count[pair * 4 + 2] + count[pair * 4 + 3];
    count.resize(pairs);
  }
  // Bad input: find the first bad level in order, with the message it deserves.
  bool bad = num_levels > 0 && rp && rp[0] != max_rep;  // levels before any row start
  for (size_t pair = 0; pair < pairs && !bad; ++pair)
    bad = count[pair] > 0 && (out_of_range(pair) || bad_layer[pair] >= 0);
  if (bad) [[unlikely]] {
    for (uint64_t e = 0; rp && e < num_levels; ++e)
      check_corrupt(rp[e] <= max_rep, "repetition level {} above the maximum {}", rp[e], max_rep);
    for (uint64_t e = 0; e < num_levels; ++e) {
      const int d = dp ? dp[e] : 0;
      check_corrupt(d <= max_def, "definition level {} above the maximum {}", d, max_def);
      check_corrupt(!rp || e > 0 || rp[0] == max_rep, "levels continue a row that never started");
      const int k = bad_layer[(rp ? rp[e] : max_rep) * defs + d];
      check_corrupt(k < 0, "definition level {} has no meaning at layer {}", d, k);
    }
    throw_internal("unravel: bad levels not found again");
  }

  // Each layer: its exact slot count, then one pass writing validity (and offsets).
  std::vector<LayerSlots> out(m);
  for (size_t k = 0; k < m; ++k) {
    LayerSlots& s = out[k];
    s.is_list = meaning[k].is_list;
    uint64_t slots = 0;
    for (size_t pair = 0; pair < pairs; ++pair) {
      const uint8_t c = code[pair * (m + 1) + k];
      slots += (c & 1) ? count[pair] : 0;
      s.has_nulls = s.has_nulls || (c == 1 && count[pair] > 0);
    }
    s.num_slots = slots;
    s.valid.resize(slots + 1);  // one spare: every level writes, only slots advance
    if (s.is_list) s.offsets.resize(slots + 1);
    if (narrow)
      fill_layer(pair8.data(), num_levels, code.data(), m + 1, k, s);
    else
      fill_layer(pair16.data(), num_levels, code.data(), m + 1, k, s);
    s.valid.resize(slots);
  }
  return out;
}

}  // namespace lance::structural
