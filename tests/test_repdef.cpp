// Rep/def levels → slots, validity and offsets (structural/repdef.h).
#include <catch2/catch.hpp>

#include "common/error.h"
#include "structural/leaf_data.h"
#include "structural/repdef.h"

using namespace lance::structural;
namespace pb = lance::encodings21;

TEST_CASE("unravel: the worked example of repdef.h", "[repdef]") {
  // rows: [1, 2]  null  [null, 5]  []
  std::vector<RepDefLayer> layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST};
  std::vector<uint16_t> rep = {1, 0, 1, 1, 0, 1}, def = {0, 0, 2, 1, 0, 3};
  auto out = unravel(layers, rep, def, 6);
  REQUIRE(out.size() == 2);
  CHECK(out[0].is_list);
  CHECK(out[0].num_slots == 4);
  CHECK(out[0].valid == std::vector<uint8_t>{1, 0, 1, 1});
  CHECK(out[0].offsets == std::vector<int64_t>{0, 2, 2, 4, 4});
  CHECK(out[1].num_slots == 4);
  CHECK(out[1].valid == std::vector<uint8_t>{1, 1, 0, 1});
}

TEST_CASE("unravel: flat columns", "[repdef]") {
  SECTION("no levels: every entry a valid row") {
    auto out = unravel({pb::REPDEF_ALL_VALID_ITEM}, {}, {}, 3);
    REQUIRE(out.size() == 1);
    CHECK(out[0].num_slots == 3);
    CHECK_FALSE(out[0].has_nulls);
  }
  SECTION("nullable items") {
    auto out = unravel({pb::REPDEF_NULLABLE_ITEM}, {}, {0, 1, 0}, 3);
    CHECK(out[0].valid == std::vector<uint8_t>{1, 0, 1});
    CHECK(out[0].has_nulls);
  }
  SECTION("zero entries") {
    auto out = unravel({pb::REPDEF_NULLABLE_ITEM}, {}, {}, 0);
    CHECK(out[0].num_slots == 0);
  }
}

TEST_CASE("unravel: struct validity above a nullable item", "[repdef]") {
  // struct<a: int32> with layers [NULLABLE_ITEM (a), NULLABLE_ITEM (struct)]:
  // def 0 = valid, 1 = a null, 2 = struct null
  auto out = unravel({pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULLABLE_ITEM}, {}, {0, 1, 2}, 3);
  REQUIRE(out.size() == 2);
  CHECK(out[0].valid == std::vector<uint8_t>{1, 1, 0});
  // a null struct still has a value slot: its child is visible, and null
  CHECK(out[1].num_slots == 3);
  CHECK(out[1].valid == std::vector<uint8_t>{1, 0, 0});
}

TEST_CASE("unravel: list<list<int>>", "[repdef]") {
  // rows: [[1,2],[3]]  [[]]  []   layers [ALL_VALID_ITEM, EMPTYABLE_LIST, EMPTYABLE_LIST]
  // def: 1 = inner list empty, 2 = outer list empty; rep 2 = new row, 1 = new inner list
  std::vector<RepDefLayer> layers = {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_EMPTYABLE_LIST, pb::REPDEF_EMPTYABLE_LIST};
  std::vector<uint16_t> rep = {2, 0, 1, 2, 2}, def = {0, 0, 0, 1, 2};
  auto out = unravel(layers, rep, def, 5);
  CHECK(out[0].offsets == std::vector<int64_t>{0, 2, 3, 3});
  CHECK(out[1].offsets == std::vector<int64_t>{0, 2, 3, 3});
  CHECK(out[2].num_slots == 3);
}

TEST_CASE("unravel: bad levels are corrupt, not crashes", "[repdef]") {
  using lance::Error;
  CHECK_THROWS_AS(unravel({pb::REPDEF_NULLABLE_ITEM}, {}, {0, 5}, 2), Error);
  CHECK_THROWS_AS(unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_ALL_VALID_LIST}, {0, 1}, {}, 2), Error);
  CHECK_THROWS_AS(unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_ALL_VALID_LIST}, {3}, {}, 1), Error);
  CHECK_THROWS_AS(unravel({pb::REPDEF_NULLABLE_ITEM}, {}, {0}, 2), Error);
}

