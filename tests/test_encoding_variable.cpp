// Variable (offsets + bytes), Flat, Constant and ByteStreamSplit (docs/format.md §6.1–6.3, 6.8).
#include "test_encoding_helpers.h"

#include "encoding/byte_stream_split.h"
#include "encoding/variable.h"

using namespace enc_test;
using lance::encoding::decode_block;
using lance::encoding::decode_fixed_per_value;
using lance::encoding::decode_miniblock;
using lance::encoding::decode_variable_block;
using lance::encoding::decode_variable_chunk;
using lance::encoding::decode_variable_per_value;
using lance::encoding::describe;

TEST_CASE("Variable chunk: appendix C shape (\"row0\"..\"row255\", u32 offsets from 1028)", "[encoding][variable]") {
  std::vector<std::string> strs;
  for (int i = 0; i < 256; ++i) strs.push_back("row" + std::to_string(i));
  Bytes chunk;
  uint32_t o = 257 * 4;
  put<uint32_t>(chunk, o);
  for (auto& s : strs) put<uint32_t>(chunk, o += static_cast<uint32_t>(s.size()));
  for (auto& s : strs) chunk.insert(chunk.end(), s.begin(), s.end());
  while (chunk.size() % 4) chunk.push_back(0x48);
  REQUIRE(ByteView(chunk).read<uint32_t>(0) == 1028);
  const ByteView view(chunk);
  const auto block = decode_miniblock(variable(32), std::span<const ByteView>(&view, 1), 256);
  REQUIRE(block.bits_per_offset == 32);
  REQUIRE(block.offset(0) == 0);
  REQUIRE(strings_of(block) == strs);
}

TEST_CASE("Variable chunk: 64-bit offsets, zero and one values", "[encoding][variable]") {
  Bytes chunk;
  put<uint64_t>(chunk, 16);
  put<uint64_t>(chunk, 19);
  chunk.insert(chunk.end(), {'a', 'b', 'c', 0x48, 0x48, 0x48, 0x48, 0x48});
  REQUIRE(strings_of(decode_variable_chunk(ByteView(chunk), 64, 1)) == std::vector<std::string>{"abc"});
  Bytes empty_chunk;
  put<uint32_t>(empty_chunk, 4);
  REQUIRE(decode_variable_chunk(ByteView(empty_chunk), 32, 0).num_values == 0);
}

TEST_CASE("Variable chunk: corrupt offsets", "[encoding][variable]") {
  Bytes chunk;
  for (uint32_t v : {12u, 14u, 13u}) put<uint32_t>(chunk, v);  // descending
  chunk.insert(chunk.end(), {'a', 'b', 'c', 'd'});
  REQUIRE_CORRUPT(decode_variable_chunk(ByteView(chunk), 32, 2));
  Bytes into_table;
  for (uint32_t v : {4u, 14u, 15u}) put<uint32_t>(into_table, v);  // first offset inside the table
  into_table.insert(into_table.end(), {'a', 'b', 'c', 'd'});
  REQUIRE_CORRUPT(decode_variable_chunk(ByteView(into_table), 32, 2));
  Bytes past_end;
  for (uint32_t v : {12u, 14u, 99u}) put<uint32_t>(past_end, v);
  REQUIRE_CORRUPT(decode_variable_chunk(ByteView(past_end), 32, 2));
  REQUIRE_CORRUPT(decode_variable_chunk(ByteView(past_end), 32, 1000000));  // more offsets than bytes
  const ByteView one(chunk);
  REQUIRE_UNSUPPORTED(decode_miniblock(variable(16), std::span<const ByteView>(&one, 1), 0));
}

