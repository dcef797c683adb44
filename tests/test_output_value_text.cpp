// Text of single values (docs/output-format.md, "Cell text").
#include <catch2/catch.hpp>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include "common/error.h"
#include "common/float16.h"
#include "output/number_text.h"
#include "output/temporal_text.h"
#include "test_output_util.h"

using namespace lance;
using namespace lance::output;
using namespace lance::test;

namespace {

std::string f64(double v) {
  std::string s;
  append_float64_text(s, v);
  return s;
}
std::string f32(float v) {
  std::string s;
  append_float32_text(s, v);
  return s;
}
std::string f16(uint16_t bits) {
  std::string s;
  append_float16_text(s, bits);
  return s;
}

/// Little-endian two's complement of a decimal integer string, `words` 64-bit words.
std::vector<uint8_t> le_integer(std::string_view text, int words) {
  std::vector<uint64_t> w(static_cast<size_t>(words), 0);
  const bool negative = !text.empty() && text[0] == '-';
  for (char c : text.substr(negative ? 1 : 0)) {
    unsigned __int128 carry = static_cast<unsigned>(c - '0');
    for (auto& word : w) {
      const unsigned __int128 cur = static_cast<unsigned __int128>(word) * 10 + carry;
      word = static_cast<uint64_t>(cur);
      carry = cur >> 64;
    }
  }
  if (negative) {
    bool carry = true;
    for (auto& word : w) {
      word = ~word + (carry ? 1 : 0);
      carry = carry && word == 0;
    }
  }
  std::vector<uint8_t> out(w.size() * 8);
  std::memcpy(out.data(), w.data(), out.size());
  return out;
}

std::string decimal(std::string_view integer, int words, int32_t scale) {
  std::string s;
  append_decimal_text(s, le_integer(integer, words).data(), words, scale);
  return s;
}

ArrayPtr decimal_array(TypeId id, int32_t scale, const std::vector<std::string>& integers) {
  const int words = id == TypeId::decimal128 ? 2 : 4;
  auto a = std::make_shared<ArrayData>();
  a->type = make_decimal(id, 38, scale);
  a->length = static_cast<int64_t>(integers.size());
  auto b = std::make_shared<Bytes>();
  for (const auto& v : integers) {
    auto bytes = le_integer(v, words);
    b->insert(b->end(), bytes.begin(), bytes.end());
  }
  a->buffers = {b};
  return a;
}

}  // namespace

TEST_CASE("integers are exact", "[output][value]") {
  auto i64 = fixed<int64_t>(make_type(TypeId::int64), {123456789012345678, std::numeric_limits<int64_t>::min(), -1, 0});
  CHECK(json_of(i64, 0) == "123456789012345678");
  CHECK(json_of(i64, 1) == "-9223372036854775808");
  CHECK(cell_of(i64, 2) == "-1");
  CHECK(cell_of(i64, 3) == "0");
  auto u64 = fixed<uint64_t>(make_type(TypeId::uint64), {std::numeric_limits<uint64_t>::max()});
  CHECK(json_of(u64, 0) == "18446744073709551615");
  CHECK(json_of(fixed<int8_t>(make_type(TypeId::int8), {-128}), 0) == "-128");
  CHECK(json_of(fixed<uint8_t>(make_type(TypeId::uint8), {255}), 0) == "255");
  CHECK(json_of(fixed<int16_t>(make_type(TypeId::int16), {-32768}), 0) == "-32768");
  CHECK(json_of(fixed<uint32_t>(make_type(TypeId::uint32), {4294967295u}), 0) == "4294967295");
  auto b = bools({true, false, true}, {1, 1, 0});
  CHECK(json_of(b, 0) == "true");
  CHECK(cell_of(b, 1) == "false");
  CHECK(json_of(b, 2) == "null");
}

