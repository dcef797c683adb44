// Fsst with Lance's symbol-table serialization (docs/format.md §6.7).
#include "test_encoding_helpers.h"

#include "encoding/fsst.h"

using namespace enc_test;
using lance::encoding::decode_miniblock;
using lance::encoding::decode_variable_per_value;
using lance::encoding::describe;
using lance::encoding::parse_fsst_symbol_table;

namespace {

constexpr size_t kTableCapacity = 2312;  // 8 + 256·8 + 256, what writers allocate

/// Serializes a table as Lance's FsstEncoder::export does: header, n symbols, n lengths.
Bytes make_table(const std::vector<std::string>& symbols, bool compressed) {
  Bytes t;
  const uint64_t header = (uint64_t{0x46535354} << 32) | (uint64_t{compressed ? 1u : 0u} << 24) |
                          (uint64_t{0x12} << 16) | (uint64_t{0x34} << 8) | symbols.size();
  put<uint64_t>(t, header);
  for (const auto& s : symbols) {
    uint64_t v = 0;
    std::memcpy(&v, s.data(), s.size());
    put<uint64_t>(t, v);
  }
  for (const auto& s : symbols) t.push_back(static_cast<uint8_t>(s.size()));
  t.resize(kTableCapacity, 0);
  return t;
}

/// The variable mini-block chunk of `values` (u32 offsets from the chunk start).
Bytes variable_chunk32(const std::vector<Bytes>& values) {
  Bytes out;
  uint32_t o = static_cast<uint32_t>((values.size() + 1) * 4);
  put<uint32_t>(out, o);
  for (const auto& v : values) put<uint32_t>(out, o += static_cast<uint32_t>(v.size()));
  for (const auto& v : values) out.insert(out.end(), v.begin(), v.end());
  while (out.size() % 4) out.push_back(0x48);
  return out;
}

}  // namespace

TEST_CASE("Fsst table: n=0 with the switch off means raw strings", "[encoding][fsst]") {
  const Bytes table = make_table({}, false);
  const auto st = parse_fsst_symbol_table(ByteView(table));
  REQUIRE(st.n_symbols == 0);
  REQUIRE_FALSE(st.compressed);
  const Bytes chunk = variable_chunk32({bytes_of("user_0_698715"), bytes_of(""), bytes_of("\xff\x01")});
  const ByteView view(chunk);
  const auto enc = fsst(table, variable(32));
  const auto out = decode_miniblock(enc, std::span<const ByteView>(&view, 1), 3);
  REQUIRE(strings_of(out) == std::vector<std::string>{"user_0_698715", "", "\xff\x01"});
  REQUIRE(describe(enc) == "Fsst(raw) › Variable(offsets: Flat(32))");
}

TEST_CASE("Fsst table: n=46 packs lengths at 8 + 8n = 376", "[encoding][fsst]") {
  std::vector<std::string> symbols;
  for (int i = 0; i < 46; ++i) symbols.push_back(std::string(1 + i % 8, static_cast<char>('a' + i % 26)));
  symbols[0] = "user_";
  symbols[1] = "ERROR";
  const Bytes table = make_table(symbols, true);
  REQUIRE(table[376] == 5);  // length of symbol 0
  REQUIRE(table[377] == 5);  // length of symbol 1
  REQUIRE(table[422] == 0);  // zero fill after 46 lengths
  const auto st = parse_fsst_symbol_table(ByteView(table));
  REQUIRE(st.n_symbols == 46);
  REQUIRE(st.compressed);
  REQUIRE(st.terminator == 0x34);
  REQUIRE(st.suffix_lim == 0x12);
  REQUIRE(st.lengths[45] == symbols[45].size());

  // "user_" + escaped '7' + "ERROR" + symbol 2 ("ccc") ; second string escapes 0xff.
  const Bytes s1{0, 255, '7', 1, 2};
  const Bytes s2{255, 0xff, 255, 'x'};
  const Bytes chunk = variable_chunk32({s1, s2, {}});
  const ByteView view(chunk);
  const auto enc = fsst(table, variable(32));
  const auto out = decode_miniblock(enc, std::span<const ByteView>(&view, 1), 3);
  REQUIRE(out.bits_per_offset == 32);
  REQUIRE(strings_of(out) == std::vector<std::string>{"user_7ERRORccc", "\xffx", ""});
  REQUIRE(describe(enc) == "Fsst(n_symbols=46) › Variable(offsets: Flat(32))");

  // Some values of the chunk: only the wanted code streams are decoded, in the ranges' order.
  const std::vector<lance::encoding::ValueRange> ranges = {{2, 3}, {0, 1}, {1, 2}, {0, 0}};
  const auto some = lance::encoding::decode_miniblock_ranges(enc, std::span<const ByteView>(&view, 1), 3, ranges);
  REQUIRE(some.has_value());
  REQUIRE(strings_of(*some) == std::vector<std::string>{"", "user_7ERRORccc", "\xffx"});

  // Per-value (full-zip): the same code streams as a 64-bit variable block.
  const auto pv = decode_variable_per_value(enc, variable_block64({s1, s2}));
  REQUIRE(strings_of(pv) == std::vector<std::string>{"user_7ERRORccc", "\xffx"});
}

TEST_CASE("Fsst: 255 symbols fill the table up to byte 2303", "[encoding][fsst]") {
  // Codes 0..254 are symbols and 255 is the escape, so a full table has 255 symbols
  // (Lance writes such tables: the lengths then start at byte 8 + 8 * 255 = 2048).
  std::vector<std::string> symbols(254, "ab");
  symbols.push_back("zzzzzzzz");
  const auto st = parse_fsst_symbol_table(ByteView(make_table(symbols, true)));
  REQUIRE(st.n_symbols == 255);
  REQUIRE(st.lengths[254] == 8);
}

TEST_CASE("Fsst: corrupt tables and code streams", "[encoding][fsst]") {
  Bytes table = make_table({"ab", "cd"}, true);
  Bytes bad_magic = table;
  bad_magic[7] = 0;
  REQUIRE_CORRUPT(parse_fsst_symbol_table(ByteView(bad_magic)));
  REQUIRE_CORRUPT(parse_fsst_symbol_table(ByteView(table).slice(0, 8 + 16 + 1)));
  Bytes zero_len = table;
  zero_len[8 + 16] = 0;
  REQUIRE_CORRUPT(parse_fsst_symbol_table(ByteView(zero_len)));
  Bytes nine = table;
  nine[8 + 16] = 9;
  REQUIRE_CORRUPT(parse_fsst_symbol_table(ByteView(nine)));
  REQUIRE_CORRUPT(parse_fsst_symbol_table(ByteView(Bytes{1, 2, 3})));

  const auto enc = fsst(table, variable(32));
  // Code 2 is not a symbol; a trailing escape has no literal.
  REQUIRE_CORRUPT(decode_variable_per_value(enc, variable_block64({Bytes{0, 2}})));
  REQUIRE_CORRUPT(decode_variable_per_value(enc, variable_block64({Bytes{0, 255}})));
  REQUIRE(strings_of(decode_variable_per_value(enc, variable_block64({Bytes{0, 1, 0}}))) ==
          std::vector<std::string>{"abcdab"});
  // Variable chunk whose offsets point past the chunk.
  Bytes chunk = variable_chunk32({Bytes{0, 1}});
  chunk[4] = 200;
  const ByteView view(chunk);
  REQUIRE_CORRUPT(decode_miniblock(enc, std::span<const ByteView>(&view, 1), 1));
}
