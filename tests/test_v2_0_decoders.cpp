// The 2.0 ArrayEncoding decoders (lib/encoding/v2_0, docs/format.md §4) on hand-made
// buffers: one section per encoding, plus the errors bad trees and buffers must raise.
#include <catch2/catch.hpp>

#include <lz4.h>
#include <zstd.h>

#include <map>
#include <optional>

#include "encoding/v2_0/array_decoder.h"
#include "test_encoding_helpers.h"

namespace {

namespace v20 = lance::encoding::v2_0;
namespace pb20 = ::lance::encodings;
using enc_test::put;
using enc_test::strings_of;
using lance::Bytes;
using lance::ByteView;
using lance::TypeId;
using lance::TypePtr;

/// Page buffers held by a test; `buffers()` hands out the views.
struct Page {
  std::vector<Bytes> data;
  std::vector<ByteView> views;

  uint32_t add(Bytes b) {
    data.push_back(std::move(b));
    return static_cast<uint32_t>(data.size() - 1);
  }
  v20::Buffers buffers() {
    views.assign(data.begin(), data.end());
    return {views, {}, {}};
  }
};

pb20::ArrayEncoding flat(uint64_t bits, uint32_t buffer, const std::string& scheme = "") {
  pb20::ArrayEncoding e;
  e.mutable_flat()->set_bits_per_value(bits);
  e.mutable_flat()->mutable_buffer()->set_buffer_index(buffer);
  if (!scheme.empty()) e.mutable_flat()->mutable_compression()->set_scheme(scheme);
  return e;
}
pb20::ArrayEncoding no_nulls(const pb20::ArrayEncoding& values) {
  pb20::ArrayEncoding e;
  *e.mutable_nullable()->mutable_no_nulls()->mutable_values() = values;
  return e;
}
pb20::ArrayEncoding some_nulls(uint32_t validity, const pb20::ArrayEncoding& values) {
  pb20::ArrayEncoding e;
  *e.mutable_nullable()->mutable_some_nulls()->mutable_validity() = flat(1, validity);
  *e.mutable_nullable()->mutable_some_nulls()->mutable_values() = values;
  return e;
}
pb20::ArrayEncoding all_nulls() {
  pb20::ArrayEncoding e;
  e.mutable_nullable()->mutable_all_nulls();
  return e;
}
pb20::ArrayEncoding binary(const pb20::ArrayEncoding& indices, const pb20::ArrayEncoding& bytes, uint64_t adjustment) {
  pb20::ArrayEncoding e;
  *e.mutable_binary()->mutable_indices() = indices;
  *e.mutable_binary()->mutable_bytes() = bytes;
  e.mutable_binary()->set_null_adjustment(adjustment);
  return e;
}

template <typename T>
Bytes words(std::initializer_list<T> values) {
  Bytes b;
  for (T v : values) put<T>(b, v);
  return b;
}

/// Adds a Binary page of `values` (nullopt = null) the way Lance's writer lays it out.
pb20::ArrayEncoding add_strings(Page& page, const std::vector<std::optional<std::string>>& values) {
  std::string bytes;
  std::vector<uint64_t> ends;
  std::vector<bool> null;
  for (const auto& v : values) {
    if (v) bytes += *v;
    ends.push_back(bytes.size());
    null.push_back(!v);
  }
  const uint64_t adjustment = bytes.size() + 1;
  Bytes idx;
  for (size_t i = 0; i < ends.size(); ++i) put<uint64_t>(idx, ends[i] + (null[i] ? adjustment : 0));
  const uint32_t i = page.add(idx);
  const uint32_t b = page.add(Bytes(bytes.begin(), bytes.end()));
  return binary(no_nulls(flat(64, i)), flat(8, b), adjustment);
}

const TypePtr& t(TypeId id) {
  static std::map<TypeId, TypePtr> cache;
  auto& p = cache[id];
  if (!p) p = lance::make_type(id);
  return p;
}

std::vector<int32_t> int32s(const lance::encoding::DataBlock& b) {
  REQUIRE(b.bits_per_value == 32);
  return enc_test::as_values<int32_t>(b.data);
}

Bytes zstd_frame(const Bytes& plain) {
  Bytes out;
  put<uint64_t>(out, plain.size());
  Bytes frame(ZSTD_compressBound(plain.size()));
  size_t n = ZSTD_compress(frame.data(), frame.size(), plain.data(), plain.size(), 3);
  REQUIRE(!ZSTD_isError(n));
  out.insert(out.end(), frame.begin(), frame.begin() + n);
  return out;
}

Bytes lz4_frame(const Bytes& plain) {
  Bytes out;
  put<uint32_t>(out, static_cast<uint32_t>(plain.size()));
  Bytes block(LZ4_compressBound(static_cast<int>(plain.size())));
  int n = LZ4_compress_default(reinterpret_cast<const char*>(plain.data()), reinterpret_cast<char*>(block.data()),
                               static_cast<int>(plain.size()), static_cast<int>(block.size()));
  REQUIRE(n > 0);
  out.insert(out.end(), block.begin(), block.begin() + n);
  return out;
}

}  // namespace

