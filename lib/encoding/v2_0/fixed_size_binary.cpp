// FixedSizeBinary (docs/format.md §4.3): strings/binary whose non-null values all have
// `byte_width` bytes; `bytes` holds num_rows × byte_width bytes (null rows included) and
// the offsets are synthesized. (Lance's writer only chooses it for 2.1+ strategies.)
#include "encoding/sizes.h"
#include "encoding/v2_0/decoders.h"

namespace lance::encoding::v2_0 {

Decoded decode_fixed_size_binary(const pb::FixedSizeBinary& fsb, const Buffers& buffers, uint64_t num_rows) {
  const uint64_t width = fsb.byte_width();
  check_corrupt(width > 0, "FixedSizeBinary of width 0");
  const uint64_t total = checked_mul(num_rows, width, "FixedSizeBinary bytes");
  // The bytes are described either as `total` 8-bit values or as num_rows wide values.
  const bool per_byte = fsb.bytes().has_flat() && fsb.bytes().flat().bits_per_value() == 8;
  Decoded bytes = with_context("FixedSizeBinary bytes", [&] {
    return decode_array(fsb.bytes(), buffers, uint8_type(), per_byte ? total : num_rows);
  });
  check_corrupt(!bytes.values.is_variable() && bytes.values.data.size() >= total,
                "FixedSizeBinary: {} rows of {} bytes, {} bytes decoded", num_rows, width, bytes.values.data.size());
  Decoded out;
  DataBlock& v = out.values;
  v.num_values = num_rows;
  v.bits_per_offset = 64;
  v.offsets.resize(checked_mul(num_rows + 1, 8, "FixedSizeBinary offsets"));
  auto* offs = reinterpret_cast<uint64_t*>(v.offsets.data());
  for (uint64_t i = 0; i <= num_rows; ++i) offs[i] = i * width;
  v.data = std::move(bytes.values.data);
  v.data.resize(total);
  return out;
}

}  // namespace lance::encoding::v2_0
