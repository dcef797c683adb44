// Arrays of every type lance-cli's ArrayData holds, and row rendering, for the lib/arrow tests.
#pragma once

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "array/array.h"
#include "cli_runner.h"
#include "test_output_util.h"

namespace lance::test {

inline Bytes read_binary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

inline FieldPtr field(std::string name, TypePtr type, bool nullable, std::map<std::string, std::string> md = {}) {
  auto f = std::make_shared<Field>();
  f->name = std::move(name);
  f->type = std::move(type);
  f->nullable = nullable;
  f->metadata = std::move(md);
  return f;
}

/// A fixed-width array from raw little-endian value bytes (`width` bytes per value).
inline ArrayPtr raw_fixed(TypePtr type, size_t width, const Bytes& bytes, const std::vector<uint8_t>& valid = {}) {
  auto a = std::make_shared<ArrayData>();
  a->type = std::move(type);
  a->length = static_cast<int64_t>(bytes.size() / width);
  a->buffers = {std::make_shared<Bytes>(bytes)};
  set_validity(*a, valid);
  return a;
}

/// A decimal array (128 or 256 bits) of small signed values.
inline ArrayPtr decimals(TypePtr type, const std::vector<int64_t>& values, const std::vector<uint8_t>& valid = {}) {
  const size_t words = type->id == TypeId::decimal128 ? 2 : 4;
  Bytes b;
  for (int64_t v : values)
    for (size_t w = 0; w < words; ++w) append_le<int64_t>(b, w == 0 ? v : (v < 0 ? -1 : 0));
  return raw_fixed(std::move(type), words * 8, b, valid);
}

/// One batch of 4 rows with a column of every type, nulls in most of them, field metadata
/// on one column. `variant` changes the values (and the dictionary).
inline RecordBatch every_type_batch(int variant = 0) {
  const int v = variant;
  std::vector<FieldPtr> fields;
  std::vector<ArrayPtr> cols;
  auto add = [&](FieldPtr f, ArrayPtr a) {
    fields.push_back(std::move(f));
    cols.push_back(std::move(a));
  };
  const std::vector<uint8_t> some_null{1, 0, 1, 1};
  add(field("i8", make_type(TypeId::int8), true),
      fixed<int8_t>(make_type(TypeId::int8), {-128, 0, 127, int8_t(v)}, some_null));
  add(field("i16", make_type(TypeId::int16), true), fixed<int16_t>(make_type(TypeId::int16), {-32768, 1, 2, 32767}));
  add(field("i32", make_type(TypeId::int32), false, {{"unit", "cm"}, {"lance:x", "y"}}),
      fixed<int32_t>(make_type(TypeId::int32), {INT32_MIN, v, -1, INT32_MAX}));
  add(field("i64", make_type(TypeId::int64), true),
      fixed<int64_t>(make_type(TypeId::int64), {INT64_MIN, 0, v, INT64_MAX}, {0, 1, 1, 0}));
  add(field("u8", make_type(TypeId::uint8), true), fixed<uint8_t>(make_type(TypeId::uint8), {0, 255, 7, 8}));
  add(field("u16", make_type(TypeId::uint16), true), fixed<uint16_t>(make_type(TypeId::uint16), {0, 65535, 7, 8}));
  add(field("u32", make_type(TypeId::uint32), true), fixed<uint32_t>(make_type(TypeId::uint32), {0, UINT32_MAX, 7, 8}));
  add(field("u64", make_type(TypeId::uint64), true),
      fixed<uint64_t>(make_type(TypeId::uint64), {0, UINT64_MAX, 7, 8}, some_null));
  add(field("f16", make_type(TypeId::float16), true),
      fixed<uint16_t>(make_type(TypeId::float16), {0x3C00, 0xC000, 0x7C00, 0x7E00}, some_null));
  add(field("f32", make_type(TypeId::float32), true),
      fixed<float>(make_type(TypeId::float32), {1.5f, -0.0f, 3.25f, 1e30f}));
  add(field("f64", make_type(TypeId::float64), true),
      fixed<double>(make_type(TypeId::float64), {0.1, -2.5, 1e300, 5e-324}, some_null));
  add(field("b", make_type(TypeId::boolean), true), bools({true, false, true, v % 2 == 1}, some_null));
  add(field("s", make_type(TypeId::utf8), true),
      strings(make_type(TypeId::utf8), {"héllo", std::nullopt, "", "v" + std::to_string(v)}));
  add(field("ls", make_type(TypeId::large_utf8), true),
      strings(make_type(TypeId::large_utf8), {"a", "bb", std::nullopt, "dddd"}));
  add(field("bin", make_type(TypeId::binary), true),
      strings(make_type(TypeId::binary), {std::string("\0\1", 2), "", std::nullopt, "xyz"}));
  add(field("lbin", make_type(TypeId::large_binary), true),
      strings(make_type(TypeId::large_binary), {"q", std::nullopt, "", "\xff"}));
  add(field("fsb", make_fixed_size_binary(3), true),
      raw_fixed(make_fixed_size_binary(3), 3, Bytes{1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0}, some_null));
  add(field("d32", make_type(TypeId::date32), true),
      fixed<int32_t>(make_type(TypeId::date32), {0, -1, 19000, 2932896}));
  add(field("d64", make_type(TypeId::date64), true),
      fixed<int64_t>(make_type(TypeId::date64), {0, 86400000, 1234, -1}, some_null));
  add(field("t32", make_temporal(TypeId::time32, TimeUnit::second), true),
      fixed<int32_t>(make_temporal(TypeId::time32, TimeUnit::second), {0, 1, 86399, 3600}));
  add(field("t32ms", make_temporal(TypeId::time32, TimeUnit::milli), true),
      fixed<int32_t>(make_temporal(TypeId::time32, TimeUnit::milli), {0, 1, 86399999, 3600}));
  add(field("t64us", make_temporal(TypeId::time64, TimeUnit::micro), true),
      fixed<int64_t>(make_temporal(TypeId::time64, TimeUnit::micro), {0, 1, 2, 3}, some_null));
  add(field("t64", make_temporal(TypeId::time64, TimeUnit::nano), true),
      fixed<int64_t>(make_temporal(TypeId::time64, TimeUnit::nano), {0, 1, 86399999999999, 5}));
  add(field("ts", make_temporal(TypeId::timestamp, TimeUnit::micro, "UTC"), true),
      fixed<int64_t>(make_temporal(TypeId::timestamp, TimeUnit::micro, "UTC"), {0, -1, 1700000000000000, 5},
                     some_null));
  add(field("ts_naive", make_temporal(TypeId::timestamp, TimeUnit::second), true),
      fixed<int64_t>(make_temporal(TypeId::timestamp, TimeUnit::second), {0, 1, 2, 3}));
  add(field("ts_ny", make_temporal(TypeId::timestamp, TimeUnit::nano, "America/New_York"), true),
      fixed<int64_t>(make_temporal(TypeId::timestamp, TimeUnit::nano, "America/New_York"), {0, 1, 2, 3}));
  add(field("dur", make_temporal(TypeId::duration, TimeUnit::milli), true),
      fixed<int64_t>(make_temporal(TypeId::duration, TimeUnit::milli), {INT64_MIN, 0, 1, INT64_MAX}));
  add(field("dec", make_decimal(TypeId::decimal128, 10, 2), true),
      decimals(make_decimal(TypeId::decimal128, 10, 2), {-1250, 0, 1, 99999}, some_null));
  add(field("dec256", make_decimal(TypeId::decimal256, 40, 5), true),
      decimals(make_decimal(TypeId::decimal256, 40, 5), {-1, 0, 123456789, 7}));
  {
    auto item = field("item", make_type(TypeId::int32), true);
    auto child = fixed<int32_t>(make_type(TypeId::int32), {1, 2, 3, 4, 5}, {1, 1, 0, 1, 1});
    add(field("list", make_list(TypeId::list, item), true),
        list_like(make_list(TypeId::list, item), {0, 2, 2, 2, 5}, child, {1, 0, 1, 1}));
  }
  {
    auto item = field("item", make_type(TypeId::utf8), true);
    auto child = strings(make_type(TypeId::utf8), {"x", std::nullopt, "zz"});
    add(field("llist", make_list(TypeId::large_list, item), true),
        list_like(make_list(TypeId::large_list, item), {0, 1, 1, 3, 3}, child));
  }
  {
    auto item = field("item", make_type(TypeId::int16), true);
    auto type = make_fixed_size_list(item, 2);
    auto a = std::make_shared<ArrayData>();
    a->type = type;
    a->length = 4;
    a->children = {fixed<int16_t>(make_type(TypeId::int16), {1, 2, 3, 4, 5, 6, 7, 8}, {1, 1, 1, 0, 1, 1, 1, 1})};
    set_validity(*a, {1, 1, 0, 1});
    add(field("fsl", type, true), a);
  }
  {
    std::vector<FieldPtr> kids{field("a", make_type(TypeId::int32), true), field("b", make_type(TypeId::utf8), true)};
    auto sa = struct_of(kids,
                        {fixed<int32_t>(make_type(TypeId::int32), {1, 2, 3, 4}, {1, 1, 0, 1}),
                         strings(make_type(TypeId::utf8), {"p", "q", std::nullopt, "s"})},
                        {1, 1, 1, 0});
    add(field("st", sa->type, true), sa);
  }
  {
    auto key = field("key", make_type(TypeId::utf8), false);
    auto value = field("value", make_type(TypeId::int32), true);
    auto entries_field = field("entries", make_struct({key, value}), false);
    auto entries = struct_of({key, value}, {strings(make_type(TypeId::utf8), {"k1", "k2", "k3"}),
                                            fixed<int32_t>(make_type(TypeId::int32), {10, 20, 30}, {1, 0, 1})});
    auto type = make_map(entries_field);
    add(field("map", type, true), list_like(type, {0, 2, 2, 3, 3}, entries, {1, 1, 1, 0}));
  }
  {
    auto type = make_dictionary(make_type(TypeId::int8), make_type(TypeId::utf8));
    auto a = std::make_shared<ArrayData>();
    a->type = type;
    a->length = 4;
    a->buffers = {bytes_of<int8_t>({1, 0, 0, 2})};
    set_validity(*a, {1, 1, 0, 1});
    a->dictionary = strings(make_type(TypeId::utf8), {"zero" + std::to_string(v), "one", "two"});
    add(field("dict", type, true), a);
  }
  add(field("nul", make_type(TypeId::null), true), make_null_array(make_type(TypeId::null), 4));
  RecordBatch b = batch_of(fields, cols);
  return b;
}

/// Each row of `batch` as a JSONL line (the text writers' rendering).
inline std::vector<std::string> json_rows(const RecordBatch& batch) {
  std::vector<std::string> out;
  for (int64_t r = 0; r < batch.num_rows; ++r) {
    std::string line = "{";
    for (size_t c = 0; c < batch.columns.size(); ++c) {
      if (c) line += ',';
      append_json_string(line, batch.fields[c]->name);
      line += ':';
      append_json_value(line, *batch.columns[c], r);
    }
    line += '}';
    out.push_back(line);
  }
  return out;
}

inline std::vector<std::string> json_rows(const std::vector<RecordBatch>& batches) {
  std::vector<std::string> out;
  for (const auto& b : batches)
    for (auto& l : json_rows(b)) out.push_back(std::move(l));
  return out;
}

}  // namespace lance::test