TEST_CASE("2.0 Flat: fixed-width values, bitmaps and compressed buffers", "[v2_0]") {
  Page page;
  SECTION("32-bit values; trailing bytes ignored") {
    uint32_t b = page.add(words<int32_t>({7, -1, 42, 99}));
    auto d = v20::decode_array(flat(32, b), page.buffers(), t(TypeId::int32), 3);
    CHECK(int32s(d.values) == std::vector<int32_t>{7, -1, 42});
    CHECK_FALSE(d.has_nulls());
  }
  SECTION("1-bit values are an LSB-first bitmap") {
    uint32_t b = page.add({0b10110010, 0b1});
    auto d = v20::decode_array(flat(1, b), page.buffers(), t(TypeId::boolean), 9);
    CHECK(d.values.bits_per_value == 1);
    CHECK(d.values.data == Bytes{0b10110010, 0b1});
  }
  SECTION("zstd and lz4: the whole buffer is one frame") {
    Bytes plain = words<int64_t>({1, 2, 3, -4, 5});
    for (const std::string scheme : {"zstd", "lz4"}) {
      Page p;
      uint32_t b = p.add(scheme == "zstd" ? zstd_frame(plain) : lz4_frame(plain));
      auto d = v20::decode_array(flat(64, b, scheme), p.buffers(), t(TypeId::int64), 4);
      CHECK(enc_test::as_values<int64_t>(d.values.data) == std::vector<int64_t>{1, 2, 3, -4});
    }
  }
  SECTION("errors") {
    uint32_t b = page.add(words<int32_t>({1, 2}));
    REQUIRE_CORRUPT(v20::decode_array(flat(32, b), page.buffers(), t(TypeId::int32), 3));  // too short
    REQUIRE_UNSUPPORTED(v20::decode_array(flat(12, b), page.buffers(), t(TypeId::int32), 1));
    REQUIRE_UNSUPPORTED(v20::decode_array(flat(32, b, "snappy"), page.buffers(), t(TypeId::int32), 1));
    REQUIRE_CORRUPT(v20::decode_array(flat(32, 5), page.buffers(), t(TypeId::int32), 1));          // no buffer 5
    REQUIRE_CORRUPT(v20::decode_array(flat(32, b, "zstd"), page.buffers(), t(TypeId::int32), 1));  // not a frame
  }
}

TEST_CASE("2.0 Nullable: no_nulls, some_nulls and all_nulls", "[v2_0]") {
  Page page;
  const uint32_t values = page.add(words<int32_t>({10, 0, 30, 40}));
  const uint32_t validity = page.add({0b1101});
  SECTION("no_nulls") {
    auto d = v20::decode_array(no_nulls(flat(32, values)), page.buffers(), t(TypeId::int32), 4);
    CHECK(int32s(d.values) == std::vector<int32_t>{10, 0, 30, 40});
    CHECK_FALSE(d.has_nulls());
  }
  SECTION("some_nulls: a validity bitmap, values in every slot") {
    auto d = v20::decode_array(some_nulls(validity, flat(32, values)), page.buffers(), t(TypeId::int32), 4);
    CHECK(int32s(d.values) == std::vector<int32_t>{10, 0, 30, 40});
    CHECK(d.valid == std::vector<uint8_t>{1, 0, 1, 1});
  }
  SECTION("all_nulls materialises zero values of the type") {
    auto d = v20::decode_array(all_nulls(), page.buffers(), t(TypeId::int32), 3);
    CHECK(int32s(d.values) == std::vector<int32_t>{0, 0, 0});
    CHECK(d.valid == std::vector<uint8_t>{0, 0, 0});
    auto s = v20::decode_array(all_nulls(), page.buffers(), t(TypeId::utf8), 2);
    CHECK(strings_of(s.values) == std::vector<std::string>{"", ""});
    auto fsl_type = lance::make_fixed_size_list(
        std::make_shared<lance::Field>(lance::Field{"item", t(TypeId::float32), true, -1, {}}), 3);
    auto f = v20::decode_array(all_nulls(), page.buffers(), fsl_type, 2);
    CHECK(std::vector<uint64_t>(f.values.fsl_dims.begin(), f.values.fsl_dims.end()) == std::vector<uint64_t>{3});
    CHECK(f.values.data.size() == 2 * 3 * 4);
    CHECK(f.valid == std::vector<uint8_t>{0, 0});
  }
  SECTION("the validity must be a bitmap of every row") {
    REQUIRE_CORRUPT(v20::decode_array(some_nulls(validity, flat(32, values)), page.buffers(), t(TypeId::int32), 9));
  }
}

