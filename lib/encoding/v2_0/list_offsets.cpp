// List offsets pages (docs/format.md §4.3). `offsets` decode to one u64 per row: the end of
// the row's items relative to the first item the page references (there is no leading
// 0: the first row starts at 0). A null list is stored as its end plus
// `null_offset_adjustment` (= num_items + 1).
//
// Example (map appendix F): adjustment 10285, offsets [10285, 3, 6, 9, 12, 12, 15, 10300]
// → rows null, [0,3), [3,6), [6,9), [9,12), [12,12) (empty), [12,15), null (ends at 15).
#include "encoding/v2_0/decoders.h"

namespace lance::encoding::v2_0 {

ListOffsets decode_list_offsets(const pb::List& list, const Buffers& buffers, uint64_t num_rows) {
  ListOffsets out;
  out.num_items = list.num_items();
  const uint64_t adjustment = list.null_offset_adjustment();
  out.ends =
      with_context("List offsets", [&] { return decode_unsigned(list.offsets(), buffers, num_rows, "List offsets"); });
  out.valid.assign(num_rows, 1);
  uint64_t prev = 0;
  for (uint64_t i = 0; i < num_rows; ++i) {
    uint64_t& end = out.ends[i];
    if (adjustment != 0 && end >= adjustment) {
      end -= adjustment;
      out.valid[i] = 0;
    }
    check_corrupt(end >= prev && end <= out.num_items,
                  "List: row {} ends at item {} (previous end {}, the page references {} items)", i, end, prev,
                  out.num_items);
    prev = end;
  }
  return out;
}

}  // namespace lance::encoding::v2_0
