#include "encoding/bitpacking.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "common/recycled.h"
#include "encoding/sizes.h"

namespace lance::encoding {
namespace {

/// Row-group order of the FastLanes transposed layout (see bitpacking.h).
constexpr std::array<unsigned, 8> kFastLanesOrder = {0, 4, 2, 6, 1, 5, 3, 7};

template <typename Word>
void unpack_block(unsigned width, const uint8_t* __restrict packed, uint8_t* __restrict out) {
  constexpr unsigned kBits = sizeof(Word) * 8;
  constexpr unsigned kLanes = static_cast<unsigned>(kFastLanesBlockValues) / kBits;
  if (width == 0) {
    std::memset(out, 0, kFastLanesBlockValues * sizeof(Word));
    return;
  }
  const Word mask = width == kBits ? static_cast<Word>(~Word{0}) : static_cast<Word>((Word{1} << width) - 1);
  // Row by row, all lanes at once: the lanes of one row are consecutive words in and out,
  // so the inner loop is a straight vector loop.
  for (unsigned row = 0; row < kBits; ++row) {
    const unsigned bit = row * width;
    const unsigned word = bit / kBits;
    const unsigned shift = bit % kBits;
    const uint8_t* lo = packed + uint64_t{kLanes} * word * sizeof(Word);
    uint8_t* dst = out + (uint64_t{kFastLanesOrder[row / 8]} * 16 + (row % 8) * 128) * sizeof(Word);
    if (shift + width > kBits) {
      const uint8_t* hi = lo + uint64_t{kLanes} * sizeof(Word);
      const unsigned back = kBits - shift;
      for (unsigned lane = 0; lane < kLanes; ++lane) {
        Word v = static_cast<Word>((load_at<Word>(lo, lane) >> shift) | (load_at<Word>(hi, lane) << back)) & mask;
        std::memcpy(dst + uint64_t{lane} * sizeof(Word), &v, sizeof(Word));
      }
    } else {
      for (unsigned lane = 0; lane < kLanes; ++lane) {
        Word v = static_cast<Word>(load_at<Word>(lo, lane) >> shift) & mask;
        std::memcpy(dst + uint64_t{lane} * sizeof(Word), &v, sizeof(Word));
      }
    }
  }
}

template <typename Word>
uint64_t value_at(unsigned width, const uint8_t* packed, unsigned index) {
  constexpr unsigned kBits = sizeof(Word) * 8;
  constexpr unsigned kLanes = static_cast<unsigned>(kFastLanesBlockValues) / kBits;
  if (width == 0) return 0;
  // index = FL_ORDER[row / 8] * 16 + (row % 8) * 128 + lane, with FL_ORDER[row / 8] * 16 a
  // multiple of the lane count.
  const unsigned lane = index % kLanes;
  const unsigned row = kFastLanesOrder[(index % 128 - lane) / 16] * 8 + index / 128;
  const unsigned bit = row * width;
  const unsigned word = bit / kBits;
  const unsigned shift = bit % kBits;
  Word v = static_cast<Word>(load_at<Word>(packed, uint64_t{kLanes} * word + lane) >> shift);
  if (shift + width > kBits)
    v = static_cast<Word>(v | (load_at<Word>(packed, uint64_t{kLanes} * (word + 1) + lane) << (kBits - shift)));
  const Word mask = width == kBits ? static_cast<Word>(~Word{0}) : static_cast<Word>((Word{1} << width) - 1);
  return v & mask;
}

/// Appends values `ranges` of one packed block to `dst` as `Word`s.
template <typename Word>
void gather_values(unsigned width, const uint8_t* packed, std::span<const ValueRange> ranges, uint8_t* dst) {
  for (const ValueRange& r : ranges)
    for (uint64_t i = r.begin; i < r.end; ++i, dst += sizeof(Word)) {
      const auto v = static_cast<Word>(value_at<Word>(width, packed, static_cast<unsigned>(i)));
      std::memcpy(dst, &v, sizeof(Word));
    }
}

/// Calls f(Word{}) with Word the unsigned type of `word_bits` bits (8, 16, 32, 64); any
/// other width is unsupported.
template <typename F>
decltype(auto) with_word(unsigned word_bits, F&& f) {
  switch (word_bits) {
    case 8:
      return f(uint8_t{});
    case 16:
      return f(uint16_t{});
    case 32:
      return f(uint32_t{});
    case 64:
      return f(uint64_t{});
    default:
      throw_unsupported("bit-unpacking of {}-bit words is not supported", word_bits);
  }
}

/// The `word_bits`-bit word at byte `pos` of `buffer` (an InlineBitpacking chunk's width).
uint64_t read_word(ByteView buffer, uint64_t pos, unsigned word_bits) {
  return with_word(word_bits, [&]<typename Word>(Word) { return static_cast<uint64_t>(buffer.read<Word>(pos)); });
}

void check_word_bits(unsigned word_bits, const char* what) {
  if (!is_word_width(word_bits)) throw_unsupported("{} of {}-bit words is not supported", what, word_bits);
}

}  // namespace

void fastlanes_unpack_block(unsigned word_bits, unsigned packed_bits, const uint8_t* packed, uint8_t* out) {
  with_word(word_bits, [&]<typename Word>(Word) { unpack_block<Word>(packed_bits, packed, out); });
}

uint64_t fastlanes_value_at(unsigned word_bits, unsigned packed_bits, const uint8_t* packed, unsigned index) {
  return with_word(word_bits, [&]<typename Word>(Word) { return value_at<Word>(packed_bits, packed, index); });
}

Bytes unpack_inline_bitpacking(ByteView buffer, unsigned word_bits, uint64_t num_values, bool exact) {
  check_word_bits(word_bits, "InlineBitpacking");
  const uint64_t word_bytes = word_bits / 8;
  const uint64_t out_bytes = checked_value_bytes(num_values, word_bits, "InlineBitpacking output");
  const uint64_t num_chunks = (num_values + kFastLanesBlockValues - 1) / kFastLanesBlockValues;
  // Every chunk has at least its width word, so the buffer bounds the chunk count.
  check_corrupt(num_chunks <= buffer.size() / word_bytes,
                "InlineBitpacking: {} values need {} chunks but the buffer has only {} bytes", num_values, num_chunks,
                buffer.size());
  Bytes out = Recycled<uint8_t>::take(out_bytes);  // a decoded chunk's values: see common/recycled.h
  out.resize(out_bytes);
  alignas(64) uint8_t block[kFastLanesBlockValues * 8];  // a last, partial chunk; no heap per call
  uint64_t pos = 0;
  for (uint64_t chunk = 0; chunk < num_chunks; ++chunk) {
    const uint64_t width = read_word(buffer, pos, word_bits);
    check_corrupt(width <= word_bits, "InlineBitpacking chunk {}: bit width {} exceeds the {}-bit word", chunk, width,
                  word_bits);
    pos += word_bytes;
    const uint64_t packed_bytes = fastlanes_block_bytes(static_cast<unsigned>(width));
    ByteView packed = buffer.slice(pos, packed_bytes);
    pos += packed_bytes;
    const uint64_t first = chunk * kFastLanesBlockValues;
    const uint64_t count = std::min<uint64_t>(kFastLanesBlockValues, num_values - first);
    uint8_t* dst = out.data() + first * word_bytes;
    if (count == kFastLanesBlockValues) {  // a whole chunk unpacks in place
      fastlanes_unpack_block(word_bits, static_cast<unsigned>(width), packed.data(), dst);
      continue;
    }
    fastlanes_unpack_block(word_bits, static_cast<unsigned>(width), packed.data(), block);
    std::memcpy(dst, block, count * word_bytes);
  }
  if (exact) {
    check_corrupt(pos == buffer.size(),
                  "InlineBitpacking: chunks of {} values use {} bytes but the buffer has {} bytes", num_values, pos,
                  buffer.size());
  }
  return out;
}

namespace {

/// How an OutOfLineBitpacking buffer holds `num_values` values, every size checked against the
/// buffer: callers allocate the output only after this (a count from the file must not size an
/// allocation before the bytes behind it are known to exist).
struct OutOfLineShape {
  uint64_t out_bytes = 0, word_bytes = 0, block_bytes = 0, full_blocks = 0, tail = 0, full_bytes = 0;
  bool tail_is_raw = false;
};

OutOfLineShape out_of_line_shape(ByteView buffer, unsigned word_bits, unsigned packed_bits, uint64_t num_values) {
  check_word_bits(word_bits, "OutOfLineBitpacking");
  check_corrupt(packed_bits <= word_bits, "OutOfLineBitpacking: packed width {} exceeds the {}-bit word", packed_bits,
                word_bits);
  OutOfLineShape sh;
  sh.out_bytes = checked_value_bytes(num_values, word_bits, "OutOfLineBitpacking output");
  sh.word_bytes = word_bits / 8;
  check_corrupt(buffer.size() % sh.word_bytes == 0,
                "OutOfLineBitpacking: buffer of {} bytes is not a whole number of {}-bit words", buffer.size(),
                word_bits);
  sh.block_bytes = fastlanes_block_bytes(packed_bits);
  sh.full_blocks = num_values / kFastLanesBlockValues;
  sh.tail = num_values % kFastLanesBlockValues;
  // A zero-width block occupies no bytes, so only a non-zero width bounds the count by the input.
  if (sh.block_bytes > 0) {
    check_corrupt(sh.full_blocks <= buffer.size() / sh.block_bytes,
                  "OutOfLineBitpacking: {} values need {} blocks of {} bytes but the buffer has {} bytes", num_values,
                  sh.full_blocks, sh.block_bytes, buffer.size());
  }
  sh.full_bytes = sh.full_blocks * sh.block_bytes;
  sh.tail_is_raw = sh.tail > 0 && buffer.size() == sh.full_bytes + sh.tail * sh.word_bytes;
  if (sh.tail > 0 && !sh.tail_is_raw) {
    check_corrupt(buffer.size() >= sh.full_bytes + sh.block_bytes,
                  "OutOfLineBitpacking: {} values of width {} need {} bytes (packed tail) or {} bytes (raw tail), "
                  "buffer has {}",
                  num_values, packed_bits, sh.full_bytes + sh.block_bytes, sh.full_bytes + sh.tail * sh.word_bytes,
                  buffer.size());
  }
  return sh;
}

/// Unpacks into `out` (room for the values' words) what out_of_line_shape checked.
void unpack_out_of_line(ByteView buffer, unsigned word_bits, unsigned packed_bits, const OutOfLineShape& sh,
                        uint8_t* out) {
  for (uint64_t b = 0; b < sh.full_blocks; ++b) {
    ByteView packed = buffer.slice(b * sh.block_bytes, sh.block_bytes);
    fastlanes_unpack_block(word_bits, packed_bits, packed.data(), out + b * kFastLanesBlockValues * sh.word_bytes);
  }
  if (sh.tail == 0) return;
  uint8_t* dst = out + sh.full_blocks * kFastLanesBlockValues * sh.word_bytes;
  if (sh.tail_is_raw) {
    ByteView raw = buffer.slice(sh.full_bytes, sh.tail * sh.word_bytes);
    std::memcpy(dst, raw.data(), raw.size());
    return;
  }
  ByteView packed = buffer.slice(sh.full_bytes, sh.block_bytes);
  alignas(64) uint8_t block[kFastLanesBlockValues * 8];
  fastlanes_unpack_block(word_bits, packed_bits, packed.data(), block);
  std::memcpy(dst, block, sh.tail * sh.word_bytes);
  // Like Lance, bytes beyond what the values need are ignored.
}

/// The packed width of an OutOfLineBitpacking's values (its Flat child), at most its `t`-bit word.
unsigned out_of_line_packed_bits(const pb::OutOfLineBitpacking& ool, unsigned t) {
  const uint64_t w = flat_bits(require(ool.has_values(), ool.values(), "OutOfLineBitpacking values encoding"),
                               "OutOfLineBitpacking values");
  check_corrupt(w <= t, "OutOfLineBitpacking: packed width {} exceeds the {}-bit word", w, t);
  return static_cast<unsigned>(w);
}

}  // namespace

Bytes unpack_out_of_line_bitpacking(ByteView buffer, unsigned word_bits, unsigned packed_bits, uint64_t num_values) {
  const OutOfLineShape sh = out_of_line_shape(buffer, word_bits, packed_bits, num_values);
  Bytes out = Recycled<uint8_t>::take(sh.out_bytes);
  out.resize(sh.out_bytes);
  unpack_out_of_line(buffer, word_bits, packed_bits, sh, out.data());
  return out;
}

// ------------------------------------------------------------------------------------
// Registry row
// ------------------------------------------------------------------------------------

DataBlock inline_bitpacking_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                      uint64_t num_values) {
  const pb::InlineBitpacking& ib = enc.inline_bitpacking();
  check_buffer_count(buffers, 1, "InlineBitpacking");
  reject_buffer_compression(ib.has_values(), ib.values(), "InlineBitpacking");
  const unsigned t = word_bits_of(ib.uncompressed_bits_per_value(), "InlineBitpacking");
  if (num_values == 0) return fixed_block(0, t, {});
  return fixed_block(num_values, t, unpack_inline_bitpacking(buffers[0], t, num_values, /*exact=*/true));
}

