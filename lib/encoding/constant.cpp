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

// ------------------------------------------------------------------------------------
// Registry row
// ------------------------------------------------------------------------------------

namespace {

std::optional<ByteView> constant_scalar(const pb::Constant& c) {
  if (!c.has_value()) return std::nullopt;
  return ByteView(reinterpret_cast<const uint8_t*>(c.value().data()), c.value().size());
}

}  // namespace

DataBlock constant_block(const pb::CompressiveEncoding& enc, ByteView, uint64_t num_values) {
  return expand_constant(constant_scalar(enc.constant()), num_values);
}

DataBlock constant_fixed_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped) {
  return expand_constant(constant_scalar(enc.constant()), zipped.num_values);
}

std::string describe_constant(const pb::CompressiveEncoding& enc) {
  return enc.constant().has_value() ? fmt::format("Constant({} bytes)", enc.constant().value().size())
                                    : "Constant(null)";
}

}  // namespace lance::encoding
