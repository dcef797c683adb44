// Sets of rows of a dataset, as scalar indices answer them: per fragment id, the ascending
// offsets of rows inside the fragment (a Lance row address is fragment id << 32 | offset;
// deleted rows keep their offsets). Pure functions over sorted vectors.
//
// Usage:
//   RowSet a = from_row_addresses(ids);            // u64 addresses, any order
//   RowSet both = intersect(a, b);
//   for (auto& [fragment, offsets] : both) ...
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

namespace lance::index {

/// Fragment id → ascending, unique row offsets. A fragment absent holds no row of the set.
using RowSet = std::map<uint32_t, std::vector<uint32_t>>;

/// The set of row addresses `addresses` (any order, repeats allowed).
RowSet from_row_addresses(std::span<const uint64_t> addresses);

/// Union, intersection and difference, fragment by fragment.
RowSet unite(const RowSet& a, const RowSet& b);
RowSet intersect(const RowSet& a, const RowSet& b);
RowSet subtract(const RowSet& a, const RowSet& b);

/// Ascending offsets: union, intersection, difference.
std::vector<uint32_t> unite(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);
std::vector<uint32_t> intersect(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);
std::vector<uint32_t> subtract(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);

/// 0, 1, …, n - 1.
std::vector<uint32_t> all_offsets(uint32_t n);

/// Rows in the set.
uint64_t count_rows(const RowSet& s);

}  // namespace lance::index
