#include "io/coalesce.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace lance::io {

std::vector<PlannedRead> plan_reads(std::span<const ByteRange> ranges, uint64_t block_size, uint64_t max_iop_size) {
  if (max_iop_size == 0) max_iop_size = UINT64_MAX;
  std::vector<size_t> order(ranges.size());
  std::iota(order.begin(), order.end(), 0);
  std::erase_if(order, [&](size_t i) { return ranges[i].length == 0; });
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return ranges[a].offset != ranges[b].offset ? ranges[a].offset < ranges[b].offset
                                                : ranges[a].length < ranges[b].length;
  });

  // 1. merge
  std::vector<PlannedRead> merged;
  for (size_t i : order) {
    const ByteRange& r = ranges[i];
    if (!merged.empty()) {
      auto& last = merged.back();
      uint64_t last_end = last.range.end();
      if (r.offset <= last_end || r.offset - last_end <= block_size) {
        last.range.length = std::max(last_end, r.end()) - last.range.offset;
        last.serves.push_back(i);
        continue;
      }
    }
    merged.push_back(PlannedRead{r, {i}});
  }

  // 2. split reads above max_iop_size; each piece serves the ranges it intersects
  std::vector<PlannedRead> out;
  for (auto& m : merged) {
    if (m.range.length <= max_iop_size) {
      out.push_back(std::move(m));
      continue;
    }
    for (uint64_t off = m.range.offset; off < m.range.end(); off += max_iop_size) {
      PlannedRead piece{{off, std::min(max_iop_size, m.range.end() - off)}, {}};
      for (size_t i : m.serves)
        if (ranges[i].offset < piece.range.end() && ranges[i].end() > piece.range.offset) piece.serves.push_back(i);
      if (!piece.serves.empty()) out.push_back(std::move(piece));
    }
  }
  return out;
}

void copy_into_extents(std::span<const ReadExtent> extents, uint64_t at, const uint8_t* data, uint64_t n,
                       size_t& cursor) {
  const uint64_t end = at + n;
  while (cursor < extents.size() && extents[cursor].end() <= at) ++cursor;
  for (size_t i = cursor; i < extents.size() && extents[i].offset < end; ++i) {
    const ReadExtent& e = extents[i];
    const uint64_t lo = std::max(e.offset, at), hi = std::min(e.end(), end);
    if (lo < hi) std::memcpy(e.out + (lo - e.offset), data + (lo - at), hi - lo);
  }
}

}  // namespace lance::io
