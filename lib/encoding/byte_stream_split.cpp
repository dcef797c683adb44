#include "encoding/byte_stream_split.h"

#include "encoding/sizes.h"

namespace lance::encoding {

Bytes byte_stream_unsplit(ByteView split, uint64_t bytes_per_value, uint64_t num_values) {
  check_corrupt(bytes_per_value > 0, "ByteStreamSplit: values of 0 bytes");
  const uint64_t total = checked_mul(num_values, bytes_per_value, "ByteStreamSplit output");
  check_corrupt(split.size() == total, "ByteStreamSplit: {} values of {} bytes need {} bytes, buffer has {}",
                num_values, bytes_per_value, total, split.size());
  Bytes out(total);
  const uint8_t* in = split.data();
  for (uint64_t j = 0; j < bytes_per_value; ++j) {
    const uint8_t* stream = in + j * num_values;
    for (uint64_t i = 0; i < num_values; ++i) out[i * bytes_per_value + j] = stream[i];
  }
  return out;
}

// ------------------------------------------------------------------------------------
// Registry row
// ------------------------------------------------------------------------------------

DataBlock byte_stream_split_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                      uint64_t num_values) {
  const pb::ByteStreamSplit& bss = enc.byte_stream_split();
  const uint64_t bits =
      flat_bits(require(bss.has_values(), bss.values(), "ByteStreamSplit values encoding"), "ByteStreamSplit values");
  check_corrupt(bits > 0 && bits % 8 == 0, "ByteStreamSplit of {}-bit values", bits);
  check_buffer_count(buffers, 1, "ByteStreamSplit");
  return fixed_block(num_values, bits, byte_stream_unsplit(buffers[0], bits / 8, num_values));
}

std::string describe_byte_stream_split(const pb::CompressiveEncoding& enc) {
  const pb::ByteStreamSplit& b = enc.byte_stream_split();
  return "ByteStreamSplit › " + describe_child(b.has_values(), b.values());
}

}  // namespace lance::encoding
