// Fuzz target: a deletion file, `.arrow` (Arrow IPC file, UInt32 column `row_id`) or `.bin`
// (roaring bitmap, portable serialization). Input: [u8 kind: even = arrow, odd = bitmap]
// [u32 physical rows of the fragment][the file]. The decoded vector is then queried as a
// scan and a take use it (physical_row, live_runs).
// Upstream: lance-format/lance rust/lance-table/src/io/deletion.rs.
#include "dataset/deletion.h"
#include "fuzz_input.h"

using namespace lance;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::FuzzInput in(data, size);
  const bool bitmap = in.take<uint8_t>() & 1;
  const uint64_t physical_rows = in.take<uint32_t>();
  const ByteView file = in.rest();
  fuzz::expect_error_or_success([&] {
    const dataset::DeletionVector dv = bitmap ? dataset::parse_deletion_bitmap(file, physical_rows)
                                              : dataset::parse_deletion_arrow(file, physical_rows);
    if (dv.num_deleted() > physical_rows) __builtin_trap();  // from_offsets promises offsets < rows
    const uint64_t live = physical_rows - dv.num_deleted();
    if (live == 0) return;
    for (uint64_t r : {uint64_t{0}, live / 2, live - 1}) {
      const uint64_t p = dv.physical_row(r);
      if (p >= physical_rows || dv.is_deleted(p)) __builtin_trap();
    }
    uint64_t covered = 0;
    for (const auto& [b, e] : dv.live_runs(0, physical_rows)) covered += e - b;
    if (covered != live) __builtin_trap();
  });
  return 0;
}