std::optional<DataBlock> inline_bitpacking_miniblock_ranges(const pb::CompressiveEncoding& enc,
                                                            std::span<const ByteView> buffers, uint64_t num_values,
                                                            std::span<const ValueRange> ranges) {
  const pb::InlineBitpacking& ib = enc.inline_bitpacking();
  check_buffer_count(buffers, 1, "InlineBitpacking");
  reject_buffer_compression(ib.has_values(), ib.values(), "InlineBitpacking");
  const unsigned t = word_bits_of(ib.uncompressed_bits_per_value(), "InlineBitpacking");
  if (num_values == 0 || num_values > kFastLanesBlockValues) return std::nullopt;  // several blocks: decoded whole
  // One block: [T-bit width word][1024·W/T words], filling the chunk's buffer exactly.
  const ByteView buffer = buffers[0];
  const uint64_t word_bytes = t / 8;
  check_corrupt(buffer.size() >= word_bytes, "InlineBitpacking: a chunk of {} bytes has no width word", buffer.size());
  const uint64_t width = read_word(buffer, 0, t);
  check_corrupt(width <= t, "InlineBitpacking chunk 0: bit width {} exceeds the {}-bit word", width, t);
  const uint64_t packed_bytes = fastlanes_block_bytes(static_cast<unsigned>(width));
  check_corrupt(word_bytes + packed_bytes == buffer.size(),
                "InlineBitpacking: chunks of {} values use {} bytes but the buffer has {} bytes", num_values,
                word_bytes + packed_bytes, buffer.size());
  uint64_t count = 0;
  for (const ValueRange& r : ranges) count += r.end - r.begin;
  Bytes out(count * word_bytes);
  const uint8_t* packed = buffer.data() + word_bytes;
  const auto w = static_cast<unsigned>(width);
  with_word(t, [&]<typename Word>(Word) { gather_values<Word>(w, packed, ranges, out.data()); });
  return fixed_block(count, t, std::move(out));
}