TEST_CASE("float64 uses ECMAScript layout of the shortest digits", "[output][value]") {
  CHECK(f64(0.1) == "0.1");
  CHECK(f64(1.5) == "1.5");
  CHECK(f64(-1.5) == "-1.5");
  CHECK(f64(100) == "100");
  CHECK(f64(123.456) == "123.456");
  CHECK(f64(1e21) == "1e+21");
  CHECK(f64(1e20) == "100000000000000000000");
  CHECK(f64(123456789012345680000.0) == "123456789012345680000");
  CHECK(f64(1.5e21) == "1.5e+21");
  CHECK(f64(1e-7) == "1e-7");
  CHECK(f64(1.25e-7) == "1.25e-7");
  CHECK(f64(1e-6) == "0.000001");
  CHECK(f64(1.5e-6) == "0.0000015");
  CHECK(f64(0.000123) == "0.000123");
  CHECK(f64(1.5e300) == "1.5e+300");
  CHECK(f64(-2e-300) == "-2e-300");
  CHECK(f64(5e-324) == "5e-324");
  CHECK(f64(1.7976931348623157e308) == "1.7976931348623157e+308");
  CHECK(f64(0.1 + 0.2) == "0.30000000000000004");
  CHECK(f64(9007199254740993.0) == "9007199254740992");
  CHECK(f64(0.0) == "0");
  CHECK(f64(-0.0) == "-0");
  CHECK(f64(std::numeric_limits<double>::quiet_NaN()) == "NaN");
  CHECK(f64(std::numeric_limits<double>::infinity()) == "Infinity");
  CHECK(f64(-std::numeric_limits<double>::infinity()) == "-Infinity");
}

TEST_CASE("float32 is shortest at float32 width", "[output][value]") {
  CHECK(f32(0.1f) == "0.1");
  CHECK(f32(1.1f) == "1.1");
  CHECK(f32(-0.0f) == "-0");
  CHECK(f32(16777216.0f) == "16777216");
  CHECK(f32(3.4028235e38f) == "3.4028235e+38");
  CHECK(f32(1e-45f) == "1e-45");
  CHECK(f32(1e21f) == "1e+21");
  CHECK(f32(1e-7f) == "1e-7");
  // Powers of two where the shortest candidate lies above the value, not at its nearest rounding.
  CHECK(f32(0x1p87f) == "1.5474251e+26");
  CHECK(f32(0x1p90f) == "1.2379401e+27");
  CHECK(f32(0x1p-96f) == "1.2621775e-29");
  CHECK(f32(std::numeric_limits<float>::quiet_NaN()) == "NaN");
  CHECK(f32(-std::numeric_limits<float>::infinity()) == "-Infinity");
  auto a = fixed<float>(make_type(TypeId::float32), {0.1f, std::numeric_limits<float>::infinity()});
  CHECK(json_of(a, 0) == "0.1");
  CHECK(json_of(a, 1) == "\"Infinity\"");
  CHECK(cell_of(a, 1) == "Infinity");
}

TEST_CASE("float16 is shortest at half width", "[output][value]") {
  CHECK(f16(0x3c00) == "1");
  CHECK(f16(0xc000) == "-2");
  CHECK(f16(0x7bff) == "65500");  // 65504, the largest half: 65500 is nearer to it than to 65472
  CHECK(f16(0xfbff) == "-65500");
  CHECK(f16(0x7bfe) == "65470");  // 65472
  CHECK(f16(0x6400) == "1024");
  CHECK(f16(0x7800) == "32770");       // 32768: neighbours 32752 and 32800
  CHECK(f16(0x2e66) == "0.1");         // 0.0999755859375
  CHECK(f16(0x3555) == "0.3333");      // 0.333251953125
  CHECK(f16(0x0001) == "6e-8");        // smallest subnormal, 5.96e-8
  CHECK(f16(0x03ff) == "0.000061");    // largest subnormal, 6.0976e-5
  CHECK(f16(0x0400) == "0.00006104");  // smallest normal, 6.1035e-5 (6.1e-5 reads as 0x03ff)
  CHECK(f16(0x3c01) == "1.001");
  // Two 4-digit candidates read back as the half: the nearer one, and on a tie the even one.
  CHECK(f16(0x5ff9) == "510.2");  // 510.25: 510.2 and 510.3 equally near, 510.2 even
  CHECK(f16(0x5ffb) == "510.8");  // 510.75
  CHECK(f16(0x4d53) == "21.3");   // 21.296875
  // A power of two: only the candidate above (where the gap to the next half is wider) reads
  // back; nearest rounding of 0.015625 to 4 digits, 0.01562, does not.
  CHECK(f16(0x2400) == "0.01563");
  CHECK(f16(0x0000) == "0");
  CHECK(f16(0x8000) == "-0");
  CHECK(f16(0x7e00) == "NaN");
  CHECK(f16(0x7c00) == "Infinity");
  CHECK(f16(0xfc00) == "-Infinity");
  auto a = fixed<uint16_t>(make_type(TypeId::float16), {0x3e00, 0x7e00});
  CHECK(json_of(a, 0) == "1.5");
  CHECK(json_of(a, 1) == "\"NaN\"");
}

