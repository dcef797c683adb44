// Bit-packed integers (docs/format.md §4.3). Neither is chosen by Lance's 2.0 writer strategy;
// both are decoded for files from writers that did.
//
// Bitpacked: one LSB-first bit stream, `compressed_bits_per_value` bits per value (value
// i starts at bit i·bits), widened to `uncompressed_bits_per_value`; with `signed` the
// top compressed bit is sign-extended.
//
// BitpackedForNonNeg: FastLanes blocks of 1024 values (encoding/bitpacking.h), each
// 1024·bits/8 bytes with no header, the last block zero-padded.
#include "encoding/bitpacking.h"
#include "encoding/sizes.h"
#include "encoding/v2_0/decoders.h"

namespace lance::encoding::v2_0 {

namespace {

void check_widths(uint64_t compressed, uint64_t uncompressed, const char* what) {
  if (!is_word_width(uncompressed)) throw_unsupported("{}: {}-bit values", what, uncompressed);
  check_corrupt(compressed <= uncompressed, "{}: {} packed bits for {}-bit values", what, compressed, uncompressed);
}

}  // namespace

Decoded decode_bitpacked(const pb::Bitpacked& bp, const Buffers& buffers, uint64_t num_rows) {
  const uint64_t bits = bp.compressed_bits_per_value(), width = bp.uncompressed_bits_per_value();
  check_widths(bits, width, "Bitpacked");
  check_corrupt(bp.has_buffer(), "Bitpacked: no buffer");
  ByteView packed = buffers.get(bp.buffer());
  const uint64_t need = checked_value_bytes(num_rows, bits, "Bitpacked values");
  check_corrupt(packed.size() >= need, "Bitpacked: {} values of {} bits need {} bytes, buffer has {}", num_rows, bits,
                need, packed.size());
  Decoded out;
  DataBlock& v = out.values;
  v.num_values = num_rows;
  v.bits_per_value = width;
  const uint64_t bytes = width / 8;
  v.data.assign(checked_mul(num_rows, bytes, "Bitpacked output"), 0);
  for (uint64_t i = 0; i < num_rows; ++i) {
    uint64_t value = 0;
    uint64_t bit = i * bits;
    for (uint64_t got = 0; got < bits;) {
      const uint64_t byte = bit / 8, shift = bit % 8;
      const uint64_t take = std::min<uint64_t>(8 - shift, bits - got);
      const uint64_t piece = (static_cast<uint64_t>(packed[byte]) >> shift) & ((uint64_t{1} << take) - 1);
      value |= piece << got;
      got += take;
      bit += take;
    }
    if (bp.signed_() && bits > 0 && bits < 64 && ((value >> (bits - 1)) & 1)) value |= ~uint64_t{0} << bits;
    std::memcpy(v.data.data() + i * bytes, &value, bytes);  // little-endian: the low bytes
  }
  return out;
}

Decoded decode_bitpacked_for_non_neg(const pb::BitpackedForNonNeg& bp, const Buffers& buffers, uint64_t num_rows) {
  const uint64_t bits = bp.compressed_bits_per_value(), width = bp.uncompressed_bits_per_value();
  check_widths(bits, width, "BitpackedForNonNeg");
  check_corrupt(bp.has_buffer(), "BitpackedForNonNeg: no buffer");
  ByteView packed = buffers.get(bp.buffer());
  const uint64_t blocks = (num_rows + kFastLanesBlockValues - 1) / kFastLanesBlockValues;
  const uint64_t block_bytes = fastlanes_block_bytes(static_cast<unsigned>(bits));
  check_corrupt(packed.size() >= checked_mul(blocks, block_bytes, "BitpackedForNonNeg blocks"),
                "BitpackedForNonNeg: {} blocks of {} bytes, buffer has {}", blocks, block_bytes, packed.size());
  Decoded out;
  DataBlock& v = out.values;
  v.num_values = num_rows;
  v.bits_per_value = width;
  const uint64_t out_block = kFastLanesBlockValues * width / 8;
  v.data.assign(checked_mul(blocks, out_block, "BitpackedForNonNeg output"), 0);
  if (bits > 0) {
    for (uint64_t b = 0; b < blocks; ++b)
      fastlanes_unpack_block(static_cast<unsigned>(width), static_cast<unsigned>(bits), packed.data() + b * block_bytes,
                             v.data.data() + b * out_block);
  }
  v.data.resize(num_rows * width / 8);
  return out;
}

}  // namespace lance::encoding::v2_0