DataBlock inline_bitpacking_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values) {
  const pb::InlineBitpacking& ib = enc.inline_bitpacking();
  reject_buffer_compression(ib.has_values(), ib.values(), "InlineBitpacking");
  const unsigned t = word_bits_of(ib.uncompressed_bits_per_value(), "InlineBitpacking");
  if (num_values == 0) return fixed_block(0, t, {});
  return fixed_block(num_values, t, unpack_inline_bitpacking(buffer, t, num_values, /*exact=*/false));
}

std::string describe_inline_bitpacking(const pb::CompressiveEncoding& enc) {
  const pb::InlineBitpacking& ib = enc.inline_bitpacking();
  return fmt::format("InlineBitpacking({}{})", ib.uncompressed_bits_per_value(),
                     buffer_compression_suffix(ib.has_values(), ib.values()));
}

DataBlock out_of_line_bitpacking_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values) {
  const pb::OutOfLineBitpacking& ool = enc.out_of_line_bitpacking();
  const unsigned t = word_bits_of(ool.uncompressed_bits_per_value(), "OutOfLineBitpacking");
  return fixed_block(num_values, t,
                     unpack_out_of_line_bitpacking(buffer, t, out_of_line_packed_bits(ool, t), num_values));
}

bool out_of_line_bitpacking_u16(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values,
                                std::vector<uint16_t>& levels) {
  if (enc.compression_case() != EncodingCase::kOutOfLineBitpacking) return false;
  const pb::OutOfLineBitpacking& ool = enc.out_of_line_bitpacking();
  if (ool.uncompressed_bits_per_value() != 16) return false;
  const unsigned w = out_of_line_packed_bits(ool, 16);
  const OutOfLineShape sh = out_of_line_shape(buffer, 16, w, num_values);
  levels.resize(num_values);
  unpack_out_of_line(buffer, 16, w, sh, reinterpret_cast<uint8_t*>(levels.data()));
  return true;
}

std::string describe_out_of_line_bitpacking(const pb::CompressiveEncoding& enc) {
  const pb::OutOfLineBitpacking& o = enc.out_of_line_bitpacking();
  return fmt::format("OutOfLineBitpacking({}, values: {})", o.uncompressed_bits_per_value(),
                     describe_child(o.has_values(), o.values()));
}

}  // namespace lance::encoding
