// take_array: gathering rows of an in-memory array in any order, repeats included. Fixed-size
// lists gather whole rows of their child (runs), which these cases pin against rows spelled out.
#include <catch2/catch.hpp>

#include <cstring>

#include "array/array.h"
#include "array/take.h"

using namespace lance;

namespace {

FieldPtr field(const std::string& name, TypePtr type) {
  auto f = std::make_shared<Field>();
  f->name = name;
  f->type = std::move(type);
  return f;
}

template <typename T>
ArrayPtr primitive(TypeId id, const std::vector<T>& values, const std::vector<uint8_t>& valid = {}) {
  auto a = std::make_shared<ArrayData>();
  a->type = make_type(id);
  a->length = static_cast<int64_t>(values.size());
  auto data = std::make_shared<Bytes>(values.size() * sizeof(T));
  std::memcpy(data->data(), values.data(), data->size());
  a->buffers = {data};
  if (!valid.empty()) a->validity = make_validity(valid, &a->null_count);
  return a;
}

ArrayPtr utf8(const std::vector<std::string>& values) {
  auto a = std::make_shared<ArrayData>();
  a->type = make_type(TypeId::utf8);
  a->length = static_cast<int64_t>(values.size());
  auto offsets = std::make_shared<Bytes>((values.size() + 1) * 4);
  auto data = std::make_shared<Bytes>();
  int32_t pos = 0;
  std::memcpy(offsets->data(), &pos, 4);
  for (size_t i = 0; i < values.size(); ++i) {
    data->insert(data->end(), values[i].begin(), values[i].end());
    pos += static_cast<int32_t>(values[i].size());
    std::memcpy(offsets->data() + (i + 1) * 4, &pos, 4);
  }
  a->buffers = {offsets, data};
  return a;
}

ArrayPtr fsl(ArrayPtr child, int32_t size, const std::vector<uint8_t>& valid = {}) {
  auto a = std::make_shared<ArrayData>();
  a->type = make_fixed_size_list(field("item", child->type), size);
  a->length = child->length / size;
  a->children = {std::move(child)};
  if (!valid.empty()) a->validity = make_validity(valid, &a->null_count);
  return a;
}

std::vector<int32_t> ints(const ArrayData& a) { return {a.values<int32_t>(0), a.values<int32_t>(0) + a.length}; }

std::vector<std::string> strings(const ArrayData& a) {
  std::vector<std::string> out;
  const auto* off = a.values<int32_t>(0);
  for (int64_t i = 0; i < a.length; ++i)
    out.emplace_back(reinterpret_cast<const char*>(a.buffers[1]->data()) + off[i], off[i + 1] - off[i]);
  return out;
}

}  // namespace

TEST_CASE("take_array gathers fixed-size list rows whole, with item and list validity", "[take][array]") {
  // Rows of 3 items: [0 1 2] [3 null 5] null [9 10 11].
  auto items =
      primitive<int32_t>(TypeId::int32, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1});
  auto list = fsl(items, 3, {1, 1, 0, 1});
  auto out = take_array(list, std::vector<int64_t>{3, 1, 1, 2});
  REQUIRE(out->length == 4);
  CHECK(out->null_count == 1);
  CHECK(out->is_valid(0));
  CHECK(!out->is_valid(3));
  const ArrayData& child = *out->children[0];
  REQUIRE(child.length == 12);
  CHECK(ints(child) == std::vector<int32_t>{9, 10, 11, 3, 4, 5, 3, 4, 5, 6, 7, 8});
  CHECK(child.null_count == 2);
  CHECK(!child.is_valid(4));
  CHECK(!child.is_valid(7));
  CHECK(child.is_valid(3));
}

TEST_CASE("take_array of nested fixed-size lists and of lists of strings", "[take][array]") {
  // fixed_size_list<fixed_size_list<int32, 2>, 2>: rows [[0 1] [2 3]], [[4 5] [6 7]], [[8 9] [10 11]].
  auto inner = fsl(primitive<int32_t>(TypeId::int32, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), 2);
  auto outer = fsl(inner, 2);
  auto out = take_array(outer, std::vector<int64_t>{2, 0});
  REQUIRE(out->children[0]->length == 4);
  CHECK(ints(*out->children[0]->children[0]) == std::vector<int32_t>{8, 9, 10, 11, 0, 1, 2, 3});

  // fixed_size_list<utf8, 2>: a variable-width child is gathered row by row.
  auto words = fsl(utf8({"a", "bb", "", "ccc", "dddd", "e"}), 2);
  auto picked = take_array(words, std::vector<int64_t>{1, 2, 1});
  CHECK(strings(*picked->children[0]) == std::vector<std::string>{"", "ccc", "dddd", "e", "", "ccc"});

  CHECK_THROWS(take_array(words, std::vector<int64_t>{3}));
}

namespace {

ArrayPtr list_of(ArrayPtr child, const std::vector<int32_t>& offsets) {
  auto a = std::make_shared<ArrayData>();
  a->type = make_list(TypeId::list, field("item", child->type));
  a->length = static_cast<int64_t>(offsets.size()) - 1;
  auto buf = std::make_shared<Bytes>(offsets.size() * 4);
  std::memcpy(buf->data(), offsets.data(), buf->size());
  a->buffers = {buf};
  a->children = {std::move(child)};
  return a;
}

std::vector<int32_t> offsets_of(const ArrayData& a) {
  return {a.values<int32_t>(0), a.values<int32_t>(0) + a.length + 1};
}

}  // namespace

TEST_CASE("take_array of lists of lists: runs of rows, repeats and order kept", "[take][array]") {
  // list<list<int32>>: rows [[0 1] []], [[2]], [[3 4 5]].
  auto inner = list_of(primitive<int32_t>(TypeId::int32, {0, 1, 2, 3, 4, 5}), {0, 2, 2, 3, 6});
  auto outer = list_of(inner, {0, 2, 3, 4});
  auto out = take_array(outer, std::vector<int64_t>{0, 1, 1, 2, 0});
  REQUIRE(out->length == 5);
  CHECK(offsets_of(*out) == std::vector<int32_t>{0, 2, 3, 4, 5, 7});
  const ArrayData& mid = *out->children[0];
  CHECK(offsets_of(mid) == std::vector<int32_t>{0, 2, 2, 3, 4, 7, 9, 9});
  CHECK(ints(*mid.children[0]) == std::vector<int32_t>{0, 1, 2, 2, 3, 4, 5, 0, 1});
  // Booleans and nulls go row by row inside the runs.
  auto bits = std::make_shared<ArrayData>();
  bits->type = make_type(TypeId::boolean);
  bits->length = 4;
  bits->buffers = {std::make_shared<Bytes>(Bytes{0b1010})};
  const ArrayPtr flags = bits;
  auto picked = take_array(flags, std::vector<int64_t>{1, 2, 3, 3, 0});
  CHECK(picked->length == 5);
  CHECK(get_bit(picked->buffers[0]->data(), 0));
  CHECK_FALSE(get_bit(picked->buffers[0]->data(), 1));
  CHECK(get_bit(picked->buffers[0]->data(), 2));
  CHECK(get_bit(picked->buffers[0]->data(), 3));
  CHECK_FALSE(get_bit(picked->buffers[0]->data(), 4));
  auto nullable = primitive<int32_t>(TypeId::int32, {7, 8, 9}, {1, 0, 1});
  auto some = take_array(nullable, std::vector<int64_t>{0, 1, 2, 1});
  CHECK(ints(*some) == std::vector<int32_t>{7, 8, 9, 8});
  CHECK(some->null_count == 2);
  CHECK_FALSE(some->is_valid(3));
}