TEST_CASE("every float16 reads back as itself", "[output][value]") {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const auto h = static_cast<uint16_t>(bits);
    const float value = half_to_float(h);
    if (std::isnan(value)) continue;
    INFO("half bits " << bits);
    REQUIRE(double_to_half(value) == h);
    if (std::isinf(value)) continue;
    const std::string text = f16(h);
    double parsed = 0;
    REQUIRE(std::from_chars(text.data(), text.data() + text.size(), parsed).ec == std::errc{});
    REQUIRE(double_to_half(parsed) == h);
  }
  CHECK(double_to_half(65519.0) == 0x7bff);
  CHECK(double_to_half(65520.0) == 0x7c00);
  CHECK(double_to_half(1e-9) == 0x0000);
  CHECK(double_to_half(0x1p-25) == 0x0000);    // half the smallest subnormal: ties to even
  CHECK(double_to_half(0x1.8p-24) == 0x0002);  // 1.5 subnormal units: ties to even
  CHECK(double_to_half(0x1.4p-23) == 0x0002);  // 2.5 subnormal units: ties to even
  CHECK(double_to_half(3e-8) == 0x0001);
  CHECK(double_to_half(-1.0009765625) == 0xbc01);
}

TEST_CASE("dates, times, timestamps", "[output][value]") {
  auto d32 = fixed<int32_t>(make_type(TypeId::date32), {0, -1, 19000, -719528, -719529, 2932897, 11016});
  CHECK(json_of(d32, 0) == "\"1970-01-01\"");
  CHECK(cell_of(d32, 1) == "1969-12-31");
  CHECK(cell_of(d32, 2) == "2022-01-08");
  CHECK(cell_of(d32, 3) == "0000-01-01");
  CHECK(cell_of(d32, 4) == "-0001-12-31");
  CHECK(cell_of(d32, 5) == "+10000-01-01");
  CHECK(cell_of(d32, 6) == "2000-02-29");

  auto d64 = fixed<int64_t>(make_type(TypeId::date64), {86400000, -1, 86400000 + 3723004, -86400000});
  CHECK(cell_of(d64, 0) == "1970-01-02");
  CHECK(cell_of(d64, 1) == "1969-12-31T23:59:59.999");
  CHECK(cell_of(d64, 2) == "1970-01-02T01:02:03.004");
  CHECK(cell_of(d64, 3) == "1969-12-31");

  CHECK(cell_of(fixed<int32_t>(make_temporal(TypeId::time32, TimeUnit::second), {3661}), 0) == "01:01:01");
  CHECK(cell_of(fixed<int32_t>(make_temporal(TypeId::time32, TimeUnit::milli), {45296789}), 0) == "12:34:56.789");
  CHECK(cell_of(fixed<int64_t>(make_temporal(TypeId::time64, TimeUnit::micro), {86399999999}), 0) == "23:59:59.999999");
  auto t64ns = fixed<int64_t>(make_temporal(TypeId::time64, TimeUnit::nano), {1, 90000000000000, -1});
  CHECK(json_of(t64ns, 0) == "\"00:00:00.000000001\"");
  CHECK(cell_of(t64ns, 1) == "25:00:00.000000000");  // out of range: not wrapped
  CHECK(cell_of(t64ns, 2) == "-00:00:00.000000001");

  auto ts_ns = fixed<int64_t>(make_temporal(TypeId::timestamp, TimeUnit::nano), {-1, 0, 1700000000123456789});
  CHECK(json_of(ts_ns, 0) == "\"1969-12-31T23:59:59.999999999\"");
  CHECK(cell_of(ts_ns, 1) == "1970-01-01T00:00:00.000000000");
  CHECK(cell_of(ts_ns, 2) == "2023-11-14T22:13:20.123456789");
  auto ts_min = fixed<int64_t>(make_temporal(TypeId::timestamp, TimeUnit::nano),
                               {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()});
  CHECK(cell_of(ts_min, 0) == "1677-09-21T00:12:43.145224192");
  CHECK(cell_of(ts_min, 1) == "2262-04-11T23:47:16.854775807");
  auto ts_s_tz = fixed<int64_t>(make_temporal(TypeId::timestamp, TimeUnit::second, "America/New_York"),
                                {0, -62167219200, -62167219201, 253402300800});
  CHECK(cell_of(ts_s_tz, 0) == "1970-01-01T00:00:00Z");
  CHECK(cell_of(ts_s_tz, 1) == "0000-01-01T00:00:00Z");
  CHECK(cell_of(ts_s_tz, 2) == "-0001-12-31T23:59:59Z");
  CHECK(cell_of(ts_s_tz, 3) == "+10000-01-01T00:00:00Z");
  auto ts_ms = fixed<int64_t>(make_temporal(TypeId::timestamp, TimeUnit::milli, "UTC"), {-1500});
  CHECK(json_of(ts_ms, 0) == "\"1969-12-31T23:59:58.500Z\"");
  auto ts_us = fixed<int64_t>(make_temporal(TypeId::timestamp, TimeUnit::micro), {1});
  CHECK(cell_of(ts_us, 0) == "1970-01-01T00:00:00.000001");
  // Extreme second counts stay in range of the calendar arithmetic.
  auto ts_s = fixed<int64_t>(make_temporal(TypeId::timestamp, TimeUnit::second),
                             {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()});
  CHECK(cell_of(ts_s, 0) == "-292277022657-01-27T08:29:52");
  CHECK(cell_of(ts_s, 1) == "+292277026596-12-04T15:30:07");

  auto dur = fixed<int64_t>(make_temporal(TypeId::duration, TimeUnit::milli), {-5, 1234567890123});
  CHECK(json_of(dur, 0) == "-5");
  CHECK(cell_of(dur, 1) == "1234567890123");
}

