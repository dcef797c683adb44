// Scans over repetition and definition levels (u16 arrays): counting row starts and visible
// values, finding the k-th row start. Pure functions, used by the mini-block decoder to find
// rows inside a decoded chunk (lib/structural/miniblock.cpp).
//
// The loops run in blocks of kLevelBlock levels with a fixed trip count, which GCC
// vectorises at -O2 (a plain counting loop over an unknown length it does not); a block
// without a row start is skipped with one vector count.
#pragma once

#include <cstdint>

namespace lance::structural {

inline constexpr uint64_t kLevelBlock = 32;

/// Levels in the block `p[0, kLevelBlock)` equal to `v`.
inline uint32_t block_count_equal(const uint16_t* p, uint16_t v) {
  uint32_t c = 0;
  for (uint64_t j = 0; j < kLevelBlock; ++j) c += p[j] == v;
  return c;
}

/// Levels in the block `p[0, kLevelBlock)` at most `v`.
inline uint32_t block_count_at_most(const uint16_t* p, uint16_t v) {
  uint32_t c = 0;
  for (uint64_t j = 0; j < kLevelBlock; ++j) c += p[j] <= v;
  return c;
}

/// Levels in `p[0, n)` equal to `v` (row starts: `v` = the page's top repetition level).
inline uint64_t count_levels_equal(const uint16_t* p, uint64_t n, uint16_t v) {
  uint64_t count = 0, i = 0;
  for (; i + kLevelBlock <= n; i += kLevelBlock) count += block_count_equal(p + i, v);
  for (; i < n; ++i) count += p[i] == v;
  return count;
}

/// Levels in `p[0, n)` at most `v` (visible values: `v` = the highest definition level that
/// still holds an item slot).
inline uint64_t count_levels_at_most(const uint16_t* p, uint64_t n, uint16_t v) {
  uint64_t count = 0, i = 0;
  for (; i + kLevelBlock <= n; i += kLevelBlock) count += block_count_at_most(p + i, v);
  for (; i < n; ++i) count += p[i] <= v;
  return count;
}

/// Index of the `k`-th (from 0) level in `p[0, n)` equal to `v`, or `n` when there are
/// no more than `k` of them.
inline uint64_t find_nth_level_equal(const uint16_t* p, uint64_t n, uint16_t v, uint64_t k) {
  uint64_t i = 0;
  for (; i + kLevelBlock <= n; i += kLevelBlock) {
    const uint32_t c = block_count_equal(p + i, v);
    if (c > k) break;
    k -= c;
  }
  for (; i < n; ++i) {
    if (p[i] == v) {
      if (k == 0) return i;
      --k;
    }
  }
  return n;
}

namespace detail {

template <bool kHasDef>
uint32_t index_level_starts(const uint16_t* rep, const uint16_t* def, uint64_t n, uint16_t top, uint16_t max_visible,
                            uint32_t* starts, uint32_t* visible_before) {
  uint32_t visible = 0;
  uint64_t k = 0;  // starts written so far
  uint64_t i = 0;
  // Every level writes its entry at `k` and moves `k` on only when it is a row start: no
  // branch to mispredict where starts are dense (short lists), hence one spare entry.
  auto level = [&](uint64_t j) {
    starts[k] = static_cast<uint32_t>(j);
    visible_before[k] = visible;
    k += rep[j] == top;
    if constexpr (kHasDef) {
      visible += def[j] <= max_visible;
    } else {
      ++visible;
    }
  };
  for (; i + kLevelBlock <= n; i += kLevelBlock) {
    if (block_count_equal(rep + i, top) == 0) {  // no row starts here (long lists): only the visible values
      if constexpr (kHasDef) {
        visible += block_count_at_most(def + i, max_visible);
      } else {
        visible += static_cast<uint32_t>(kLevelBlock);
      }
      continue;
    }
    for (uint64_t j = i; j < i + kLevelBlock; ++j) level(j);
  }
  for (; i < n; ++i) level(i);
  return visible;
}

}  // namespace detail

/// Writes the index of every level in `rep[0, n)` equal to `top` to `starts`, and for each
/// the count of levels before it with `def` at most `max_visible` (all of them when `def` is
/// null) to `visible_before`; returns the count over all `n` levels. `starts` and
/// `visible_before` have room for count_levels_equal(rep, n, top) + 1 entries (the last is
/// scratch). n < 2^32.
inline uint32_t index_level_starts(const uint16_t* rep, const uint16_t* def, uint64_t n, uint16_t top,
                                   uint16_t max_visible, uint32_t* starts, uint32_t* visible_before) {
  return def ? detail::index_level_starts<true>(rep, def, n, top, max_visible, starts, visible_before)
             : detail::index_level_starts<false>(rep, def, n, top, max_visible, starts, visible_before);
}

}  // namespace lance::structural
