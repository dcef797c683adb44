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

}  // namespace lance::encoding