TEST_CASE("date32 agrees with a day-by-day calendar", "[output][value]") {
  auto is_leap = [](int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; };
  auto month_days = [&](int64_t y, int m) {
    constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : kDays[static_cast<size_t>(m - 1)];
  };
  // From 1600-01-01 (day -135140) to 2400-12-31, one day at a time.
  int64_t y = 1600;
  int m = 1, d = 1;
  std::string text, expect;
  for (int64_t day = -135140; y <= 2400; ++day) {
    text.clear();
    append_date_text(text, day);
    expect = fmt::format("{:04}-{:02}-{:02}", y, m, d);
    if (text != expect) FAIL("day " << day << ": " << text << " != " << expect);
    if (++d > month_days(y, m)) {
      d = 1;
      if (++m > 12) m = 1, ++y;
    }
  }
}

TEST_CASE("decimals are exact with scale fraction digits", "[output][value]") {
  CHECK(decimal("-1250", 2, 2) == "-12.50");
  CHECK(decimal("1250", 2, 2) == "12.50");
  CHECK(decimal("5", 2, 3) == "0.005");
  CHECK(decimal("-5", 2, 3) == "-0.005");
  CHECK(decimal("0", 2, 2) == "0.00");
  CHECK(decimal("0", 2, 0) == "0");
  CHECK(decimal("0", 2, -2) == "0");
  CHECK(decimal("125", 2, -2) == "12500");
  CHECK(decimal("-125", 2, 0) == "-125");
  CHECK(decimal("10000000000000000000", 2, 0) == "10000000000000000000");   // 10^19, one full chunk
  CHECK(decimal("18446744073709551616", 2, 1) == "1844674407370955161.6");  // 2^64
  CHECK(decimal("170141183460469231731687303715884105727", 2, 0) == "170141183460469231731687303715884105727");
  CHECK(decimal("-170141183460469231731687303715884105728", 2, 38) == "-1.70141183460469231731687303715884105728");
  CHECK(decimal("57896044618658097711785492504343953926634992332820282019728792003956564819967", 4, 0) ==
        "57896044618658097711785492504343953926634992332820282019728792003956564819967");
  CHECK(decimal("-57896044618658097711785492504343953926634992332820282019728792003956564819968", 4, 10) ==
        "-5789604461865809771178549250434395392663499233282028201972879200395.6564819968");
  CHECK(decimal("10000000000000000000000000000000000000000", 4, 10) == "1000000000000000000000000000000.0000000000");
  CHECK(decimal("-1", 4, 76) == "-0." + std::string(75, '0') + "1");

  auto d128 = decimal_array(TypeId::decimal128, 2, {"-1250", "7"});
  CHECK(json_of(d128, 0) == "\"-12.50\"");
  CHECK(cell_of(d128, 1) == "0.07");
  auto d256 = decimal_array(TypeId::decimal256, 0, {"-99999999999999999999999999999999999999999999"});
  CHECK(json_of(d256, 0) == "\"-99999999999999999999999999999999999999999999\"");
}