// ---------------------------------------------------------------------------------------
// Every layer kind, on hand-written level sequences. Def meanings count from the innermost
// layer: each nullable/emptyable layer takes the next value(s) (null before empty for a
// NULL_AND_EMPTY_LIST); rep = number of list layers starts a row.
// ---------------------------------------------------------------------------------------

namespace {
using V8 = std::vector<uint8_t>;
using V64 = std::vector<int64_t>;
}  // namespace

TEST_CASE("unravel: ALL_VALID_LIST of ALL_VALID_ITEM (rep only)", "[repdef]") {
  // [1, 2]  [3]  [4, 5, 6]
  auto out = unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_ALL_VALID_LIST}, {1, 0, 1, 1, 0, 0}, {}, 6);
  REQUIRE(out.size() == 2);
  CHECK(out[0].num_slots == 3);
  CHECK(out[0].offsets == V64{0, 2, 3, 6});
  CHECK_FALSE(out[0].has_nulls);
  CHECK(out[1].num_slots == 6);
  CHECK_FALSE(out[1].has_nulls);
}

TEST_CASE("unravel: ALL_VALID_LIST of NULLABLE_ITEM", "[repdef]") {
  // [null, 1]  [2]      def 1 = null item
  auto out = unravel({pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_ALL_VALID_LIST}, {1, 0, 1}, {1, 0, 0}, 3);
  CHECK(out[0].offsets == V64{0, 2, 3});
  CHECK_FALSE(out[0].has_nulls);
  CHECK(out[1].valid == V8{0, 1, 1});
  CHECK(out[1].has_nulls);
}

TEST_CASE("unravel: NULLABLE_LIST of ALL_VALID_ITEM", "[repdef]") {
  // [1]  null  [2, 3]   def 1 = null list
  auto out = unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULLABLE_LIST}, {1, 1, 1, 0}, {0, 1, 0, 0}, 4);
  CHECK(out[0].offsets == V64{0, 1, 1, 3});
  CHECK(out[0].valid == V8{1, 0, 1});
  CHECK(out[0].has_nulls);
  CHECK(out[1].num_slots == 3);
  CHECK_FALSE(out[1].has_nulls);
}

TEST_CASE("unravel: EMPTYABLE_LIST of ALL_VALID_ITEM", "[repdef]") {
  // []  [7]  []         def 1 = empty list
  auto out = unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_EMPTYABLE_LIST}, {1, 1, 1}, {1, 0, 1}, 3);
  CHECK(out[0].offsets == V64{0, 0, 1, 1});
  CHECK(out[0].valid == V8{1, 1, 1});
  CHECK_FALSE(out[0].has_nulls);
  CHECK(out[1].num_slots == 1);
}

TEST_CASE("unravel: EMPTYABLE_LIST of NULLABLE_ITEM", "[repdef]") {
  // [null]  []  [1, null]   def 1 = null item, 2 = empty list
  auto out = unravel({pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_EMPTYABLE_LIST}, {1, 1, 1, 0}, {1, 2, 0, 1}, 4);
  CHECK(out[0].offsets == V64{0, 1, 1, 3});
  CHECK_FALSE(out[0].has_nulls);
  CHECK(out[1].valid == V8{0, 1, 0});
}

TEST_CASE("unravel: NULLABLE_LIST of NULLABLE_ITEM", "[repdef]") {
  // null  [null]  [5]        def 1 = null item, 2 = null list
  auto out = unravel({pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULLABLE_LIST}, {1, 1, 1}, {2, 1, 0}, 3);
  CHECK(out[0].offsets == V64{0, 0, 1, 2});
  CHECK(out[0].valid == V8{0, 1, 1});
  CHECK(out[1].valid == V8{0, 1});
}

