// Dispatch rules of decompress.h: contexts, unsupported encodings, levels, describe.
#include "test_encoding_helpers.h"

using namespace enc_test;
using lance::encoding::DataBlock;
using lance::encoding::decode_block;
using lance::encoding::decode_fixed_per_value;
using lance::encoding::decode_levels;
using lance::encoding::decode_miniblock;
using lance::encoding::decode_variable_per_value;
using lance::encoding::describe;

TEST_CASE("Encodings in contexts where Lance never puts them are unsupported, by name", "[encoding][dispatch]") {
  pb::CompressiveEncoding range;
  range.mutable_range()->set_uncompressed_bits_per_value(64);
  range.mutable_range()->set_start(5);
  range.mutable_range()->set_step(2);
  const Bytes buf(64, 0);
  const ByteView view(buf);
  try {
    decode_miniblock(range, std::span<const ByteView>(&view, 1), 4);
    FAIL("expected an error");
  } catch (const lance::Error& e) {
    REQUIRE(e.kind() == lance::ErrorKind::unsupported);
    REQUIRE(std::string(e.what()) == "Range encoding in a mini-block chunk is not supported");
  }
  pb::CompressiveEncoding delta;
  *delta.mutable_delta()->mutable_deltas() = flat(8);
  REQUIRE_UNSUPPORTED(decode_block(delta, view, 4));
  pb::CompressiveEncoding dict;
  dict.mutable_dictionary()->set_num_dictionary_items(3);
  REQUIRE_UNSUPPORTED(decode_block(dict, view, 4));
  // Constant has no mini-block form; OutOfLineBitpacking is block-only; Fsst is not a block.
  pb::CompressiveEncoding constant;
  constant.mutable_constant()->set_value("x");
  REQUIRE_UNSUPPORTED(decode_miniblock(constant, std::span<const ByteView>(&view, 1), 4));
  REQUIRE_UNSUPPORTED(decode_miniblock(out_of_line(16, 1), std::span<const ByteView>(&view, 1), 4));
  REQUIRE_UNSUPPORTED(decode_block(fsst(Bytes(2312, 0), variable(32)), view, 4));
  try {
    decode_block(fsst(Bytes(2312, 0), variable(32)), view, 4);
  } catch (const lance::Error& e) {
    REQUIRE(std::string(e.what()) == "Fsst encoding in a block buffer is not supported");
  }
  DataBlock fixed;
  fixed.num_values = 2;
  fixed.bits_per_value = 8;
  fixed.data = {1, 2};
  REQUIRE_UNSUPPORTED(decode_fixed_per_value(rle(8), fixed));
  REQUIRE_UNSUPPORTED(decode_variable_per_value(flat(8), variable_block64({Bytes{1}})));
  // An empty oneof is corrupt, not unsupported.
  REQUIRE_CORRUPT(decode_block(pb::CompressiveEncoding(), view, 4));
}

TEST_CASE("decode_levels widens 8/16/32/64-bit values and rejects > 65535", "[encoding][dispatch]") {
  Bytes b8{0, 1, 2, 3};
  REQUIRE(decode_levels(flat(8), ByteView(b8), 4) == std::vector<uint16_t>{0, 1, 2, 3});
  Bytes b32;
  for (uint32_t v : {0u, 65535u, 7u}) put<uint32_t>(b32, v);
  REQUIRE(decode_levels(flat(32), ByteView(b32), 3) == std::vector<uint16_t>{0, 65535, 7});
  Bytes big;
  put<uint64_t>(big, 65536);
  REQUIRE_CORRUPT(decode_levels(flat(64), ByteView(big), 1));
  // Levels through InlineBitpacking(16) when the page has ≤ 1024 levels.
  std::vector<uint64_t> levels(1024, 0);
  for (size_t i = 0; i < 300; ++i) levels[i] = i % 4;
  Bytes chunk;
  put_word(chunk, 16, 2);
  Bytes packed = reference_pack(16, 2, levels);
  chunk.insert(chunk.end(), packed.begin(), packed.end());
  const auto out = decode_levels(inline_bitpacking(16), ByteView(chunk), 300);
  for (size_t i = 0; i < 300; ++i) REQUIRE(out[i] == i % 4);
  REQUIRE(decode_levels(inline_bitpacking(16), ByteView(), 0).empty());
}

TEST_CASE("describe renders whole trees on one line", "[encoding][dispatch]") {
  REQUIRE(describe(general(pb::COMPRESSION_ALGORITHM_ZSTD, variable(32))) ==
          "General(zstd) › Variable(offsets: Flat(32))");
  REQUIRE(describe(rle(32)) == "Rle(values: Flat(32), run_lengths: Flat(8))");
  REQUIRE(describe(inline_bitpacking(64)) == "InlineBitpacking(64)");
  pb::CompressiveEncoding leveled = general(pb::COMPRESSION_ALGORITHM_ZSTD, flat(64));
  leveled.mutable_general()->mutable_compression()->set_level(3);
  REQUIRE(describe(leveled) == "General(zstd level 3) › Flat(64)");
  pb::CompressiveEncoding range;
  range.mutable_range()->set_uncompressed_bits_per_value(64);
  range.mutable_range()->set_step(1);
  REQUIRE(describe(range) == "Range(64, start=0, step=1)");
  REQUIRE(describe(pb::CompressiveEncoding()) == "(unset)");
  pb::CompressiveEncoding half;
  half.mutable_rle();
  REQUIRE(describe(half) == "Rle(values: ?, run_lengths: ?)");
}

TEST_CASE("Buffer compression inside Flat is rejected rather than misread", "[encoding][dispatch]") {
  pb::CompressiveEncoding e = flat(32);
  e.mutable_flat()->mutable_data()->set_scheme(pb::COMPRESSION_ALGORITHM_ZSTD);
  const Bytes buf(8, 0);
  REQUIRE_UNSUPPORTED(decode_block(e, ByteView(buf), 2));
  REQUIRE(describe(e) == "Flat(32, zstd)");
}