TEST_CASE("strings and binary", "[output][value]") {
  auto s = utf8({"a\"b\\c\n\t\x01\x1f\x7f", "\xEF\xBB\xBFx", "h\xC3\xA9\xE2\x82\xAC", "", std::nullopt,
                 std::string("nul\0x", 5), "\b\f\r"});
  CHECK(json_of(s, 0) == "\"a\\\"b\\\\c\\n\\t\\u0001\\u001f\x7f\"");
  CHECK(cell_of(s, 0) == "a\"b\\c\n\t\x01\x1f\x7f");
  CHECK(json_of(s, 1) == "\"\xEF\xBB\xBFx\"");  // leading BOM kept
  CHECK(cell_of(s, 1) == "\xEF\xBB\xBFx");
  CHECK(json_of(s, 2) == "\"h\xC3\xA9\xE2\x82\xAC\"");
  CHECK(json_of(s, 3) == "\"\"");
  CHECK(json_of(s, 4) == "null");
  CHECK(is_null_value(*s, 4));
  CHECK_FALSE(is_null_value(*s, 3));
  CHECK(json_of(s, 5) == "\"nul\\u0000x\"");
  CHECK(json_of(s, 6) == "\"\\b\\f\\r\"");

  auto large = strings(make_type(TypeId::large_utf8), {"big", std::nullopt});
  CHECK(json_of(large, 0) == "\"big\"");
  CHECK(json_of(large, 1) == "null");

  auto bin = strings(make_type(TypeId::binary), {"", "f", "fo", "foo", "foob", std::string("\xff\xfe", 2)});
  CHECK(json_of(bin, 0) == "\"\"");
  CHECK(cell_of(bin, 1) == "Zg==");
  CHECK(cell_of(bin, 2) == "Zm8=");
  CHECK(cell_of(bin, 3) == "Zm9v");
  CHECK(json_of(bin, 4) == "\"Zm9vYg==\"");
  CHECK(cell_of(bin, 5) == "//4=");
  auto lbin = strings(make_type(TypeId::large_binary), {"foobar"});
  CHECK(cell_of(lbin, 0) == "Zm9vYmFy");

  auto fsb = std::make_shared<ArrayData>();
  fsb->type = make_fixed_size_binary(3);
  fsb->length = 2;
  fsb->buffers = {std::make_shared<Bytes>(Bytes{'a', 'b', 'c', 0xfb, 0xff, 0xbf})};
  CHECK(json_of(fsb, 0) == "\"YWJj\"");
  CHECK(cell_of(fsb, 1) == "+/+/");
}

