// InlineBitpacking / OutOfLineBitpacking (docs/format.md §6.4, 6.5) against a reference packer.
#include "test_encoding_helpers.h"

#include "encoding/bitpacking.h"

using namespace enc_test;
using lance::encoding::decode_block;
using lance::encoding::decode_levels;
using lance::encoding::decode_miniblock;
using lance::encoding::unpack_inline_bitpacking;
using lance::encoding::unpack_out_of_line_bitpacking;

namespace {

std::vector<uint64_t> random_values(unsigned w, size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(n);
  const uint64_t mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  for (auto& x : v) x = rng() & mask;
  return v;
}

/// One inline chunk: [W word][packed 1024 values] (values zero-padded to 1024).
Bytes inline_chunk(unsigned t, unsigned w, std::vector<uint64_t> values) {
  values.resize(1024, 0);
  Bytes out;
  put_word(out, t, w);
  Bytes packed = reference_pack(t, w, values);
  out.insert(out.end(), packed.begin(), packed.end());
  return out;
}

}  // namespace

TEST_CASE("FastLanes: T=8 W=8 is the identity and T=16 W=16 interleaves rows", "[encoding][bitpacking]") {
  std::vector<uint64_t> v(1024);
  for (size_t i = 0; i < v.size(); ++i) v[i] = i & 0xFF;
  Bytes chunk8;
  put_word(chunk8, 8, 8);
  for (size_t i = 0; i < 1024; ++i) chunk8.push_back(static_cast<uint8_t>(i));
  const Bytes out8 = unpack_inline_bitpacking(ByteView(chunk8), 8, 1024, true);
  for (size_t i = 0; i < 1024; ++i) REQUIRE(out8[i] == static_cast<uint8_t>(i));

  // T=16, W=16: packed word 64·row + lane = value FL_ORDER[row/8]·16 + (row%8)·128 + lane.
  Bytes chunk16;
  put_word(chunk16, 16, 16);
  for (uint32_t word = 0; word < 1024; ++word) put_word(chunk16, 16, 50000 + word);
  const Bytes out16 = unpack_inline_bitpacking(ByteView(chunk16), 16, 1024, true);
  REQUIRE(word_at(out16, 16, 0) == 50000);                    // row 0, lane 0
  REQUIRE(word_at(out16, 16, 128) == 50064);                  // row 1, lane 0 → word 64
  REQUIRE(word_at(out16, 16, 64) == 50512);                   // row 8 (FL_ORDER[1]=4 → +64), lane 0 → word 512
  REQUIRE(word_at(out16, 16, 64 + 5) == 50517);               // row 8, lane 5
  REQUIRE(word_at(out16, 16, 1023) == 50000 + 64 * 15 + 63);  // row 15 → 64+7·128, lane 63
}

TEST_CASE("FastLanes: every width 0..T for T = 8, 16, 32, 64", "[encoding][bitpacking]") {
  for (unsigned t : {8u, 16u, 32u, 64u}) {
    for (unsigned w = 0; w <= t; ++w) {
      INFO("T=" << t << " W=" << w);
      const auto values = random_values(w, 1024, t * 100 + w);
      const Bytes chunk = inline_chunk(t, w, values);
      REQUIRE(chunk.size() == (1 + 1024 * w / t) * (t / 8));
      const Bytes out = unpack_inline_bitpacking(ByteView(chunk), t, 1024, true);
      REQUIRE(out.size() == 1024 * (t / 8));
      for (size_t i = 0; i < 1024; ++i) REQUIRE(word_at(out, t, i) == values[i]);
    }
  }
}

TEST_CASE("FastLanes: one value read alone equals the unpacked block's, every width and index",
          "[encoding][bitpacking]") {
  for (unsigned t : {8u, 16u, 32u, 64u}) {
    for (unsigned w = 0; w <= t; ++w) {
      INFO("T=" << t << " W=" << w);
      const auto values = random_values(w, 1024, t * 7 + w);
      const Bytes chunk = inline_chunk(t, w, values);
      const uint8_t* packed = chunk.data() + t / 8;
      for (unsigned i = 0; i < 1024; ++i) REQUIRE(lance::encoding::fastlanes_value_at(t, w, packed, i) == values[i]);
    }
  }
}

