#include "encoding/rle.h"

#include <cstring>

#include "encoding/sizes.h"

namespace lance::encoding {
namespace {

/// Byte length of the u64 header of the block form that gives the values section size.
constexpr uint64_t kRleBlockHeaderBytes = 8;

uint64_t read_length(ByteView lengths, unsigned length_bits, uint64_t run) {
  switch (length_bits) {
    case 8:
      return lengths.read<uint8_t>(run);
    case 16:
      return lengths.read<uint16_t>(run * 2);
    case 32:
      return lengths.read<uint32_t>(run * 4);
    default:
      return lengths.read<uint64_t>(run * 8);
  }
}

uint64_t run_count(ByteView values, ByteView run_lengths, unsigned value_bits, unsigned length_bits) {
  if (!is_word_width(value_bits)) throw_unsupported("Rle with {}-bit values is not supported", value_bits);
  if (!is_word_width(length_bits)) throw_unsupported("Rle with {}-bit run lengths is not supported", length_bits);
  const uint64_t value_bytes = value_bits / 8;
  const uint64_t length_bytes = length_bits / 8;
  check_corrupt(values.size() % value_bytes == 0, "Rle: values buffer of {} bytes is not a multiple of {}",
                values.size(), value_bytes);
  check_corrupt(run_lengths.size() % length_bytes == 0, "Rle: run-length buffer of {} bytes is not a multiple of {}",
                run_lengths.size(), length_bytes);
  const uint64_t runs = values.size() / value_bytes;
  check_corrupt(runs == run_lengths.size() / length_bytes, "Rle: {} run values but {} run lengths", runs,
                run_lengths.size() / length_bytes);
  return runs;
}

}  // namespace

uint64_t rle_total_length(ByteView run_lengths, unsigned length_bits) {
  if (!is_word_width(length_bits)) throw_unsupported("Rle with {}-bit run lengths is not supported", length_bits);
  const uint64_t runs = run_lengths.size() / (length_bits / 8);
  uint64_t total = 0;
  for (uint64_t r = 0; r < runs; ++r) {
    const uint64_t len = read_length(run_lengths, length_bits, r);
    check_corrupt(len <= kMaxDecodedBufferBytes && total <= kMaxDecodedBufferBytes - len,
                  "Rle: run lengths sum past the decode limit");
    total += len;
  }
  return total;
}

Bytes rle_expand(ByteView values, ByteView run_lengths, unsigned value_bits, unsigned length_bits, uint64_t num_values,
                 bool clamp_overflow) {
  const uint64_t runs = run_count(values, run_lengths, value_bits, length_bits);
  const uint64_t value_bytes = value_bits / 8;
  const uint64_t out_bytes = checked_value_bytes(num_values, value_bits, "Rle output");
  // Only allocate what the runs can actually cover.
  const uint64_t max_run = length_bits >= 64 ? UINT64_MAX : (uint64_t{1} << length_bits) - 1;
  check_corrupt(runs > 0 ? num_values / runs <= max_run : num_values == 0, "Rle: {} runs cannot encode {} values", runs,
                num_values);
  Bytes out(out_bytes);
  uint64_t produced = 0;
  for (uint64_t r = 0; r < runs && produced < num_values; ++r) {
    uint64_t len = read_length(run_lengths, length_bits, r);
    if (len > num_values - produced) {
      check_corrupt(clamp_overflow, "Rle: runs encode more than the expected {} values", num_values);
      len = num_values - produced;
    }
    const uint8_t* value = values.data() + r * value_bytes;
    uint8_t* dst = out.data() + produced * value_bytes;
    for (uint64_t i = 0; i < len; ++i) std::memcpy(dst + i * value_bytes, value, value_bytes);
    produced += len;
  }
  check_corrupt(produced == num_values, "Rle: runs encode {} values, expected {}", produced, num_values);
  if (!clamp_overflow) {
    // Block form: remaining runs (if any) must be empty, i.e. the lengths sum exactly.
    check_corrupt(rle_total_length(run_lengths, length_bits) == num_values, "Rle: runs encode {} values, expected {}",
                  rle_total_length(run_lengths, length_bits), num_values);
  }
  return out;
}

RleBlockParts split_rle_block(ByteView buffer) {
  const uint64_t values_bytes = buffer.read<uint64_t>(0);
  check_corrupt(values_bytes <= buffer.size() - kRleBlockHeaderBytes,
                "Rle block: values section of {} bytes overruns a buffer of {} bytes", values_bytes, buffer.size());
  return RleBlockParts{buffer.slice(kRleBlockHeaderBytes, values_bytes),
                       buffer.slice(kRleBlockHeaderBytes + values_bytes)};
}

}  // namespace lance::encoding