TEST_CASE("nested values are JSON", "[output][value]") {
  auto int32 = make_type(TypeId::int32);
  // list<int32>: [[1,2],[],null,[null,3]]
  auto items = fixed<int32_t>(int32, {1, 2, 0, 3}, {1, 1, 0, 1});
  auto list = list_like(make_list(TypeId::list, field("item", int32)), {0, 2, 2, 2, 4}, items, {1, 1, 0, 1});
  CHECK(json_of(list, 0) == "[1,2]");
  CHECK(json_of(list, 1) == "[]");
  CHECK(json_of(list, 2) == "null");
  CHECK(json_of(list, 3) == "[null,3]");
  CHECK(cell_of(list, 3) == "[null,3]");

  auto large = list_like(make_list(TypeId::large_list, field("item", make_type(TypeId::utf8))), {0, 1, 3},
                         utf8({"x", "y\"", std::nullopt}));
  CHECK(json_of(large, 1) == "[\"y\\\"\",null]");

  // fixed_size_list<float32>[2]
  auto fsl = std::make_shared<ArrayData>();
  fsl->type = make_fixed_size_list(field("item", make_type(TypeId::float32)), 2);
  fsl->length = 2;
  fsl->children = {fixed<float>(make_type(TypeId::float32), {0.5f, -1.0f, 0.1f, 2.0f})};
  CHECK(json_of(fsl, 0) == "[0.5,-1]");
  CHECK(json_of(fsl, 1) == "[0.1,2]");

  // struct<a: int32, "b\"": utf8> with a null row and a null child
  std::vector<FieldPtr> fields = {field("a", int32), field("b\"", make_type(TypeId::utf8))};
  auto st = struct_of(fields, {fixed<int32_t>(int32, {1, 2, 3}, {1, 0, 1}), utf8({"x", "y", "z"})}, {1, 1, 0});
  CHECK(json_of(st, 0) == "{\"a\":1,\"b\\\"\":\"x\"}");
  CHECK(json_of(st, 1) == "{\"a\":null,\"b\\\"\":\"y\"}");
  CHECK(json_of(st, 2) == "null");
  CHECK(is_null_value(*st, 2));

  // map<utf8, int32>: [{k1:1, k2:null}], [], null
  std::vector<FieldPtr> kv = {field("key", make_type(TypeId::utf8)), field("value", int32)};
  auto entries = struct_of(kv, {utf8({"k1", "k2"}), fixed<int32_t>(int32, {1, 0}, {1, 0})});
  auto map = list_like(make_map(field("entries", entries->type)), {0, 2, 2, 2}, entries, {1, 1, 0});
  CHECK(json_of(map, 0) == "[{\"key\":\"k1\",\"value\":1},{\"key\":\"k2\",\"value\":null}]");
  CHECK(json_of(map, 1) == "[]");
  CHECK(json_of(map, 2) == "null");

  // list<struct<t: timestamp[ms, tz=UTC], d: decimal128(5, 2)>>
  std::vector<FieldPtr> inner = {field("t", make_temporal(TypeId::timestamp, TimeUnit::milli, "UTC")),
                                 field("d", make_decimal(TypeId::decimal128, 5, 2))};
  auto dec = std::make_shared<ArrayData>();
  dec->type = inner[1]->type;
  dec->length = 1;
  dec->buffers = {bytes_of<__int128>({-5})};
  auto inner_st = struct_of(inner, {fixed<int64_t>(inner[0]->type, {1000}), dec});
  auto list_st = list_like(make_list(TypeId::list, field("item", inner_st->type)), {0, 1}, inner_st);
  CHECK(json_of(list_st, 0) == "[{\"t\":\"1970-01-01T00:00:01.000Z\",\"d\":\"-0.05\"}]");
}

TEST_CASE("dictionary values are rendered as the value type", "[output][value]") {
  auto dict = std::make_shared<ArrayData>();
  dict->type = make_dictionary(make_type(TypeId::int8), make_type(TypeId::utf8));
  dict->length = 4;
  dict->buffers = {bytes_of<int8_t>({1, 0, 2, 0})};
  dict->validity = make_validity({1, 1, 1, 0}, &dict->null_count);
  dict->dictionary = utf8({"red", "gr,een", std::nullopt});
  CHECK(json_of(dict, 0) == "\"gr,een\"");
  CHECK(cell_of(dict, 1) == "red");
  CHECK(json_of(dict, 2) == "null");  // index valid, dictionary entry null
  CHECK(is_null_value(*dict, 2));
  CHECK(json_of(dict, 3) == "null");
  CHECK(is_null_value(*dict, 3));

  auto bad = std::make_shared<ArrayData>(*dict);
  bad->buffers = {bytes_of<int8_t>({3, -1, 0, 0})};
  CHECK_THROWS_AS(json_of(bad, 0), Error);
  CHECK_THROWS_AS(cell_of(bad, 1), Error);

  auto dict64 = std::make_shared<ArrayData>();
  dict64->type = make_dictionary(make_type(TypeId::uint64), make_type(TypeId::float64));
  dict64->length = 1;
  dict64->buffers = {bytes_of<uint64_t>({1})};
  dict64->dictionary = fixed<double>(make_type(TypeId::float64), {0.25, 1e21});
  CHECK(json_of(dict64, 0) == "1e+21");
}

TEST_CASE("null type values are null", "[output][value]") {
  auto n = make_null_array(make_type(TypeId::null), 2);
  CHECK(is_null_value(*n, 0));
  CHECK(json_of(n, 1) == "null");
}