TEST_CASE("InlineBitpacking and Flat: a chunk's chosen values decode to those of the whole chunk",
          "[encoding][bitpacking]") {
  using lance::encoding::ValueRange;
  const std::vector<ValueRange> ranges = {{0, 1}, {5, 9}, {5, 6}, {511, 512}, {1000, 1000}, {1020, 1023}};
  for (unsigned t : {8u, 16u, 32u, 64u}) {
    for (unsigned w : {0u, 1u, t / 2 + 1, t}) {
      for (uint64_t n : {1023ull, 1024ull}) {
        INFO("T=" << t << " W=" << w << " n=" << n);
        const auto values = random_values(w, n, t + w + static_cast<uint32_t>(n));
        const Bytes chunk = inline_chunk(t, w, values);
        const ByteView view(chunk);
        const auto some = lance::encoding::decode_miniblock_ranges(inline_bitpacking(t), {&view, 1}, n, ranges);
        REQUIRE(some.has_value());
        REQUIRE(some->bits_per_value == t);
        uint64_t k = 0;
        for (const auto& r : ranges)
          for (uint64_t i = r.begin; i < r.end; ++i, ++k) REQUIRE(word_at(some->data, t, k) == values[i]);
        REQUIRE(some->num_values == k);
        // The same values through Flat (whole-byte words are copied, not decoded).
        Bytes flat_bytes;
        for (uint64_t v : values) put_word(flat_bytes, t, v);
        const ByteView fview(flat_bytes);
        const auto copied = lance::encoding::decode_miniblock_ranges(flat(t), {&fview, 1}, n, ranges);
        REQUIRE(copied.has_value());
        REQUIRE(copied->data == some->data);
      }
    }
  }
  // Where the buffers do not allow it, the caller decodes the chunk whole.
  Bytes bits(128, 0xff);
  const ByteView bview(bits);
  REQUIRE_FALSE(lance::encoding::decode_miniblock_ranges(flat(1), {&bview, 1}, 1024, ranges).has_value());
  // Ranges outside the chunk, a chunk whose bytes do not match its width: corrupt.
  const Bytes chunk = inline_chunk(32, 5, random_values(5, 1024, 3));
  const ByteView view(chunk);
  const std::vector<ValueRange> outside = {{1000, 1025}};
  REQUIRE_CORRUPT(lance::encoding::decode_miniblock_ranges(inline_bitpacking(32), {&view, 1}, 1024, outside));
  const ByteView short_view = view.slice(0, chunk.size() - 4);
  REQUIRE_CORRUPT(lance::encoding::decode_miniblock_ranges(inline_bitpacking(32), {&short_view, 1}, 1024, ranges));
  Bytes wide = chunk;
  wide[0] = 33;
  const ByteView wide_view(wide);
  REQUIRE_CORRUPT(lance::encoding::decode_miniblock_ranges(inline_bitpacking(32), {&wide_view, 1}, 1024, ranges));
}

TEST_CASE("InlineBitpacking: value counts 0, 1, 1023, 1024, 1025 and several chunks", "[encoding][bitpacking]") {
  for (unsigned t : {8u, 16u, 32u, 64u}) {
    for (uint64_t n : {0ull, 1ull, 1023ull, 1024ull, 1025ull, 3000ull}) {
      INFO("T=" << t << " n=" << n);
      const auto values = random_values(t / 2 + 1, n, static_cast<uint32_t>(n + t));
      Bytes buffer;
      for (uint64_t start = 0; start < n; start += 1024) {
        std::vector<uint64_t> part(values.begin() + start, values.begin() + std::min<uint64_t>(n, start + 1024));
        // Different width per chunk, as the writer does.
        const unsigned w = (start / 1024) % 2 == 0 ? t / 2 + 1 : t;
        Bytes c = inline_chunk(t, w, part);
        buffer.insert(buffer.end(), c.begin(), c.end());
      }
      // Block context: several chunks back to back.
      const auto block = decode_block(inline_bitpacking(t), ByteView(buffer), n);
      REQUIRE(block.num_values == n);
      REQUIRE(block.bits_per_value == t);
      for (uint64_t i = 0; i < n; ++i) REQUIRE(word_at(block.data, t, i) == values[i]);
      if (n <= 1024) {
        const ByteView view(buffer);
        const auto mb = decode_miniblock(inline_bitpacking(t), std::span<const ByteView>(&view, 1), n);
        REQUIRE(mb.data == block.data);
      }
    }
  }
}

