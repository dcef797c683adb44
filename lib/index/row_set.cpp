#include "index/row_set.h"

#include <algorithm>
#include <iterator>
#include <numeric>

namespace lance::index {

namespace {

template <typename Op>
std::vector<uint32_t> apply(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, Op op) {
  std::vector<uint32_t> out;
  op(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

void put(RowSet& out, uint32_t fragment, std::vector<uint32_t> rows) {
  if (!rows.empty()) out[fragment] = std::move(rows);
}

}  // namespace

RowSet from_row_addresses(std::span<const uint64_t> addresses) {
  RowSet out;
  for (const uint64_t a : addresses) out[static_cast<uint32_t>(a >> 32)].push_back(static_cast<uint32_t>(a));
  for (auto& [fragment, rows] : out) {
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  }
  return out;
}

std::vector<uint32_t> unite(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  return apply(a, b, [](auto... x) { return std::set_union(x...); });
}

std::vector<uint32_t> intersect(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  return apply(a, b, [](auto... x) { return std::set_intersection(x...); });
}

std::vector<uint32_t> subtract(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  return apply(a, b, [](auto... x) { return std::set_difference(x...); });
}

RowSet unite(const RowSet& a, const RowSet& b) {
  RowSet out = a;
  for (const auto& [fragment, rows] : b) {
    auto it = out.find(fragment);
    if (it == out.end())
      out.emplace(fragment, rows);
    else
      it->second = unite(it->second, rows);
  }
  return out;
}

RowSet intersect(const RowSet& a, const RowSet& b) {
  RowSet out;
  for (const auto& [fragment, rows] : a)
    if (const auto it = b.find(fragment); it != b.end()) put(out, fragment, intersect(rows, it->second));
  return out;
}

RowSet subtract(const RowSet& a, const RowSet& b) {
  RowSet out;
  for (const auto& [fragment, rows] : a) {
    const auto it = b.find(fragment);
    put(out, fragment, it == b.end() ? rows : subtract(rows, it->second));
  }
  return out;
}

std::vector<uint32_t> all_offsets(uint32_t n) {
  std::vector<uint32_t> out(n);
  std::iota(out.begin(), out.end(), 0u);
  return out;
}

uint64_t count_rows(const RowSet& s) {
  uint64_t n = 0;
  for (const auto& [fragment, rows] : s) n += rows.size();
  return n;
}

}  // namespace lance::index