TEST_CASE("2.0 Binary: end offsets with the null adjustment", "[v2_0]") {
  Page page;
  SECTION("[\"ab\", null, \"\", \"cde\"]: adjustment 6, indices [2, 8, 2, 5]") {
    auto enc = add_strings(page, {"ab", std::nullopt, "", "cde"});
    REQUIRE(enc.binary().null_adjustment() == 6);
    REQUIRE(enc_test::as_values<uint64_t>(page.data[0]) == std::vector<uint64_t>{2, 8, 2, 5});
    auto d = v20::decode_array(enc, page.buffers(), t(TypeId::utf8), 4);
    CHECK(strings_of(d.values) == std::vector<std::string>{"ab", "", "", "cde"});
    CHECK(d.valid == std::vector<uint8_t>{1, 0, 1, 1});
  }
  SECTION("all null: every index is the adjustment") {
    auto enc = add_strings(page, {std::nullopt, std::nullopt});
    auto d = v20::decode_array(enc, page.buffers(), t(TypeId::utf8), 2);
    CHECK(d.valid == std::vector<uint8_t>{0, 0});
  }
  SECTION("decreasing ends and missing bytes are corrupt") {
    uint32_t i = page.add(words<uint64_t>({3, 1}));
    uint32_t b = page.add(enc_test::bytes_of("abc"));
    REQUIRE_CORRUPT(v20::decode_array(binary(flat(64, i), flat(8, b), 4), page.buffers(), t(TypeId::utf8), 2));
    uint32_t j = page.add(words<uint64_t>({2, 9}));
    REQUIRE_CORRUPT(v20::decode_array(binary(flat(64, j), flat(8, b), 100), page.buffers(), t(TypeId::utf8), 2));
  }
  SECTION("bytes compressed with zstd") {
    uint32_t i = page.add(words<uint64_t>({5, 5, 11}));
    uint32_t b = page.add(zstd_frame(enc_test::bytes_of("hello world")));
    auto d =
        v20::decode_array(binary(no_nulls(flat(64, i)), flat(8, b, "zstd"), 12), page.buffers(), t(TypeId::binary), 3);
    CHECK(strings_of(d.values) == std::vector<std::string>{"hello", "", " world"});
  }
}

