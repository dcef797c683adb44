// Rle mini-block and block forms (docs/format.md §6.6).
#include "test_encoding_helpers.h"

#include <array>
#include <random>

#include <zstd.h>

#include "encoding/rle.h"

using namespace enc_test;
using lance::encoding::DataBlock;
using lance::encoding::decode_block;
using lance::encoding::decode_levels;
using lance::encoding::decode_miniblock;
using lance::encoding::infer_block_num_values;
using lance::encoding::rle_expand;

namespace {

template <typename T>
std::pair<Bytes, Bytes> runs(const std::vector<std::pair<T, uint8_t>>& rs) {
  Bytes values, lengths;
  for (auto [v, l] : rs) {
    put<T>(values, v);
    lengths.push_back(l);
  }
  return {values, lengths};
}

Bytes block_form(const Bytes& values, const Bytes& lengths) {
  Bytes out;
  put<uint64_t>(out, values.size());
  out.insert(out.end(), values.begin(), values.end());
  out.insert(out.end(), lengths.begin(), lengths.end());
  return out;
}

}  // namespace

TEST_CASE("Rle mini-block: expands runs for every value width", "[encoding][rle]") {
  {
    auto [v, l] = runs<uint8_t>({{7, 3}, {9, 2}});
    std::array<ByteView, 2> bufs{ByteView(v), ByteView(l)};
    auto b = decode_miniblock(rle(8), bufs, 5);
    REQUIRE(b.data == Bytes{7, 7, 7, 9, 9});
  }
  {
    auto [v, l] = runs<uint16_t>({{1000, 2}, {2000, 1}});
    std::array<ByteView, 2> bufs{ByteView(v), ByteView(l)};
    REQUIRE(as_values<uint16_t>(decode_miniblock(rle(16), bufs, 3).data) == std::vector<uint16_t>{1000, 1000, 2000});
  }
  {
    auto [v, l] = runs<uint32_t>({{42, 255}, {42, 255}, {42, 255}, {42, 235}, {100, 1}});
    std::array<ByteView, 2> bufs{ByteView(v), ByteView(l)};
    auto out = as_values<uint32_t>(decode_miniblock(rle(32), bufs, 1001).data);
    REQUIRE(out.size() == 1001);
    REQUIRE(out[999] == 42);
    REQUIRE(out[1000] == 100);
  }
  {
    auto [v, l] = runs<uint64_t>({{~uint64_t{0}, 4}});
    std::array<ByteView, 2> bufs{ByteView(v), ByteView(l)};
    REQUIRE(as_values<uint64_t>(decode_miniblock(rle(64), bufs, 4).data) == std::vector<uint64_t>(4, ~uint64_t{0}));
  }
}

TEST_CASE("Rle mini-block: the last run may overshoot the chunk (clamp rule)", "[encoding][rle]") {
  // Observed in real files: run lengths summing to 1025 for a 1024-value chunk.
  std::vector<std::pair<uint32_t, uint8_t>> rs;
  for (int i = 0; i < 4; ++i) rs.push_back({static_cast<uint32_t>(i), 255});
  rs.push_back({99, 5});  // 4·255 + 5 = 1025
  auto [v, l] = runs<uint32_t>(rs);
  std::array<ByteView, 2> bufs{ByteView(v), ByteView(l)};
  auto out = as_values<uint32_t>(decode_miniblock(rle(32), bufs, 1024).data);
  REQUIRE(out.size() == 1024);
  REQUIRE(out[1019] == 3);
  REQUIRE(out[1020] == 99);
  REQUIRE(out[1023] == 99);
  // Runs after the clamped one are ignored.
  rs.push_back({5, 10});
  auto [v2, l2] = runs<uint32_t>(rs);
  std::array<ByteView, 2> bufs2{ByteView(v2), ByteView(l2)};
  REQUIRE(as_values<uint32_t>(decode_miniblock(rle(32), bufs2, 1024).data) == out);
  // But too few values is corrupt.
  REQUIRE_CORRUPT(decode_miniblock(rle(32), bufs, 1026));
}

