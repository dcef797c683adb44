#include "encoding/flat.h"

#include <cstring>

#include "common/recycled.h"
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
  block.data = Recycled<uint8_t>::take(bytes);  // a decoded chunk's values: see common/recycled.h
  block.data.assign(buffer.data(), buffer.data() + bytes);
  return block;
}

// ------------------------------------------------------------------------------------
// Registry row
// ------------------------------------------------------------------------------------

DataBlock flat_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers, uint64_t num_values) {
  check_buffer_count(buffers, 1, "Flat");
  reject_buffer_compression(enc.flat().has_data(), enc.flat().data(), "Flat");
  return decode_flat(buffers[0], enc.flat().bits_per_value(), num_values);
}

std::optional<DataBlock> flat_miniblock_ranges(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                               uint64_t num_values, std::span<const ValueRange> ranges) {
  check_buffer_count(buffers, 1, "Flat");
  reject_buffer_compression(enc.flat().has_data(), enc.flat().data(), "Flat");
  const uint64_t bits = enc.flat().bits_per_value();
  if (bits == 0 || bits % 8 != 0) return std::nullopt;  // bit-packed booleans: decoded whole
  const uint64_t width = bits / 8;
  check_corrupt(buffers[0].size() / width >= num_values, "Flat({}): {} bytes for {} values", bits, buffers[0].size(),
                num_values);
  uint64_t count = 0;
  for (const ValueRange& r : ranges) count += r.end - r.begin;
  Bytes data(count * width);
  uint8_t* dst = data.data();
  for (const ValueRange& r : ranges) {
    const uint64_t n = (r.end - r.begin) * width;
    if (n) std::memcpy(dst, buffers[0].data() + r.begin * width, n);
    dst += n;
  }
  return fixed_block(count, bits, std::move(data));
}

DataBlock flat_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values) {
  reject_buffer_compression(enc.flat().has_data(), enc.flat().data(), "Flat");
  return decode_flat(buffer, enc.flat().bits_per_value(), num_values);
}

DataBlock flat_fixed_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped) {
  const uint64_t bits = enc.flat().bits_per_value();
  reject_buffer_compression(enc.flat().has_data(), enc.flat().data(), "Flat");
  check_corrupt(zipped.bits_per_value == bits, "Flat({}) full-zip values arrived as {}-bit values", bits,
                zipped.bits_per_value);
  if (bits % 8 == 0 && zipped.data.size() == checked_value_bytes(zipped.num_values, bits, "Flat values")) {
    DataBlock block;  // the gathered bytes are the values: no copy
    block.num_values = zipped.num_values;
    block.bits_per_value = bits;
    block.data = std::move(zipped.data);
    return block;
  }
  return decode_flat(ByteView(zipped.data), bits, zipped.num_values);
}

std::optional<uint64_t> flat_count_by_size(const pb::CompressiveEncoding& enc, ByteView buffer) {
  const uint64_t bits = enc.flat().bits_per_value();
  if (enc.flat().has_data() || !is_word_width(bits)) return std::nullopt;
  check_corrupt(buffer.size() % (bits / 8) == 0,
                "Rle: a child buffer of {} bytes holds no whole number of {}-bit values", buffer.size(), bits);
  return buffer.size() / (bits / 8);
}

std::string describe_flat(const pb::CompressiveEncoding& enc) {
  return fmt::format("Flat({}{})", enc.flat().bits_per_value(),
                     buffer_compression_suffix(enc.flat().has_data(), enc.flat().data()));
}

}  // namespace lance::encoding