TEST_CASE("2.0 Dictionary: plain strings vs Arrow dictionary fields", "[v2_0]") {
  Page page;
  auto items = add_strings(page, {"x", "yy", std::nullopt});
  auto dict = [&](const pb20::ArrayEncoding& indices, uint32_t n) {
    pb20::ArrayEncoding e;
    *e.mutable_dictionary()->mutable_indices() = indices;
    *e.mutable_dictionary()->mutable_items() = items;
    e.mutable_dictionary()->set_num_dictionary_items(n);
    return e;
  };
  SECTION("plain string: u8 indices, 0 = null, k + 1 = item k") {
    uint32_t i = page.add({0, 1, 2, 1});
    auto d = v20::decode_array(dict(no_nulls(flat(8, i)), 2), page.buffers(), t(TypeId::utf8), 4);
    CHECK(strings_of(d.values) == std::vector<std::string>{"", "x", "yy", "x"});
    CHECK(d.valid == std::vector<uint8_t>{0, 1, 1, 1});
  }
  SECTION("Arrow dictionary: 0-based keys of the key width; a key may point at a null item") {
    uint32_t i = page.add(words<int32_t>({1, 0, 2, 1}));
    auto type = lance::make_dictionary(t(TypeId::int32), t(TypeId::utf8));
    auto d = v20::decode_array(dict(no_nulls(flat(32, i)), 3), page.buffers(), type, 4);
    CHECK(strings_of(d.values) == std::vector<std::string>{"yy", "x", "", "yy"});
    CHECK(d.valid == std::vector<uint8_t>{1, 1, 0, 1});
  }
  SECTION("a zero-item dictionary of an all-null page") {
    Page p;
    auto none = add_strings(p, {});
    uint32_t i = p.add({0, 0, 0});
    pb20::ArrayEncoding e;
    *e.mutable_dictionary()->mutable_indices() = no_nulls(flat(8, i));
    *e.mutable_dictionary()->mutable_items() = none;
    auto d = v20::decode_array(e, p.buffers(), t(TypeId::utf8), 3);
    CHECK(d.valid == std::vector<uint8_t>{0, 0, 0});
  }
  SECTION("an index past the items is corrupt") {
    uint32_t i = page.add({4});
    REQUIRE_CORRUPT(v20::decode_array(dict(flat(8, i), 2), page.buffers(), t(TypeId::utf8), 1));
  }
}

TEST_CASE("2.0 Fsst: a Binary of code streams and Lance's symbol table", "[v2_0]") {
  // Table: symbols "he" (code 0) and "llo" (code 1); 255 escapes a literal byte.
  Bytes table;
  put<uint64_t>(table, (uint64_t{0x46535354} << 32) | (uint64_t{1} << 24) | 2);
  put<uint64_t>(table, 0x6568);    // "he"
  put<uint64_t>(table, 0x6f6c6c);  // "llo"
  table.push_back(2);
  table.push_back(3);
  Page page;
  std::string codes_a{'\x00', '\x01'}, codes_b{'\xff', '!', '\x00'};
  auto inner = add_strings(page, {codes_a, std::nullopt, codes_b, ""});
  pb20::ArrayEncoding e;
  *e.mutable_fsst()->mutable_binary() = inner;
  e.mutable_fsst()->set_symbol_table(std::string(table.begin(), table.end()));
  auto d = v20::decode_array(e, page.buffers(), t(TypeId::utf8), 4);
  CHECK(strings_of(d.values) == std::vector<std::string>{"hello", "", "!he", ""});
  CHECK(d.valid == std::vector<uint8_t>{1, 0, 1, 1});
  e.mutable_fsst()->set_symbol_table("not a table");
  REQUIRE_CORRUPT(v20::decode_array(e, page.buffers(), t(TypeId::utf8), 4));
}

TEST_CASE("2.0 FixedSizeList: dimension items per row, item nulls inside", "[v2_0]") {
  Page page;
  uint32_t v = page.add(words<float>({1, 2, 3, 4, 5, 6}));
  uint32_t valid = page.add({0b101111});
  pb20::ArrayEncoding e;
  e.mutable_fixed_size_list()->set_dimension(2);
  *e.mutable_fixed_size_list()->mutable_items() = some_nulls(valid, flat(32, v));
  auto item = std::make_shared<lance::Field>(lance::Field{"item", t(TypeId::float32), true, -1, {}});
  auto type = lance::make_fixed_size_list(item, 2);
  auto d = v20::decode_array(e, page.buffers(), type, 3);
  CHECK(d.values.num_values == 3);
  CHECK(std::vector<uint64_t>(d.values.fsl_dims.begin(), d.values.fsl_dims.end()) == std::vector<uint64_t>{2});
  REQUIRE(d.values.fsl_validity.size() == 1);
  CHECK(d.values.fsl_validity[0] == Bytes{0b101111});
  CHECK(enc_test::as_values<float>(d.values.data) == std::vector<float>{1, 2, 3, 4, 5, 6});
  CHECK_FALSE(d.has_nulls());
  e.mutable_fixed_size_list()->set_dimension(3);  // disagrees with the type
  REQUIRE_CORRUPT(v20::decode_array(e, page.buffers(), type, 2));
}