TEST_CASE("Rle block form: [u64 values bytes][values][u8 lengths], strict sum", "[encoding][rle]") {
  // The shape of map appendix B's def levels: header 1024 → 512 u16 runs + 512 lengths = 1544 B.
  std::vector<std::pair<uint16_t, uint8_t>> rs;
  std::vector<uint16_t> expected;
  for (uint16_t i = 0; i < 512; ++i) {
    const uint8_t len = static_cast<uint8_t>(1 + i % 4);
    rs.push_back({static_cast<uint16_t>(i % 3), len});
    expected.insert(expected.end(), len, static_cast<uint16_t>(i % 3));
  }
  auto [v, l] = runs<uint16_t>(rs);
  const Bytes buf = block_form(v, l);
  REQUIRE(buf.size() == 1544);
  REQUIRE(ByteView(buf).read<uint64_t>(0) == 1024);
  const auto levels = decode_levels(rle(16), ByteView(buf), expected.size());
  REQUIRE(levels == expected);
  REQUIRE(infer_block_num_values(rle(16), ByteView(buf)) == expected.size());
  // Block form does not clamp: a declared count below the run total is corrupt.
  REQUIRE_CORRUPT(decode_block(rle(16), ByteView(buf), expected.size() - 1));
  REQUIRE_CORRUPT(decode_block(rle(16), ByteView(buf), expected.size() + 1));
  // The count can be congruent modulo 65536 to the u16 header (map 5.3): the caller infers it.
  REQUIRE(*infer_block_num_values(rle(16), ByteView(buf)) % 65536 == expected.size() % 65536);
  REQUIRE_FALSE(infer_block_num_values(flat(16), ByteView(buf)).has_value());
}

TEST_CASE("Rle: corrupt and unsupported inputs", "[encoding][rle]") {
  auto [v, l] = runs<uint32_t>({{1, 2}, {2, 3}});
  // Values not a multiple of the width; run count mismatch; empty runs with values expected.
  Bytes short_values(v.begin(), v.end() - 1);
  REQUIRE_CORRUPT(rle_expand(ByteView(short_values), ByteView(l), 32, 8, 5, true));
  Bytes one_length(l.begin(), l.begin() + 1);
  REQUIRE_CORRUPT(rle_expand(ByteView(v), ByteView(one_length), 32, 8, 5, true));
  REQUIRE_CORRUPT(rle_expand(ByteView(), ByteView(), 32, 8, 5, true));
  REQUIRE(rle_expand(ByteView(), ByteView(), 32, 8, 0, true).empty());
  // A values section that overruns the block; a buffer too short for the header.
  Bytes block = block_form(v, l);
  block[0] = 200;
  REQUIRE_CORRUPT(decode_block(rle(32), ByteView(block), 5));
  Bytes tiny{1, 2, 3};
  REQUIRE_CORRUPT(decode_block(rle(32), ByteView(tiny), 5));
  // Absurd value count from two runs: rejected before allocating.
  REQUIRE_CORRUPT(rle_expand(ByteView(v), ByteView(l), 32, 8, uint64_t{1} << 40, true));
  // Odd widths are unsupported. A non-Flat child is decoded (Lance 12): bytes that cannot
  // hold the runs are corrupt; when neither child states the run count, unsupported.
  REQUIRE_UNSUPPORTED(decode_block(rle(24), ByteView(block_form(v, l)), 5));
  auto odd = rle(32);
  *odd.mutable_rle()->mutable_values() = inline_bitpacking(32);
  REQUIRE_CORRUPT(decode_block(odd, ByteView(block_form(v, l)), 5));
  *odd.mutable_rle()->mutable_run_lengths() = out_of_line(8, 3);
  REQUIRE_UNSUPPORTED(decode_block(odd, ByteView(block_form(v, l)), 5));
  // Missing child.
  pb::CompressiveEncoding missing;
  missing.mutable_rle();
  REQUIRE_CORRUPT(decode_block(missing, ByteView(block_form(v, l)), 5));
  // Wrong buffer count in a mini-block chunk.
  std::array<ByteView, 1> one{ByteView(v)};
  REQUIRE_CORRUPT(decode_miniblock(rle(32), one, 5));
}

TEST_CASE("Rle: 16-bit run lengths (newer writers)", "[encoding][rle]") {
  Bytes v, l;
  put<uint32_t>(v, 42);
  put<uint16_t>(l, 1000);
  std::array<ByteView, 2> bufs{ByteView(v), ByteView(l)};
  REQUIRE(as_values<uint32_t>(decode_miniblock(rle(32, 16), bufs, 1000).data) == std::vector<uint32_t>(1000, 42));
}