TEST_CASE("Variable block: 32-bit form from the map, 64-bit form, legacy form", "[encoding][variable]") {
  // 20000000 18000000 00000000 05000000 09000000 0d000000 "ERRORINFOWARN"
  Bytes b32;
  for (uint32_t v : {32u, 24u, 0u, 5u, 9u, 13u}) put<uint32_t>(b32, v);
  for (char c : std::string("ERRORINFOWARN")) b32.push_back(static_cast<uint8_t>(c));
  REQUIRE(strings_of(decode_block(variable(32), ByteView(b32), 3)) ==
          std::vector<std::string>{"ERROR", "INFO", "WARN"});

  Bytes b64;
  for (uint64_t v : {64ull, 48ull, 0ull, 2ull, 2ull, 5ull}) put<uint64_t>(b64, v);
  for (char c : std::string("hixyz")) b64.push_back(static_cast<uint8_t>(c));
  const auto blk = decode_variable_block(ByteView(b64), 3);
  REQUIRE(blk.bits_per_offset == 64);
  REQUIRE(strings_of(blk) == std::vector<std::string>{"hi", "", "xyz"});

  // Pre-release: [u8 32][u32 count][u32 bytes_start][offsets][bytes].
  Bytes legacy{32};
  put<uint32_t>(legacy, 2);
  put<uint32_t>(legacy, 9 + 12);
  for (uint32_t v : {0u, 1u, 3u}) put<uint32_t>(legacy, v);
  legacy.insert(legacy.end(), {'a', 'b', 'c'});
  REQUIRE(strings_of(decode_variable_block(ByteView(legacy), 2)) == std::vector<std::string>{"a", "bc"});

  Bytes bad = b32;
  bad[4] = 200;  // bytes_start past the end
  REQUIRE_CORRUPT(decode_variable_block(ByteView(bad), 3));
  Bytes width = b32;
  width[0] = 0;
  width[1] = 0;  // width 0, standard form
  REQUIRE_UNSUPPORTED(decode_variable_block(ByteView(width), 3));
  REQUIRE_CORRUPT(decode_variable_block(ByteView(b32), 4));  // only 4 offsets present
}

TEST_CASE("Variable per-value is the identity but validates offsets", "[encoding][variable]") {
  auto in = variable_block64({bytes_of("a"), bytes_of("bcd")});
  REQUIRE(strings_of(decode_variable_per_value(variable(32), in)) == std::vector<std::string>{"a", "bcd"});
  in.offsets[8] = 9;  // offset 1 past the data
  REQUIRE_CORRUPT(decode_variable_per_value(variable(32), in));
}

TEST_CASE("Flat in every context - bit-packed booleans", "[encoding][flat]") {
  Bytes data;
  for (uint32_t v = 0; v < 10; ++v) put<uint32_t>(data, v * v);
  const ByteView view(data);
  REQUIRE(decode_miniblock(flat(32), std::span<const ByteView>(&view, 1), 10).data == data);
  REQUIRE(decode_block(flat(32), view, 10).data == data);
  lance::encoding::DataBlock zipped;
  zipped.num_values = 10;
  zipped.bits_per_value = 32;
  zipped.data = data;
  REQUIRE(decode_fixed_per_value(flat(32), zipped).data == data);
  zipped.bits_per_value = 64;
  REQUIRE_CORRUPT(decode_fixed_per_value(flat(32), zipped));
  REQUIRE_CORRUPT(decode_block(flat(32), view, 11));
  // 4096 booleans per chunk: ⌈n/8⌉ bytes.
  const Bytes bits{0xff, 0x01};
  const auto b = decode_block(flat(1), ByteView(bits), 9);
  REQUIRE(b.data == bits);
  REQUIRE(b.bits_per_value == 1);
  REQUIRE(describe(flat(1)) == "Flat(1)");
}

TEST_CASE("Constant: scalar repeated, absent value = all null", "[encoding][constant]") {
  pb::CompressiveEncoding c;
  const Bytes scalar{0x00, 0x00, 0xc0, 0x3f};  // float 1.5
  c.mutable_constant()->set_value(std::string(scalar.begin(), scalar.end()));
  const auto b = decode_block(c, ByteView(), 3);
  REQUIRE(b.bits_per_value == 32);
  REQUIRE(as_values<float>(b.data) == std::vector<float>{1.5f, 1.5f, 1.5f});
  lance::encoding::DataBlock zipped;
  zipped.num_values = 2;
  REQUIRE(decode_fixed_per_value(c, zipped).data.size() == 8);
  pb::CompressiveEncoding null_c;
  null_c.mutable_constant();
  const auto n = decode_block(null_c, ByteView(), 5);
  REQUIRE(n.all_null);
  REQUIRE(n.num_values == 5);
  REQUIRE(describe(c) == "Constant(4 bytes)");
  REQUIRE(describe(null_c) == "Constant(null)");
  REQUIRE_CORRUPT(decode_block(c, ByteView(), uint64_t{1} << 40));
  // A constant of u16 levels.
  pb::CompressiveEncoding lvl;
  lvl.mutable_constant()->set_value(std::string("\x02\x00", 2));
  REQUIRE(lance::encoding::decode_levels(lvl, ByteView(), 4) == std::vector<uint16_t>(4, 2));
}