TEST_CASE("2.0 PackedStruct: row-major fixed-width children", "[v2_0]") {
  Page page;
  Bytes rows;
  for (int32_t r = 0; r < 3; ++r) {
    put<int32_t>(rows, r * 10);
    rows.push_back(static_cast<uint8_t>(r));
    rows.push_back(static_cast<uint8_t>(100 + r));
    put<int16_t>(rows, static_cast<int16_t>(-r));
  }
  uint32_t b = page.add(rows);
  auto field = [](const char* name, TypePtr type) {
    return std::make_shared<lance::Field>(lance::Field{name, std::move(type), true, -1, {}});
  };
  auto type = lance::make_struct({field("a", t(TypeId::int32)),
                                  field("v", lance::make_fixed_size_list(field("item", t(TypeId::uint8)), 2)),
                                  field("c", t(TypeId::int16))});
  pb20::ArrayEncoding e;
  for (int i = 0; i < 3; ++i) *e.mutable_packed_struct()->add_inner() = flat(32, 0);
  e.mutable_packed_struct()->mutable_buffer()->set_buffer_index(b);
  auto d = v20::decode_array(e, page.buffers(), type, 3);
  REQUIRE(d.values.children.size() == 3);
  CHECK(int32s(d.values.children[0]) == std::vector<int32_t>{0, 10, 20});
  CHECK(d.values.children[1].bits_per_value == 8);
  CHECK(d.values.children[1].data == Bytes{0, 100, 1, 101, 2, 102});
  CHECK(enc_test::as_values<int16_t>(d.values.children[2].data) == std::vector<int16_t>{0, -1, -2});
  REQUIRE_CORRUPT(v20::decode_array(e, page.buffers(), type, 4));  // buffer too short
  auto with_string = lance::make_struct({field("s", t(TypeId::utf8))});
  REQUIRE_UNSUPPORTED(v20::decode_array(e, page.buffers(), with_string, 1));
}

TEST_CASE("2.0 Bitpacked and BitpackedForNonNeg", "[v2_0]") {
  Page page;
  SECTION("Bitpacked: sequential LSB-first 3-bit values, unsigned and signed") {
    // values 1, 5, 3, 7, 2 → bits 001 101 011 111 010 (value i at bit 3i)
    uint64_t bits = 0;
    const std::vector<uint64_t> vals{1, 5, 3, 7, 2};
    for (size_t i = 0; i < vals.size(); ++i) bits |= vals[i] << (3 * i);
    uint32_t b = page.add(words<uint16_t>({static_cast<uint16_t>(bits)}));
    pb20::ArrayEncoding e;
    e.mutable_bitpacked()->set_compressed_bits_per_value(3);
    e.mutable_bitpacked()->set_uncompressed_bits_per_value(16);
    e.mutable_bitpacked()->mutable_buffer()->set_buffer_index(b);
    auto d = v20::decode_array(e, page.buffers(), t(TypeId::uint16), 5);
    CHECK(enc_test::as_values<uint16_t>(d.values.data) == std::vector<uint16_t>{1, 5, 3, 7, 2});
    e.mutable_bitpacked()->set_signed_(true);
    auto s = v20::decode_array(e, page.buffers(), t(TypeId::int16), 5);
    CHECK(enc_test::as_values<int16_t>(s.values.data) == std::vector<int16_t>{1, -3, 3, -1, 2});
    REQUIRE_CORRUPT(v20::decode_array(e, page.buffers(), t(TypeId::int16), 7));  // 21 bits > 16
  }
  SECTION("BitpackedForNonNeg: FastLanes blocks of 1024, the last zero-padded") {
    std::vector<uint64_t> vals(2048, 0);
    for (size_t i = 0; i < 1500; ++i) vals[i] = (i * 37) % 512;
    Bytes packed = enc_test::reference_pack(32, 9, std::vector<uint64_t>(vals.begin(), vals.begin() + 1024));
    Bytes second = enc_test::reference_pack(32, 9, std::vector<uint64_t>(vals.begin() + 1024, vals.end()));
    packed.insert(packed.end(), second.begin(), second.end());
    uint32_t b = page.add(packed);
    pb20::ArrayEncoding e;
    e.mutable_bitpacked_for_non_neg()->set_compressed_bits_per_value(9);
    e.mutable_bitpacked_for_non_neg()->set_uncompressed_bits_per_value(32);
    e.mutable_bitpacked_for_non_neg()->mutable_buffer()->set_buffer_index(b);
    auto d = v20::decode_array(e, page.buffers(), t(TypeId::uint32), 1500);
    auto got = enc_test::as_values<uint32_t>(d.values.data);
    REQUIRE(got.size() == 1500);
    for (size_t i = 0; i < 1500; ++i) REQUIRE(got[i] == vals[i]);
    REQUIRE_CORRUPT(v20::decode_array(e, page.buffers(), t(TypeId::uint32), 2049));  // a third block is missing
  }
}