TEST_CASE("InlineBitpacking: worked example A (int32 0..1023, W=10, 1284-byte chunk)", "[encoding][bitpacking]") {
  std::vector<uint64_t> values(1024);
  for (size_t i = 0; i < 1024; ++i) values[i] = i;
  const Bytes chunk = inline_chunk(32, 10, values);
  REQUIRE(chunk.size() == 1284);  // u32 width + 320 u32 words, as in the map's appendix A
  REQUIRE(chunk[0] == 10);
  const ByteView view(chunk);
  const auto block = decode_miniblock(inline_bitpacking(32), std::span<const ByteView>(&view, 1), 1024);
  const auto decoded = as_values<uint32_t>(block.data);
  for (uint32_t i = 0; i < 1024; ++i) REQUIRE(decoded[i] == i);
  REQUIRE(lance::encoding::describe(inline_bitpacking(32)) == "InlineBitpacking(32)");
}

TEST_CASE("InlineBitpacking: corrupt chunks", "[encoding][bitpacking]") {
  const auto values = random_values(5, 1024, 7);
  Bytes chunk = inline_chunk(32, 5, values);
  const ByteView full(chunk);
  // Truncated payload.
  REQUIRE_CORRUPT(unpack_inline_bitpacking(full.slice(0, chunk.size() - 4), 32, 1024, false));
  // Width larger than the word.
  Bytes bad = chunk;
  bad[0] = 33;
  REQUIRE_CORRUPT(unpack_inline_bitpacking(ByteView(bad), 32, 1024, false));
  // Trailing bytes in a mini-block chunk (exact) but not in a block.
  Bytes longer = chunk;
  longer.insert(longer.end(), 4, 0);
  REQUIRE_CORRUPT(unpack_inline_bitpacking(ByteView(longer), 32, 1024, true));
  REQUIRE(unpack_inline_bitpacking(ByteView(longer), 32, 1024, false).size() == 4096);
  // Empty buffer but values expected; values beyond the chunks present.
  REQUIRE_CORRUPT(unpack_inline_bitpacking(ByteView(), 32, 1, false));
  REQUIRE_CORRUPT(unpack_inline_bitpacking(full, 32, 1025, false));
  // Unsupported word width (T=128 is a newer-format feature).
  REQUIRE_UNSUPPORTED(decode_block(inline_bitpacking(128), full, 10));
  REQUIRE_UNSUPPORTED(decode_block(inline_bitpacking(12), full, 10));
}

TEST_CASE("OutOfLineBitpacking: packed tail, raw tail, exact multiples", "[encoding][bitpacking]") {
  for (unsigned t : {8u, 16u, 32u, 64u}) {
    for (unsigned w : {0u, 1u, 3u, t / 2, t}) {
      for (uint64_t n : {0ull, 1ull, 100ull, 1023ull, 1024ull, 1025ull, 2048ull, 2500ull}) {
        INFO("T=" << t << " W=" << w << " n=" << n);
        const auto values = random_values(w, n, static_cast<uint32_t>(n * 3 + w + t));
        Bytes buffer;
        const uint64_t full = n / 1024;
        for (uint64_t b = 0; b < full; ++b) {
          std::vector<uint64_t> part(values.begin() + b * 1024, values.begin() + (b + 1) * 1024);
          Bytes p = reference_pack(t, w, part);
          buffer.insert(buffer.end(), p.begin(), p.end());
        }
        const uint64_t tail = n % 1024;
        if (tail > 0) {
          // The writer's rule: pack the tail when W·(1024 − tail) < (T − W)·tail.
          const bool pack_tail = uint64_t{w} * (1024 - tail) < uint64_t{t - w} * tail;
          if (pack_tail) {
            std::vector<uint64_t> part(values.begin() + full * 1024, values.end());
            part.resize(1024, 0);
            Bytes p = reference_pack(t, w, part);
            buffer.insert(buffer.end(), p.begin(), p.end());
          } else {
            for (uint64_t i = full * 1024; i < n; ++i) put_word(buffer, t, values[i]);
          }
        }
        const auto block = decode_block(out_of_line(t, w), ByteView(buffer), n);
        REQUIRE(block.bits_per_value == t);
        for (uint64_t i = 0; i < n; ++i) REQUIRE(word_at(block.data, t, i) == values[i]);
        if (t <= 16) {  // as levels: T=16 unpacks straight into them, T=8 through the block
          const auto levels = decode_levels(out_of_line(t, w), ByteView(buffer), n);
          REQUIRE(levels.size() == n);
          for (uint64_t i = 0; i < n; ++i) REQUIRE(levels[i] == values[i]);
        }
      }
    }
  }
}

