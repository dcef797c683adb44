#include "encoding/constant.h"

#include <cstring>

#include "encoding/sizes.h"

namespace lance::encoding {

DataBlock expand_constant(std::optional<ByteView> scalar, uint64_t num_values) {
  DataBlock block;
  block.num_values = num_values;
  if (!scalar) {
    block.all_null = true;
    return block;
  }
  const uint64_t width = scalar->size();
  check_corrupt(width > 0, "Constant: empty scalar value");
  block.bits_per_value = width * 8;
  block.data.resize(checked_mul(num_values, width, "Constant output"));
  for (uint64_t i = 0; i < num_values; ++i) std::memcpy(block.data.data() + i * width, scalar->data(), width);
  return block;
}

}  // namespace lance::encoding