TEST_CASE("unravel: NULL_AND_EMPTY_LIST of ALL_VALID_ITEM", "[repdef]") {
  // []  null  [1]            def 1 = null list, 2 = empty list
  auto out = unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST}, {1, 1, 1}, {2, 1, 0}, 3);
  CHECK(out[0].offsets == V64{0, 0, 0, 1});
  CHECK(out[0].valid == V8{1, 0, 1});
  CHECK(out[1].num_slots == 1);
  CHECK_FALSE(out[1].has_nulls);
}

TEST_CASE("unravel: only null and empty lists: no visible item", "[repdef]") {
  auto out = unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST}, {1, 1, 1, 1}, {1, 2, 2, 1}, 4);
  CHECK(out[0].offsets == V64{0, 0, 0, 0, 0});
  CHECK(out[0].valid == V8{0, 1, 1, 0});
  CHECK(out[1].num_slots == 0);
}

TEST_CASE("unravel: list<list<int>> with nulls and empties at both levels", "[repdef]") {
  // rows: [[1, null], null, []]  null  []  [[2]]
  // def 1 = null item, 2 = null inner, 3 = empty inner, 4 = null outer, 5 = empty outer;
  // rep 2 = new row, 1 = new inner list, 0 = next item
  std::vector<RepDefLayer> layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST,
                                     pb::REPDEF_NULL_AND_EMPTY_LIST};
  auto out = unravel(layers, {2, 0, 1, 1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 0}, 7);
  REQUIRE(out.size() == 3);
  CHECK(out[0].offsets == V64{0, 3, 3, 3, 4});
  CHECK(out[0].valid == V8{1, 0, 1, 1});
  CHECK(out[1].offsets == V64{0, 2, 2, 2, 3});
  CHECK(out[1].valid == V8{1, 0, 1, 1});
  CHECK(out[2].valid == V8{1, 0, 1});
}

TEST_CASE("unravel: struct<list<int>>: a null struct has a null, itemless list slot", "[repdef]") {
  // rows: {l: [1, null]}  null  {l: null}  {l: []}
  // layers [NULLABLE_ITEM (int), NULL_AND_EMPTY_LIST (l), NULLABLE_ITEM (struct)]:
  // def 1 = null item, 2 = null list, 3 = empty list, 4 = null struct
  std::vector<RepDefLayer> layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST, pb::REPDEF_NULLABLE_ITEM};
  auto out = unravel(layers, {1, 0, 1, 1, 1}, {0, 1, 4, 2, 3}, 5);
  REQUIRE(out.size() == 3);
  CHECK_FALSE(out[0].is_list);
  CHECK(out[0].valid == V8{1, 0, 1, 1});
  CHECK(out[1].is_list);
  CHECK(out[1].valid == V8{1, 0, 0, 1});
  CHECK(out[1].offsets == V64{0, 2, 2, 2, 2});
  CHECK(out[2].valid == V8{1, 0});
}

TEST_CASE("unravel: list<struct<a>> with null elements and null children", "[repdef]") {
  // rows: [{a: 1}, null, {a: null}]  []  null
  // layers [NULLABLE_ITEM (a), NULLABLE_ITEM (struct), NULL_AND_EMPTY_LIST]:
  // def 1 = a null, 2 = struct null, 3 = list null, 4 = list empty
  std::vector<RepDefLayer> layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST};
  auto out = unravel(layers, {1, 0, 0, 1, 1}, {0, 2, 1, 4, 3}, 5);
  CHECK(out[0].offsets == V64{0, 3, 3, 3});
  CHECK(out[0].valid == V8{1, 1, 0});
  CHECK(out[1].valid == V8{1, 0, 1});
  CHECK(out[2].valid == V8{1, 0, 0});
}

TEST_CASE("unravel: struct<struct<int>> with an all-valid middle struct", "[repdef]") {
  // layers [NULLABLE_ITEM (int), ALL_VALID_ITEM (inner), NULLABLE_ITEM (outer)]:
  // def 1 = int null, 2 = outer null; rows: valid, int null, outer null
  std::vector<RepDefLayer> layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULLABLE_ITEM};
  auto out = unravel(layers, {}, {0, 1, 2}, 3);
  CHECK(out[0].valid == V8{1, 1, 0});
  CHECK(out[1].valid == V8{1, 1, 0});  // null under a null parent
  CHECK(out[2].valid == V8{1, 0, 0});
}