TEST_CASE("Rle: children under General (Lance 12 writes them)", "[encoding][rle]") {
  auto [v, l] = runs<uint32_t>({{7, 3}, {9, 1}, {7, 2}});
  // run values zstd-compressed ([u64 LE length][zstd frame]), run lengths plain
  Bytes z(ZSTD_compressBound(v.size()));
  z.resize(ZSTD_compress(z.data(), z.size(), v.data(), v.size(), 3));
  Bytes values;
  put<uint64_t>(values, v.size());
  values.insert(values.end(), z.begin(), z.end());
  auto enc = rle(32);
  *enc.mutable_rle()->mutable_values() = general(pb::COMPRESSION_ALGORITHM_ZSTD, flat(32));
  const std::vector<uint32_t> want{7, 7, 7, 9, 7, 7};
  std::array<ByteView, 2> chunk{ByteView(values), ByteView(l)};
  DataBlock got = decode_miniblock(enc, chunk, want.size());
  REQUIRE(got.num_values == want.size());
  for (size_t i = 0; i < want.size(); ++i) CHECK(ByteView(got.data).read<uint32_t>(i * 4) == want[i]);
  // block form: [u64 values bytes][values][lengths]
  Bytes block;
  put<uint64_t>(block, values.size());
  block.insert(block.end(), values.begin(), values.end());
  block.insert(block.end(), l.begin(), l.end());
  DataBlock b = decode_block(enc, ByteView(block), want.size());
  REQUIRE(b.data == got.data);
  REQUIRE_CORRUPT(decode_block(enc, ByteView(block), want.size() + 1));
}

TEST_CASE("Rle u16 levels: expanded straight into the levels equal the block path", "[encoding][rle]") {
  // decode_levels expands 16-bit Flat runs into its result (encoding::rle_levels_u16) and
  // everything else through a decoded block: both must give the same levels and errors.
  std::mt19937 rng(11);
  for (unsigned length_bits : {8u, 16u}) {
    for (int trial = 0; trial < 20; ++trial) {
      Bytes values, lengths;
      std::vector<uint16_t> expected;
      const int n_runs = 1 + static_cast<int>(rng() % 300);
      for (int r = 0; r < n_runs; ++r) {
        const uint16_t v = static_cast<uint16_t>(rng() % 5);
        const uint32_t len = rng() % 7 == 0 ? 0 : 1 + rng() % (length_bits == 8 ? 255 : 3000);  // zero-length runs too
        put<uint16_t>(values, v);
        if (length_bits == 8)
          lengths.push_back(static_cast<uint8_t>(len));
        else
          put<uint16_t>(lengths, static_cast<uint16_t>(len));
        expected.insert(expected.end(), len, v);
      }
      const Bytes buf = block_form(values, lengths);
      DYNAMIC_SECTION("length bits " << length_bits << " trial " << trial) {
        std::vector<uint16_t> levels{9, 9, 9};  // replaced whole
        REQUIRE(lance::encoding::rle_levels_u16(rle(16, length_bits), ByteView(buf), expected.size(), levels));
        REQUIRE(levels == expected);
        REQUIRE(decode_levels(rle(16, length_bits), ByteView(buf), expected.size()) == expected);
        const DataBlock block = decode_block(rle(16, length_bits), ByteView(buf), expected.size());
        REQUIRE(as_values<uint16_t>(block.data) == expected);
        // Block form does not clamp: a count off by one either way is corrupt on both paths.
        REQUIRE_CORRUPT(decode_levels(rle(16, length_bits), ByteView(buf), expected.size() + 1));
        if (!expected.empty()) REQUIRE_CORRUPT(decode_levels(rle(16, length_bits), ByteView(buf), expected.size() - 1));
      }
    }
  }
  SECTION("an absurd count over a few runs is rejected before anything is allocated") {
    auto [v, l] = runs<uint16_t>({{1, 2}, {0, 3}});
    const Bytes buf = block_form(v, l);
    REQUIRE_CORRUPT(decode_levels(rle(16), ByteView(buf), uint64_t{1} << 40));
    REQUIRE_CORRUPT(decode_levels(rle(16), ByteView(buf), uint64_t{1} << 62));
  }
  SECTION("other widths and encodings are not taken, and leave the levels alone") {
    auto [v, l] = runs<uint8_t>({{1, 2}, {0, 3}});
    std::vector<uint16_t> levels{7};
    REQUIRE_FALSE(lance::encoding::rle_levels_u16(rle(8), ByteView(block_form(v, l)), 5, levels));
    REQUIRE_FALSE(lance::encoding::rle_levels_u16(flat(16), ByteView(block_form(v, l)), 5, levels));
    REQUIRE(levels == std::vector<uint16_t>{7});
    REQUIRE(decode_levels(rle(8), ByteView(block_form(v, l)), 5) == std::vector<uint16_t>{1, 1, 0, 0, 0});
  }
  SECTION("no levels, no bytes") {
    std::vector<uint16_t> levels{3};
    REQUIRE(lance::encoding::rle_levels_u16(rle(16), ByteView(), 0, levels));
    REQUIRE(levels.empty());
  }
}