TEST_CASE("ByteStreamSplit: byte j of value i at j·n + i", "[encoding][bss]") {
  std::vector<double> values{1.5, -2.25, 3.0e10, 0.0, 7.125};
  Bytes plain(values.size() * 8);
  std::memcpy(plain.data(), values.data(), plain.size());
  Bytes split(plain.size());
  for (size_t i = 0; i < values.size(); ++i)
    for (size_t j = 0; j < 8; ++j) split[j * values.size() + i] = plain[i * 8 + j];
  pb::CompressiveEncoding bss;
  *bss.mutable_byte_stream_split()->mutable_values() = flat(64);
  const ByteView view(split);
  const auto b = decode_miniblock(bss, std::span<const ByteView>(&view, 1), values.size());
  REQUIRE(as_values<double>(b.data) == values);
  REQUIRE(describe(bss) == "ByteStreamSplit › Flat(64)");
  // 32-bit dictionary indices, 1024 values.
  Bytes idx_split(4096);
  for (size_t i = 0; i < 1024; ++i) {
    idx_split[i] = static_cast<uint8_t>(i);
    idx_split[1024 + i] = static_cast<uint8_t>(i >> 8);
  }
  *bss.mutable_byte_stream_split()->mutable_values() = flat(32);
  const ByteView view32(idx_split);
  const auto idx = as_values<uint32_t>(decode_miniblock(bss, std::span<const ByteView>(&view32, 1), 1024).data);
  for (uint32_t i = 0; i < 1024; ++i) REQUIRE(idx[i] == i);
  REQUIRE_CORRUPT(lance::encoding::byte_stream_unsplit(ByteView(split).slice(0, 39), 8, 5));
  REQUIRE_CORRUPT(lance::encoding::byte_stream_unsplit(ByteView(split), 8, 6));
  REQUIRE(lance::encoding::byte_stream_unsplit(ByteView(), 8, 0).empty());
}

TEST_CASE("Variable chunk some values: only the wanted ranges in their order (32- and 64-bit offsets)",
          "[encoding][variable]") {
  using lance::encoding::ValueRange;
  std::vector<std::string> strs;
  for (int i = 0; i < 40; ++i) strs.push_back(i % 5 == 0 ? "" : "v" + std::to_string(i * i));
  for (unsigned bits : {32u, 64u}) {
    INFO("bits=" << bits);
    Bytes chunk;
    const uint64_t w = bits / 8;
    uint64_t o = (strs.size() + 1) * w;
    auto put_offset = [&](uint64_t v) {
      if (bits == 32)
        put<uint32_t>(chunk, static_cast<uint32_t>(v));
      else
        put<uint64_t>(chunk, v);
    };
    put_offset(o);
    for (auto& s : strs) put_offset(o += s.size());
    for (auto& s : strs) chunk.insert(chunk.end(), s.begin(), s.end());
    const ByteView view(chunk);
    const std::vector<ValueRange> ranges = {{3, 4}, {10, 13}, {0, 1}, {39, 40}, {11, 12}, {7, 7}};
    const auto some = lance::encoding::decode_miniblock_ranges(variable(bits), {&view, 1}, strs.size(), ranges);
    REQUIRE(some.has_value());
    REQUIRE(some->bits_per_offset == bits);
    std::vector<std::string> want;
    for (const auto& r : ranges)
      for (uint64_t i = r.begin; i < r.end; ++i) want.push_back(strs[i]);
    REQUIRE(strings_of(*some) == want);
    // Offsets of a wanted value outside the chunk or descending: corrupt.
    Bytes bad = chunk;
    if (bits == 32) {
      const uint32_t past = static_cast<uint32_t>(chunk.size() + 1);
      std::memcpy(bad.data() + 11 * 4, &past, 4);
    } else {
      const uint64_t past = chunk.size() + 1;
      std::memcpy(bad.data() + 11 * 8, &past, 8);
    }
    const ByteView bad_view(bad);
    REQUIRE_CORRUPT(lance::encoding::decode_miniblock_ranges(variable(bits), {&bad_view, 1}, strs.size(), ranges));
    REQUIRE_CORRUPT(lance::encoding::decode_miniblock_ranges(variable(bits), {&view, 1}, strs.size(),
                                                             std::vector<ValueRange>{{39, 41}}));
  }
}