TEST_CASE("2.0 FixedSizeBinary and Constant", "[v2_0]") {
  Page page;
  uint32_t b = page.add(enc_test::bytes_of("abcdefXY"));
  pb20::ArrayEncoding e;
  e.mutable_fixed_size_binary()->set_byte_width(2);
  *e.mutable_fixed_size_binary()->mutable_bytes() = flat(8, b);
  auto d = v20::decode_array(e, page.buffers(), t(TypeId::utf8), 4);
  CHECK(strings_of(d.values) == std::vector<std::string>{"ab", "cd", "ef", "XY"});
  REQUIRE_CORRUPT(v20::decode_array(e, page.buffers(), t(TypeId::utf8), 5));

  pb20::ArrayEncoding c;
  c.mutable_constant()->set_value(std::string("\x2a\x00\x00\x00", 4));
  auto k = v20::decode_array(c, page.buffers(), t(TypeId::int32), 3);
  CHECK(int32s(k.values) == std::vector<int32_t>{42, 42, 42});
}

TEST_CASE("2.0 List offsets: page-relative ends, nulls shifted by the adjustment", "[v2_0]") {
  // Format map appendix F: rows null, [3], [3], [3], [3], [], [3], null.
  Page page;
  uint32_t b = page.add(words<uint64_t>({10285, 3, 6, 9, 12, 12, 15, 10300}));
  pb20::List list;
  *list.mutable_offsets() = no_nulls(flat(64, b));
  list.set_null_offset_adjustment(10285);
  list.set_num_items(10284);
  auto o = v20::decode_list_offsets(list, page.buffers(), 8);
  CHECK(o.ends == std::vector<uint64_t>{0, 3, 6, 9, 12, 12, 15, 15});
  CHECK(o.valid == std::vector<uint8_t>{0, 1, 1, 1, 1, 1, 1, 0});
  CHECK(o.num_items == 10284);
  list.set_num_items(10);  // ends past the items the page references
  REQUIRE_CORRUPT(v20::decode_list_offsets(list, page.buffers(), 8));
}

TEST_CASE("2.0 trees: buffers, names and unknown encodings", "[v2_0]") {
  SECTION("column and file buffers are addressed by type") {
    Bytes col = words<int32_t>({5, 6}), file = words<int32_t>({7, 8});
    std::vector<ByteView> cols{ByteView(col)}, files{ByteView(), ByteView(file)};
    v20::Buffers bufs{{}, cols, files};
    auto e = flat(32, 0);
    e.mutable_flat()->mutable_buffer()->set_buffer_type(pb20::Buffer::column);
    CHECK(int32s(v20::decode_array(e, bufs, t(TypeId::int32), 2).values) == std::vector<int32_t>{5, 6});
    e.mutable_flat()->mutable_buffer()->set_buffer_type(pb20::Buffer::file);
    e.mutable_flat()->mutable_buffer()->set_buffer_index(1);
    CHECK(int32s(v20::decode_array(e, bufs, t(TypeId::int32), 2).values) == std::vector<int32_t>{7, 8});
    e.mutable_flat()->mutable_buffer()->set_buffer_index(2);
    REQUIRE_CORRUPT(v20::decode_array(e, bufs, t(TypeId::int32), 2));
  }
  SECTION("referenced buffers and descriptions") {
    Page page;
    auto enc = add_strings(page, {"a"});
    std::vector<pb20::Buffer> refs;
    v20::referenced_buffers(enc, refs);
    CHECK(refs.size() == 2);
    CHECK(v20::describe_array_encoding(enc) == "Binary(indices: Nullable(no_nulls, Flat(64)), bytes: Flat(8))");
    CHECK(std::string(v20::array_encoding_name(all_nulls())) == "Nullable");
  }
  SECTION("an empty tree is unsupported; list and struct headers are not values") {
    pb20::ArrayEncoding empty;
    REQUIRE_UNSUPPORTED(v20::decode_array(empty, {}, t(TypeId::int32), 1));
    pb20::ArrayEncoding header;
    header.mutable_struct_();
    REQUIRE_CORRUPT(v20::decode_array(header, {}, t(TypeId::int32), 1));
  }
}
