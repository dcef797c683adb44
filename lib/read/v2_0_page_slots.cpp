#include "read/v2_0_page_slots.h"

namespace lance::read {

std::vector<PagePart> page_parts(const V2_0Column& col, std::span<const RowRange> ranges) {
  std::vector<PagePart> out;
  for (const PageRows& pr : split_rows_by_page(col.page_starts(), ranges))
    for (const RowRange& r : pr.local) out.push_back({pr.page, r.begin, r.end});
  return out;
}

}  // namespace lance::read
