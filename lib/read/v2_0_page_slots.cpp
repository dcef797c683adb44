#include "read/v2_0_page_slots.h"

#include <algorithm>

namespace lance::read {

std::vector<PagePart> page_parts(const V2_0Column& col, std::span<const RowRange> ranges) {
  std::vector<PagePart> out;
  for (const auto& r : ranges) {
    if (r.begin >= r.end) continue;
    check_corrupt(r.end <= col.num_rows(), "rows [{}, {}) but {} has {} rows", r.begin, r.end, col.name(),
                  col.num_rows());
    for (size_t p = col.page_of(r.begin); p < col.num_pages() && col.page_start(p) < r.end; ++p) {
      const uint64_t ps = col.page_start(p), pe = ps + col.page_rows(p);
      if (pe <= r.begin || ps == pe) continue;
      out.push_back({p, std::max(r.begin, ps) - ps, std::min(r.end, pe) - ps});
    }
  }
  return out;
}

}  // namespace lance::read
