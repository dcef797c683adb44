#include "structural/repdef.h"

#include <algorithm>

#include "common/error.h"

namespace lance::structural {

namespace pb = ::lance::encodings21;

namespace {

/// Layers beyond this are refused (Arrow's own readers stop at 64 levels of nesting); it
/// bounds the (rep, def) table below.
constexpr size_t kMaxLayers = 64;

/// One pass over the levels' pair numbers for layer `k`: a validity flag per slot (when
/// `with_valid`) and, for a list layer, the child slots before each slot (`s.offsets`,
/// num_slots + 1 entries). `s.valid` has one spare byte: every level writes its flag, only a
/// slot moves on.
template <bool with_valid, typename Pair>
void fill_layer(const Pair* pair, uint64_t n, const uint8_t* code, size_t stride, size_t k, LayerSlots& s) {
  uint8_t* v = with_valid ? s.valid.data() : nullptr;
  if (!s.is_list) {
    if constexpr (with_valid) {
      for (uint64_t e = 0; e < n; ++e) {
        const uint8_t c = code[pair[e] * stride + k];
        *v = c >> 1;
        v += c & 1;
      }
    }
    return;
  }
  int64_t* o = s.offsets.data();
  int64_t children = 0;
  for (uint64_t e = 0; e < n; ++e) {
    const uint8_t* row = code + pair[e] * stride;
    const uint8_t c = row[k];
    if constexpr (with_valid) {
      *v = c >> 1;
      v += c & 1;
    }
    *o = children;
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

/// Whether `def_levels_of` knows `l`.
bool known_layer(RepDefLayer l) {
  switch (l) {
    case pb::REPDEF_ALL_VALID_ITEM:
    case pb::REPDEF_ALL_VALID_LIST:
    case pb::REPDEF_NULLABLE_ITEM:
    case pb::REPDEF_NULLABLE_LIST:
    case pb::REPDEF_EMPTYABLE_LIST:
    case pb::REPDEF_NULL_AND_EMPTY_LIST:
      return true;
    default:
      return false;
  }
}

/// The meaning of each layer's def values, outermost first, from the layers innermost first
/// (all of a known kind); sets `max_def` and `max_rep`.
std::vector<LevelPlan::Layer> layer_meanings(const std::vector<RepDefLayer>& inner_first, int& max_def, int& max_rep) {
  const size_t m = inner_first.size();
  std::vector<LevelPlan::Layer> meaning(m);
  int cum = 0, depth = 0;
  for (size_t i = 0; i < m; ++i) {  // inner first
    LevelPlan::Layer& mm = meaning[m - 1 - i];
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
  max_def = cum;
  max_rep = depth;
  return meaning;
}

/// Which layer (outer-first index) each repetition level 0..max_rep starts writing at.
std::vector<size_t> start_layers(const std::vector<LevelPlan::Layer>& meaning, int max_rep) {
  // Layer just inside the list of depth d: where a "continue" at depth d lands.
  std::vector<size_t> inside_list_of_depth(max_rep + 2, 0);
  for (size_t k = 0; k < meaning.size(); ++k)
    if (meaning[k].is_list) inside_list_of_depth[meaning[k].depth] = k + 1;
  std::vector<size_t> start_of(max_rep + 1);
  for (int r = 0; r <= max_rep; ++r) start_of[r] = r == max_rep ? 0 : inside_list_of_depth[r + 1];
  return start_of;
}

/// Fills `plan.code` and `plan.bad_layer` for the in-range pair (r, d): the layers from
/// `start` inwards that its level writes a slot to, and whether each slot is valid.
void plan_pair(LevelPlan& plan, size_t r, size_t d, size_t start) {
  const size_t m = plan.num_layers();
  const size_t pair = r * plan.defs + d;
  uint8_t* c = &plan.code[pair * (m + 1)];
  bool outer_null = false;  // an enclosing struct/item layer is null
  for (size_t k = start; k < m; ++k) {
    const LevelPlan::Layer& mm = plan.layers[k];
    if (outer_null) {
      // Inside a null struct: the slot exists and is null; a list there has no items.
      c[k] = 1;
      if (mm.is_list) break;
      continue;
    }
    if (static_cast<int>(d) > mm.valid_max) {
      const bool is_null = static_cast<int>(d) == mm.null_def;
      if (!is_null && static_cast<int>(d) != mm.empty_def) {
        plan.bad_layer[pair] = static_cast<int>(k);
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

/// The pair number of every level (u8 when every pair fits in a byte, else u16) and how
/// often each pair occurs.
struct PairNumbers {
  bool narrow = false;
  std::vector<uint8_t> pair8;
  std::vector<uint16_t> pair16;
  std::vector<uint64_t> count;  ///< per pair

  PairNumbers(const LevelPlan& plan, const uint16_t* rp, const uint16_t* dp, uint64_t num_levels) {
    const size_t pairs = plan.num_pairs();
    narrow = pairs <= 256;
    if (narrow) {
      pair8.resize(num_levels);
      pair_numbers(rp, dp, num_levels, plan.max_rep, plan.reps, plan.defs, pair8.data());
      tally(pair8.data(), num_levels, pairs);
    } else {
      pair16.resize(num_levels);
      pair_numbers(rp, dp, num_levels, plan.max_rep, plan.reps, plan.defs, pair16.data());
      tally(pair16.data(), num_levels, pairs);
    }
  }

 private:
  /// Counted into four tables in turn: runs of one pair (the common case) then do not wait
  /// on the previous increment of the same counter.
  template <typename Pair>
  void tally(const Pair* p, uint64_t num_levels, size_t pairs) {
    count.assign(pairs * 4, 0);
    uint64_t e = 0;
    for (; e + 4 <= num_levels; e += 4) {
      ++count[p[e] * 4];
      ++count[p[e + 1] * 4 + 1];
      ++count[p[e + 2] * 4 + 2];
      ++count[p[e + 3] * 4 + 3];
    }
    for (; e < num_levels; ++e) ++count[p[e] * 4];
    for (size_t pair = 0; pair < pairs; ++pair)
      count[pair] = count[pair * 4] + count[pair * 4 + 1] + count[pair * 4 + 2] + count[pair * 4 + 3];
    count.resize(pairs);
  }
};

/// Flat columns (no list layer, no repetition, and no definition levels or a single layer):
/// every entry is one slot per layer.
std::vector<LayerSlots> unravel_flat(const LevelPlan& plan, const std::vector<uint16_t>& def, uint64_t num_levels) {
  std::vector<LayerSlots> flat(plan.num_layers());
  for (auto& s : flat) s.num_slots = num_levels;
  if (def.empty()) return flat;  // every slot valid: no flags
  // One item layer with definition levels: 0 is valid, its null level is null.
  const uint16_t max_def = static_cast<uint16_t>(def_levels_of(plan.inner_first[0]));
  auto& s = flat[0];
  s.valid.resize(num_levels);
  uint16_t highest = 0;
  for (uint64_t e = 0; e < num_levels; ++e) {
    highest = std::max(highest, def[e]);
    s.valid[e] = def[e] == 0;
  }
  check_corrupt(highest <= max_def, "definition level {} above the maximum {}", highest, max_def);
  s.has_nulls = highest > 0;
  if (!s.has_nulls) s.valid.clear();
  return flat;
}

/// Whether any level is bad: out of range, without meaning at some layer, or continuing a
/// row before the first row start.
bool has_bad_levels(const LevelPlan& plan, const PairNumbers& pairs, const uint16_t* rp, uint64_t num_levels) {
  bool bad = num_levels > 0 && rp && rp[0] != plan.max_rep;  // levels before any row start
  for (size_t pair = 0; pair < plan.num_pairs() && !bad; ++pair)
    bad = pairs.count[pair] > 0 && (plan.out_of_range(pair) || plan.bad_layer[pair] >= 0);
  return bad;
}

/// Bad input: finds the first bad level in order and throws the message it deserves.
[[noreturn]] void throw_first_bad_level(const LevelPlan& plan, const uint16_t* rp, const uint16_t* dp,
                                        uint64_t num_levels) {
  const int max_rep = plan.max_rep, max_def = plan.max_def;
  for (uint64_t e = 0; rp && e < num_levels; ++e)
    check_corrupt(rp[e] <= max_rep, "repetition level {} above the maximum {}", rp[e], max_rep);
  for (uint64_t e = 0; e < num_levels; ++e) {
    const int d = dp ? dp[e] : 0;
    check_corrupt(d <= max_def, "definition level {} above the maximum {}", d, max_def);
    check_corrupt(!rp || e > 0 || rp[0] == max_rep, "levels continue a row that never started");
    const int k = plan.bad_layer[(rp ? rp[e] : max_rep) * plan.defs + d];
    check_corrupt(k < 0, "definition level {} has no meaning at layer {}", d, k);
  }
  throw_internal("unravel: bad levels not found again");
}

/// Layer `k`'s slots: its exact slot count, then one pass writing validity (and offsets).
LayerSlots layer_slots(const LevelPlan& plan, const PairNumbers& pairs, size_t k, uint64_t num_levels) {
  const size_t m = plan.num_layers();
  LayerSlots s;
  s.is_list = plan.layers[k].is_list;
  uint64_t slots = 0;
  for (size_t pair = 0; pair < plan.num_pairs(); ++pair) {
    const uint8_t c = plan.code[pair * (m + 1) + k];
    slots += (c & 1) ? pairs.count[pair] : 0;
    s.has_nulls = s.has_nulls || (c == 1 && pairs.count[pair] > 0);
  }
  s.num_slots = slots;
  // A layer without nulls needs no flags (LayerSlots::valid stays empty); one that is not a
  // list then needs no pass at all.
  auto fill = [&]<bool with_valid>() {
    if (pairs.narrow)
      fill_layer<with_valid>(pairs.pair8.data(), num_levels, plan.code.data(), m + 1, k, s);
    else
      fill_layer<with_valid>(pairs.pair16.data(), num_levels, plan.code.data(), m + 1, k, s);
  };
  if (s.is_list) s.offsets.resize(slots + 1);
  if (s.has_nulls) {
    s.valid.resize(slots + 1);  // one spare: every level writes, only slots advance
    fill.template operator()<true>();
    s.valid.resize(slots);
  } else if (s.is_list) {
    fill.template operator()<false>();
  }
  return s;
}

}  // namespace

LevelPlan::LevelPlan(std::vector<RepDefLayer> stored) : inner_first(std::move(stored)) {
  const size_t m = inner_first.size();
  for (size_t i = 0; i < m && unknown_layer < 0; ++i) {
    if (!known_layer(inner_first[i])) unknown_layer = static_cast<int>(i);
  }
  for (RepDefLayer l : inner_first) any_list = any_list || is_list_layer(l);
  too_many_layers = m > kMaxLayers;
  if (m == 0 || unknown_layer >= 0 || too_many_layers) return;

  layers = layer_meanings(inner_first, max_def, max_rep);
  const std::vector<size_t> start_of = start_layers(layers, max_rep);
  reps = static_cast<size_t>(max_rep) + 2, defs = static_cast<size_t>(max_def) + 2;
  code.assign(num_pairs() * (m + 1), 0);
  bad_layer.assign(num_pairs(), -1);
  for (size_t r = 0; r < reps; ++r)
    for (size_t d = 0; d < defs; ++d)
      if (!out_of_range(r * defs + d)) plan_pair(*this, r, d, start_of[r]);
}

std::vector<LayerSlots> unravel(const LevelPlan& plan, const std::vector<uint16_t>& rep,
                                const std::vector<uint16_t>& def, uint64_t num_levels) {
  const size_t m = plan.num_layers();
  check_corrupt(m > 0, "a column with no repetition/definition layers");
  check_corrupt(rep.empty() || rep.size() == num_levels, "{} repetition levels for {} entries", rep.size(), num_levels);
  check_corrupt(def.empty() || def.size() == num_levels, "{} definition levels for {} entries", def.size(), num_levels);
  if (!plan.any_list && rep.empty() && (def.empty() || m == 1)) return unravel_flat(plan, def, num_levels);
  if (plan.unknown_layer >= 0) def_levels_of(plan.inner_first[plan.unknown_layer]);  // throws, naming it
  check_corrupt(!plan.too_many_layers, "{} repetition/definition layers: more than the {} supported", m, kMaxLayers);

  // Each layer's slots, validity and offsets come from one pass over a byte-wide (or u16)
  // array of the levels' pair numbers.
  const uint16_t* rp = rep.empty() ? nullptr : rep.data();
  const uint16_t* dp = def.empty() ? nullptr : def.data();
  const PairNumbers pairs(plan, rp, dp, num_levels);
  if (has_bad_levels(plan, pairs, rp, num_levels)) [[unlikely]]
    throw_first_bad_level(plan, rp, dp, num_levels);
  std::vector<LayerSlots> out;
  out.reserve(m);
  for (size_t k = 0; k < m; ++k) out.push_back(layer_slots(plan, pairs, k, num_levels));
  return out;
}

std::vector<LayerSlots> unravel(const std::vector<RepDefLayer>& inner_first, const std::vector<uint16_t>& rep,
                                const std::vector<uint16_t>& def, uint64_t num_levels) {
  return unravel(LevelPlan(inner_first), rep, def, num_levels);
}

}  // namespace lance::structural
