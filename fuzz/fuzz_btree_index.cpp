// Fuzz target: the BTREE index reader (lib/index/btree_index.cpp). Input: [u32 n][n bytes:
// page_lookup.lance][the rest: page_data.lance], the two files of one index; seeds are the
// real ones of data/filters/*_indexed (id, i32, name, d, ts, f64 columns). Each leaf the
// reader answers is asked over int64, string and float64 columns named after the files'.
// Upstream: rust/lance-index/src/scalar/btree.rs.
#include <cstring>

#include "fuzz_index_files.h"

using namespace lance;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fuzz::ScratchIndexDir dir;
  if (!dir.put_two(data, size, "page_lookup.lance", "page_data.lance")) return 0;
  const auto where = dir.location();
  fuzz::ask_leaves(where, "BTREE", "v", {fuzz::fuzz_field("v", make_type(TypeId::int64))},
                   {"v < 10", "v = 5", "v BETWEEN -3 AND 70", "v IN (1, 2, 99)", "v IS NULL", "v >= 1000"});
  fuzz::ask_leaves(where, "BTREE", "v", {fuzz::fuzz_field("v", make_type(TypeId::utf8))},
                   {"v = 'alpha'", "v < 'b'", "v IN ('a', 'zeta')", "v IS NULL"});
  fuzz::ask_leaves(where, "BTREE", "v", {fuzz::fuzz_field("v", make_type(TypeId::float64))},
                   {"v > 100", "v = 0", "v BETWEEN -0.5 AND 0.5"});
  return 0;
}
