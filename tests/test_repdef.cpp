// Rep/def levels → slots, validity and offsets (structural/repdef.h).
#include <catch2/catch.hpp>

#include "common/error.h"
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