TEST_CASE("unravel: list<struct<list<int>>>: rep lands inside the struct", "[repdef]") {
  // rows: [{l: [1, 2]}, {l: []}]  [null]
  // layers [ALL_VALID_ITEM, EMPTYABLE_LIST (l), NULLABLE_ITEM (struct), ALL_VALID_LIST]:
  // def 1 = l empty, 2 = struct null; rep 2 = new row, 1 = new struct element, 0 = next int
  std::vector<RepDefLayer> layers = {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_EMPTYABLE_LIST, pb::REPDEF_NULLABLE_ITEM,
                                     pb::REPDEF_ALL_VALID_LIST};
  auto out = unravel(layers, {2, 0, 1, 2}, {0, 0, 1, 2}, 4);
  REQUIRE(out.size() == 4);
  CHECK(out[0].offsets == V64{0, 2, 3});
  CHECK(out[1].valid == V8{1, 1, 0});
  CHECK(out[2].offsets == V64{0, 2, 2, 2});
  CHECK(out[2].valid == V8{1, 1, 0});
  CHECK(out[3].num_slots == 2);
}

TEST_CASE("unravel: level counts that disagree are corrupt", "[repdef]") {
  using lance::Error;
  // def levels shorter / longer than the entries
  CHECK_THROWS_AS(unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULLABLE_LIST}, {1, 1}, {0}, 2), Error);
  CHECK_THROWS_AS(unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULLABLE_LIST}, {1}, {0, 0}, 1), Error);
  // def 2 at a list that can only be null (max def 1)
  CHECK_THROWS_AS(unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULLABLE_LIST}, {1}, {2}, 1), Error);
  // no layers at all
  CHECK_THROWS_AS(unravel({}, {}, {}, 0), Error);
}

namespace {

/// A list<utf8> leaf of `values`, every row a one-item list, the items nullable.
LeafData utf8_list_leaf(const std::vector<std::string>& values) {
  LeafData leaf;
  leaf.layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST};
  leaf.values.bits_per_offset = 64;
  lance::append_le<uint64_t>(leaf.values.offsets, 0);
  for (const auto& v : values) {
    leaf.values.data.insert(leaf.values.data.end(), v.begin(), v.end());
    lance::append_le<uint64_t>(leaf.values.offsets, leaf.values.data.size());
    leaf.rep.push_back(1);
    leaf.def.push_back(0);
  }
  leaf.values.num_values = values.size();
  leaf.num_rows = values.size();
  return leaf;
}

}  // namespace

TEST_CASE("append_leaves joins pages as append_leaf does, one after another", "[repdef][leaf]") {
  const std::vector<std::vector<std::string>> pages = {{"a", "bb"}, {}, {"ccc"}, {"", "dddd", "e"}};
  LeafData one_by_one, at_once;
  std::vector<LeafData> pieces;
  for (const auto& p : pages) {
    append_leaf(one_by_one, utf8_list_leaf(p));
    pieces.push_back(utf8_list_leaf(p));
  }
  SECTION("into an empty leaf") { append_leaves(at_once, std::move(pieces)); }
  SECTION("after rows already there") {
    at_once = utf8_list_leaf(pages[0]);
    pieces.erase(pieces.begin());
    append_leaves(at_once, std::move(pieces));
  }
  CHECK(at_once.num_rows == one_by_one.num_rows);
  CHECK(at_once.num_rows == 6);
  CHECK(at_once.rep == one_by_one.rep);
  CHECK(at_once.def == one_by_one.def);
  CHECK(at_once.values.num_values == one_by_one.values.num_values);
  CHECK(at_once.values.data == one_by_one.values.data);
  CHECK(at_once.values.offsets == one_by_one.values.offsets);
  CHECK(std::string(at_once.values.data.begin(), at_once.values.data.end()) == "abbcccdddde");
}
