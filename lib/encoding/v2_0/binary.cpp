// Binary (docs/format.md §4.3): `indices` decode to one u64 end offset per row (no leading 0)
// into `bytes` (8-bit values). A null row is stored as the previous end plus
// `null_adjustment` (= total bytes + 1), so an index ≥ null_adjustment means null and
// its end is index − null_adjustment.
//
// Example: ["ab", null, "", "cde"] → bytes "abcde", null_adjustment 6,
// indices [2, 8, 2, 5] → ends [2, 2, 2, 5], validity [1, 0, 1, 1].
#include "encoding/sizes.h"
#include "encoding/v2_0/decoders.h"

namespace lance::encoding::v2_0 {

Decoded decode_binary(const pb::Binary& binary, const Buffers& buffers, uint64_t num_rows) {
  const std::vector<uint64_t> indices = with_context(
      "Binary indices", [&] { return decode_unsigned(binary.indices(), buffers, num_rows, "Binary indices"); });
  const uint64_t adjustment = binary.null_adjustment();
  Decoded out;
  DataBlock& v = out.values;
  v.num_values = num_rows;
  v.bits_per_offset = 64;
  v.offsets.resize(checked_mul(num_rows + 1, 8, "Binary offsets"));
  auto* offsets = reinterpret_cast<uint64_t*>(v.offsets.data());
  offsets[0] = 0;
  std::vector<uint8_t> valid(num_rows, 1);
  bool any_null = false;
  uint64_t prev = 0;
  for (uint64_t i = 0; i < num_rows; ++i) {
    uint64_t end = indices[i];
    if (adjustment != 0 && end >= adjustment) {
      end -= adjustment;
      check_corrupt(end < adjustment, "Binary: index {} of row {} exceeds twice the null adjustment {}", indices[i], i,
                    adjustment);
      valid[i] = 0;
      any_null = true;
    }
    check_corrupt(end >= prev, "Binary: row {} ends at byte {} before the previous row's end {}", i, end, prev);
    offsets[i + 1] = prev = end;
  }
  if (any_null) out.valid = std::move(valid);
  Decoded bytes =
      with_context("Binary bytes", [&] { return decode_array(binary.bytes(), buffers, uint8_type(), prev); });
  check_corrupt(bytes.values.bits_per_value == 8 && !bytes.values.is_variable(), "Binary: bytes are {}-bit values",
                bytes.values.bits_per_value);
  check_corrupt(bytes.values.data.size() >= prev, "Binary: {} bytes referenced, {} present", prev,
                bytes.values.data.size());
  v.data = std::move(bytes.values.data);
  v.data.resize(prev);
  return out;
}

}  // namespace lance::encoding::v2_0
