#include "structural/repdef.h"

#include <algorithm>

#include "common/error.h"

namespace lance::structural {

namespace pb = ::lance::encodings21;

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
      case pb::REPDEF_NULLABLE_ITEM: case pb::REPDEF_NULLABLE_LIST: mm.null_def = cum + 1; break;
      case pb::REPDEF_EMPTYABLE_LIST: mm.empty_def = cum + 1; break;
      case pb::REPDEF_NULL_AND_EMPTY_LIST: mm.null_def = cum + 1, mm.empty_def = cum + 2; break;
      default: break;
    }
    cum += def_levels_of(l);
  }
  const int max_def = cum;
  const int max_rep = depth;
  // Layer (outer-first index) just inside the list of depth d: where a "continue" at depth d lands.
  std::vector<size_t> inside_list_of_depth(max_rep + 2, 0);
  for (size_t k = 0; k < m; ++k)
    if (meaning[k].is_list) inside_list_of_depth[meaning[k].depth] = k + 1;

  // Which layer each repetition level starts writing at, and how many entries start at or
  // above each layer: an upper bound on that layer's slots (null and empty lists only
  // stop entries earlier). Each layer's buffers are sized to its bound once and written
  // through raw cursors (no capacity check per slot), then cut to what was written.
  std::vector<size_t> start_of(max_rep + 1);
  for (int r = 0; r <= max_rep; ++r) start_of[r] = r == max_rep ? 0 : inside_list_of_depth[r + 1];
  std::vector<uint64_t> bound(m, 0);
  {
    std::vector<uint64_t> per_rep(max_rep + 2, 0);
    if (rep.empty()) {
      per_rep[max_rep] = num_levels;
    } else {
      const uint16_t* rp = rep.data();
      for (uint64_t e = 0; e < num_levels; ++e) ++per_rep[std::min<int>(rp[e], max_rep + 1)];
    }
    if (per_rep[max_rep + 1] > 0) [[unlikely]] {
      const uint16_t* rp = rep.data();
      for (uint64_t e = 0; e < num_levels; ++e)
        check_corrupt(rp[e] <= max_rep, "repetition level {} above the maximum {}", rp[e], max_rep);
    }
    for (int r = 0; r <= max_rep; ++r)
      for (size_t k = start_of[r]; k < m; ++k) bound[k] += per_rep[r];
  }
  std::vector<LayerSlots> out(m);
  struct Layer {
    bool is_list, parent_is_list;
    int valid_max, null_def, empty_def;
  };
  std::vector<Layer> lay(m);
  std::vector<uint8_t*> vcur(m);
  std::vector<int64_t*> ocur(m, nullptr);
  std::vector<int64_t> child_count(m, 0);
  std::vector<uint8_t> nulls(m, 0);
  for (size_t k = 0; k < m; ++k) {
    out[k].is_list = meaning[k].is_list;
    out[k].valid.resize(bound[k]);
    vcur[k] = out[k].valid.data();
    if (out[k].is_list) {
      out[k].offsets.resize(bound[k] + 1);
      ocur[k] = out[k].offsets.data();
    }
    lay[k] = {meaning[k].is_list, k > 0 && meaning[k - 1].is_list, meaning[k].valid_max, meaning[k].null_def,
              meaning[k].empty_def};
  }
  const Layer* const L = lay.data();
  uint8_t** const V = vcur.data();
  int64_t** const O = ocur.data();
  int64_t* const C = child_count.data();
  uint8_t* const N = nulls.data();
  const uint16_t* rp = rep.empty() ? nullptr : rep.data();
  const uint16_t* dp = def.empty() ? nullptr : def.data();
  bool row_open = false;
  for (uint64_t e = 0; e < num_levels; ++e) {
    const int r = rp ? rp[e] : max_rep;
    const int d = dp ? dp[e] : 0;
    if (d > max_def) [[unlikely]]
      throw_corrupt("definition level {} above the maximum {}", d, max_def);
    size_t start;
    if (r == max_rep) {
      start = 0;
      row_open = true;
    } else {
      if (!row_open) [[unlikely]]
        throw_corrupt("levels continue a row that never started");
      start = start_of[r];
    }
    bool outer_null = false;  // an enclosing struct/item layer is null
    for (size_t k = start; k < m; ++k) {
      const Layer& mm = L[k];
      if (mm.parent_is_list) ++C[k - 1];
      if (mm.is_list) *O[k]++ = C[k];
      if (outer_null) {
        // Inside a null struct: the slot exists and is null; a list there has no items.
        *V[k]++ = 0;
        N[k] = 1;
        if (mm.is_list) break;
        continue;
      }
      if (d > mm.valid_max) {
        const bool is_null = d == mm.null_def;
        if (!is_null && d != mm.empty_def) [[unlikely]]
          throw_corrupt("definition level {} has no meaning at layer {}", d, k);
        *V[k]++ = is_null ? 0 : 1;
        N[k] |= is_null;
        // A null or empty list ends here; a null struct/item still has (null) inner slots.
        if (mm.is_list || !is_null) break;
        outer_null = true;
        continue;
      }
      *V[k]++ = 1;
    }
  }
  for (size_t k = 0; k < m; ++k) {
    const uint64_t n = static_cast<uint64_t>(V[k] - out[k].valid.data());
    out[k].valid.resize(n);
    out[k].num_slots = n;  // one flag per slot
    out[k].has_nulls = N[k] != 0;
    if (out[k].is_list) {
      *O[k]++ = C[k];
      out[k].offsets.resize(static_cast<uint64_t>(O[k] - out[k].offsets.data()));
    }
  }
  return out;
}

}  // namespace lance::structural
