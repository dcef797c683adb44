// Fuzz target: the BITMAP and LABEL_LIST index readers (lib/index/bitmap_index.cpp) and the
// RowAddrTreeMap decoder. Input: bitmap_page_lookup.lance, the one file of such an index;
// seeds are the real ones of data/filters/*_indexed (u8, cat, flag, tags columns). Leaves
// are asked over integer, string and boolean columns, and list functions over a list of
// strings.
// Upstream: rust/lance-index/src/scalar/bitmap.rs, label_list.rs.
#include "fuzz_index_files.h"

using namespace lance;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fuzz::ScratchIndexDir dir;
  dir.put("bitmap_page_lookup.lance", data, size);
  const auto where = dir.location();
  fuzz::ask_leaves(where, "BITMAP", "v", {fuzz::fuzz_field("v", make_type(TypeId::uint8))},
                   {"v = 17", "v IN (3, 200)", "v > 100", "v IS NULL"});
  fuzz::ask_leaves(where, "BITMAP", "v", {fuzz::fuzz_field("v", make_type(TypeId::utf8))},
                   {"v = 'red'", "v LIKE 'r%'", "lower(v) = 'x'"});
  fuzz::ask_leaves(where, "BITMAP", "v", {fuzz::fuzz_field("v", make_type(TypeId::boolean))}, {"v", "v IS NULL"});
  const auto item = fuzz::fuzz_field("item", make_type(TypeId::utf8));
  fuzz::ask_leaves(where, "LABEL_LIST", "v", {fuzz::fuzz_field("v", make_list(TypeId::list, item))},
                   {"array_has_any(v, ['a', 'b'])", "array_has_all(v, ['a', 'b'])", "array_contains(v, 'a')"});
  const std::vector<uint8_t> bytes(data, data + size);
  fuzz::expect_error_or_success(
      [&] { (void)index::decode_row_addr_map(ByteView(bytes.data(), bytes.size()), where.physical_rows); });
  return 0;
}