TEST_CASE("OutOfLineBitpacking: map appendix B shape (1181 levels, W=1, T=16 → 256 bytes)", "[encoding][bitpacking]") {
  std::vector<uint64_t> levels(1181);
  for (size_t i = 0; i < levels.size(); ++i) levels[i] = (i % 3 == 0) ? 1 : 0;
  std::vector<uint64_t> first(levels.begin(), levels.begin() + 1024);
  std::vector<uint64_t> tail(levels.begin() + 1024, levels.end());
  tail.resize(1024, 0);
  Bytes buffer = reference_pack(16, 1, first);
  Bytes t2 = reference_pack(16, 1, tail);
  buffer.insert(buffer.end(), t2.begin(), t2.end());
  REQUIRE(buffer.size() == 256);
  const auto decoded = decode_levels(out_of_line(16, 1), ByteView(buffer), 1181);
  for (size_t i = 0; i < levels.size(); ++i) REQUIRE(decoded[i] == levels[i]);
  REQUIRE(lance::encoding::describe(out_of_line(16, 1)) == "OutOfLineBitpacking(16, values: Flat(1))");
}

TEST_CASE("OutOfLineBitpacking: corrupt buffers", "[encoding][bitpacking]") {
  Bytes buffer(100, 0);  // neither 1024-value block of width 3 (384 B) nor 1024·2 raw bytes
  REQUIRE_CORRUPT(unpack_out_of_line_bitpacking(ByteView(buffer), 16, 3, 2048));
  REQUIRE_CORRUPT(unpack_out_of_line_bitpacking(ByteView(buffer), 16, 3, 1500));
  REQUIRE_CORRUPT(unpack_out_of_line_bitpacking(ByteView(buffer), 16, 17, 10));
  Bytes odd(3, 0);
  REQUIRE_CORRUPT(unpack_out_of_line_bitpacking(ByteView(odd), 16, 1, 1));
  // Absurd value count: rejected before allocating, as levels too (zero-width blocks take no bytes).
  REQUIRE_CORRUPT(unpack_out_of_line_bitpacking(ByteView(buffer), 64, 0, uint64_t{1} << 62));
  REQUIRE_CORRUPT(decode_levels(out_of_line(16, 0), ByteView(buffer), uint64_t{1} << 62));
  REQUIRE_CORRUPT(decode_levels(out_of_line(16, 3), ByteView(buffer), 2048));
  // A large count within the decode limit over a tiny buffer: rejected before the output is
  // sized (1 GiB of zeros otherwise), as values and as levels.
  REQUIRE_CORRUPT(unpack_out_of_line_bitpacking(ByteView(buffer), 16, 3, uint64_t{1} << 29));
  REQUIRE_CORRUPT(decode_levels(out_of_line(16, 3), ByteView(buffer), uint64_t{1} << 29));
  // A packed width past the word, also one that would wrap to 3 as 32 bits (over a buffer that
  // holds one packed block of width 3).
  Bytes block3(384, 0);
  REQUIRE_CORRUPT(decode_levels(out_of_line(16, 17), ByteView(block3), 10));
  REQUIRE_CORRUPT(decode_levels(out_of_line(16, (uint64_t{1} << 32) + 3), ByteView(block3), 10));
  REQUIRE_CORRUPT(decode_block(out_of_line(16, (uint64_t{1} << 32) + 3), ByteView(block3), 10));
  REQUIRE(decode_levels(out_of_line(16, 3), ByteView(block3), 10).size() == 10);
}
