#include "encoding/flat.h"

#include "encoding/sizes.h"

namespace lance::encoding {

DataBlock decode_flat(ByteView buffer, uint64_t bits_per_value, uint64_t num_values) {
  check_corrupt(bits_per_value > 0, "Flat: values of 0 bits");
  const uint64_t bytes = checked_value_bytes(num_values, bits_per_value, "Flat values");
  check_corrupt(buffer.size() >= bytes, "Flat: {} values of {} bits need {} bytes, buffer has {}", num_values,
                bits_per_value, bytes, buffer.size());
  DataBlock block;
  block.num_values = num_values;
  block.bits_per_value = bits_per_value;
  block.data = buffer.slice(0, bytes).to_bytes();
  return block;
}

}  // namespace lance::encoding
