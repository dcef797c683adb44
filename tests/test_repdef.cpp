// Rep/def levels → slots, validity and offsets (structural/repdef.h).
#include <catch2/catch.hpp>

#include "common/error.h"
#include "structural/assemble.h"
#include "structural/leaf_data.h"
#include "structural/repdef.h"

using namespace lance::structural;
namespace pb = lance::encodings21;

namespace {
/// A layer's validity flags, all ones when it has none stored (no nulls).
std::vector<uint8_t> flags(const LayerSlots& s) {
  if (!s.has_nulls) {
    CHECK(s.valid.empty());
    return std::vector<uint8_t>(s.num_slots, 1);
  }
  return s.valid;
}
}  // namespace

TEST_CASE("unravel: the worked example of repdef.h", "[repdef]") {
  // rows: [1, 2]  null  [null, 5]  []
  std::vector<RepDefLayer> layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST};
  std::vector<uint16_t> rep = {1, 0, 1, 1, 0, 1}, def = {0, 0, 2, 1, 0, 3};
  auto out = unravel(layers, rep, def, 6);
  REQUIRE(out.size() == 2);
  CHECK(out[0].is_list);
  CHECK(out[0].num_slots == 4);
  CHECK(flags(out[0]) == std::vector<uint8_t>{1, 0, 1, 1});
  CHECK(out[0].offsets == std::vector<int64_t>{0, 2, 2, 4, 4});
  CHECK(out[1].num_slots == 4);
  CHECK(flags(out[1]) == std::vector<uint8_t>{1, 1, 0, 1});
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
    CHECK(flags(out[0]) == std::vector<uint8_t>{1, 0, 1});
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
  CHECK(flags(out[0]) == std::vector<uint8_t>{1, 1, 0});
  // a null struct still has a value slot: its child is visible, and null
  CHECK(out[1].num_slots == 3);
  CHECK(flags(out[1]) == std::vector<uint8_t>{1, 0, 0});
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
  CHECK(flags(out[1]) == V8{0, 1, 1});
  CHECK(out[1].has_nulls);
}

TEST_CASE("unravel: NULLABLE_LIST of ALL_VALID_ITEM", "[repdef]") {
  // [1]  null  [2, 3]   def 1 = null list
  auto out = unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULLABLE_LIST}, {1, 1, 1, 0}, {0, 1, 0, 0}, 4);
  CHECK(out[0].offsets == V64{0, 1, 1, 3});
  CHECK(flags(out[0]) == V8{1, 0, 1});
  CHECK(out[0].has_nulls);
  CHECK(out[1].num_slots == 3);
  CHECK_FALSE(out[1].has_nulls);
}

TEST_CASE("unravel: EMPTYABLE_LIST of ALL_VALID_ITEM", "[repdef]") {
  // []  [7]  []         def 1 = empty list
  auto out = unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_EMPTYABLE_LIST}, {1, 1, 1}, {1, 0, 1}, 3);
  CHECK(out[0].offsets == V64{0, 0, 1, 1});
  CHECK(flags(out[0]) == V8{1, 1, 1});
  CHECK_FALSE(out[0].has_nulls);
  CHECK(out[1].num_slots == 1);
}

TEST_CASE("unravel: EMPTYABLE_LIST of NULLABLE_ITEM", "[repdef]") {
  // [null]  []  [1, null]   def 1 = null item, 2 = empty list
  auto out = unravel({pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_EMPTYABLE_LIST}, {1, 1, 1, 0}, {1, 2, 0, 1}, 4);
  CHECK(out[0].offsets == V64{0, 1, 1, 3});
  CHECK_FALSE(out[0].has_nulls);
  CHECK(flags(out[1]) == V8{0, 1, 0});
}

TEST_CASE("unravel: NULLABLE_LIST of NULLABLE_ITEM", "[repdef]") {
  // null  [null]  [5]        def 1 = null item, 2 = null list
  auto out = unravel({pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULLABLE_LIST}, {1, 1, 1}, {2, 1, 0}, 3);
  CHECK(out[0].offsets == V64{0, 0, 1, 2});
  CHECK(flags(out[0]) == V8{0, 1, 1});
  CHECK(flags(out[1]) == V8{0, 1});
}

TEST_CASE("unravel: NULL_AND_EMPTY_LIST of ALL_VALID_ITEM", "[repdef]") {
  // []  null  [1]            def 1 = null list, 2 = empty list
  auto out = unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST}, {1, 1, 1}, {2, 1, 0}, 3);
  CHECK(out[0].offsets == V64{0, 0, 0, 1});
  CHECK(flags(out[0]) == V8{1, 0, 1});
  CHECK(out[1].num_slots == 1);
  CHECK_FALSE(out[1].has_nulls);
}

TEST_CASE("unravel: only null and empty lists: no visible item", "[repdef]") {
  auto out = unravel({pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST}, {1, 1, 1, 1}, {1, 2, 2, 1}, 4);
  CHECK(out[0].offsets == V64{0, 0, 0, 0, 0});
  CHECK(flags(out[0]) == V8{0, 1, 1, 0});
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
  CHECK(flags(out[0]) == V8{1, 0, 1, 1});
  CHECK(out[1].offsets == V64{0, 2, 2, 2, 3});
  CHECK(flags(out[1]) == V8{1, 0, 1, 1});
  CHECK(flags(out[2]) == V8{1, 0, 1});
}

TEST_CASE("unravel: struct<list<int>>: a null struct has a null, itemless list slot", "[repdef]") {
  // rows: {l: [1, null]}  null  {l: null}  {l: []}
  // layers [NULLABLE_ITEM (int), NULL_AND_EMPTY_LIST (l), NULLABLE_ITEM (struct)]:
  // def 1 = null item, 2 = null list, 3 = empty list, 4 = null struct
  std::vector<RepDefLayer> layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST,
                                     pb::REPDEF_NULLABLE_ITEM};
  auto out = unravel(layers, {1, 0, 1, 1, 1}, {0, 1, 4, 2, 3}, 5);
  REQUIRE(out.size() == 3);
  CHECK_FALSE(out[0].is_list);
  CHECK(flags(out[0]) == V8{1, 0, 1, 1});
  CHECK(out[1].is_list);
  CHECK(flags(out[1]) == V8{1, 0, 0, 1});
  CHECK(out[1].offsets == V64{0, 2, 2, 2, 2});
  CHECK(flags(out[2]) == V8{1, 0});
}

TEST_CASE("unravel: list<struct<a>> with null elements and null children", "[repdef]") {
  // rows: [{a: 1}, null, {a: null}]  []  null
  // layers [NULLABLE_ITEM (a), NULLABLE_ITEM (struct), NULL_AND_EMPTY_LIST]:
  // def 1 = a null, 2 = struct null, 3 = list null, 4 = list empty
  std::vector<RepDefLayer> layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULLABLE_ITEM,
                                     pb::REPDEF_NULL_AND_EMPTY_LIST};
  auto out = unravel(layers, {1, 0, 0, 1, 1}, {0, 2, 1, 4, 3}, 5);
  CHECK(out[0].offsets == V64{0, 3, 3, 3});
  CHECK(flags(out[0]) == V8{1, 1, 0});
  CHECK(flags(out[1]) == V8{1, 0, 1});
  CHECK(flags(out[2]) == V8{1, 0, 0});
}

TEST_CASE("unravel: struct<struct<int>> with an all-valid middle struct", "[repdef]") {
  // layers [NULLABLE_ITEM (int), ALL_VALID_ITEM (inner), NULLABLE_ITEM (outer)]:
  // def 1 = int null, 2 = outer null; rows: valid, int null, outer null
  std::vector<RepDefLayer> layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULLABLE_ITEM};
  auto out = unravel(layers, {}, {0, 1, 2}, 3);
  CHECK(flags(out[0]) == V8{1, 1, 0});
  CHECK(flags(out[1]) == V8{1, 1, 0});  // null under a null parent
  CHECK(flags(out[2]) == V8{1, 0, 0});
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
  CHECK(flags(out[1]) == V8{1, 1, 0});
  CHECK(out[2].offsets == V64{0, 2, 2, 2});
  CHECK(flags(out[2]) == V8{1, 1, 0});
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

// ---------------------------------------------------------------------------------------
// unravel against a plain reading of the rules, level by level (no tables, no passes per
// layer), on random layer stacks and random levels, bad ones included.
// ---------------------------------------------------------------------------------------

namespace {

/// The rules of repdef.h applied to one level at a time; throws lance::Error for levels
/// that do not fit. Layers innermost first, result outermost first.
std::vector<LayerSlots> unravel_by_level(const std::vector<RepDefLayer>& inner_first, const std::vector<uint16_t>& rep,
                                         const std::vector<uint16_t>& def, uint64_t n) {
  const size_t m = inner_first.size();
  struct L {
    bool list = false;
    int valid_max = 0, null_def = -1, empty_def = -1, depth = 0;
  };
  std::vector<L> lay(m);
  int cum = 0, depth = 0;
  for (size_t i = 0; i < m; ++i) {
    L& l = lay[m - 1 - i];
    const RepDefLayer k = inner_first[i];
    l.valid_max = cum;
    l.list = is_list_layer(k);
    if (l.list) l.depth = ++depth;
    if (k == pb::REPDEF_NULLABLE_ITEM || k == pb::REPDEF_NULLABLE_LIST) l.null_def = cum + 1;
    if (k == pb::REPDEF_EMPTYABLE_LIST) l.empty_def = cum + 1;
    if (k == pb::REPDEF_NULL_AND_EMPTY_LIST) l.null_def = cum + 1, l.empty_def = cum + 2;
    cum += def_levels_of(k);
  }
  for (uint64_t e = 0; e < n && !rep.empty(); ++e)
    if (rep[e] > depth) lance::throw_corrupt("rep");
  std::vector<LayerSlots> out(m);
  for (size_t k = 0; k < m; ++k) out[k].is_list = lay[k].list;
  std::vector<int64_t> children(m, 0);
  bool open = false;
  for (uint64_t e = 0; e < n; ++e) {
    const int r = rep.empty() ? depth : rep[e];
    const int d = def.empty() ? 0 : def[e];
    if (d > cum) lance::throw_corrupt("def");
    size_t start = 0;
    if (r == depth) {
      open = true;
    } else {
      if (!open) lance::throw_corrupt("open");
      for (size_t k = 0; k < m; ++k)
        if (lay[k].list && lay[k].depth == r + 1) start = k + 1;
    }
    bool outer_null = false;
    for (size_t k = start; k < m; ++k) {
      if (k > 0 && lay[k - 1].list) ++children[k - 1];
      if (lay[k].list) out[k].offsets.push_back(children[k]);
      uint8_t valid = 1;
      bool stop = false;
      if (outer_null) {
        valid = 0;
        stop = lay[k].list;
      } else if (d > lay[k].valid_max) {
        const bool is_null = d == lay[k].null_def;
        if (!is_null && d != lay[k].empty_def) lance::throw_corrupt("meaning");
        valid = is_null ? 0 : 1;
        stop = lay[k].list || !is_null;
        outer_null = !stop;
      }
      out[k].valid.push_back(valid);
      out[k].has_nulls = out[k].has_nulls || valid == 0;
      if (stop) break;
    }
  }
  for (size_t k = 0; k < m; ++k) {
    out[k].num_slots = out[k].valid.size();
    if (out[k].is_list) out[k].offsets.push_back(children[k]);
  }
  return out;
}

}  // namespace

TEST_CASE("unravel equals a level-by-level reading of the rules on random levels", "[repdef]") {
  const std::vector<RepDefLayer> kinds = {pb::REPDEF_ALL_VALID_ITEM, pb::REPDEF_NULLABLE_ITEM,
                                          pb::REPDEF_ALL_VALID_LIST, pb::REPDEF_NULLABLE_LIST,
                                          pb::REPDEF_EMPTYABLE_LIST, pb::REPDEF_NULL_AND_EMPTY_LIST};
  uint64_t seed = 42;
  auto next = [&](uint64_t k) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % k;
  };
  int compared = 0, both_threw = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    // Innermost an item layer, then 1-5 more of any kind.
    std::vector<RepDefLayer> layers = {next(2) ? pb::REPDEF_NULLABLE_ITEM : pb::REPDEF_ALL_VALID_ITEM};
    const size_t more = 1 + next(5);
    for (size_t i = 0; i < more; ++i) layers.push_back(kinds[next(kinds.size())]);
    int max_rep = 0, max_def = 0;
    for (auto l : layers) max_rep += is_list_layer(l), max_def += def_levels_of(l);
    const uint64_t n = next(40);
    std::vector<uint16_t> rep, def;
    const bool bad = next(10) == 0;  // now and then a level out of range
    if (max_rep > 0) {
      for (uint64_t e = 0; e < n; ++e)
        rep.push_back(static_cast<uint16_t>(e == 0 && !bad ? max_rep : next(max_rep + 1 + bad)));
    }
    if (max_def > 0 || bad) {
      // Mostly low defs (valid items), sometimes any.
      for (uint64_t e = 0; e < n; ++e)
        def.push_back(static_cast<uint16_t>(next(3) ? next(2) * (max_def > 0) : next(max_def + 1 + bad)));
    }
    INFO("trial " << trial);
    std::vector<LayerSlots> want, got;
    bool want_threw = false, got_threw = false;
    try {
      want = unravel_by_level(layers, rep, def, n);
    } catch (const lance::Error&) {
      want_threw = true;
    }
    try {
      got = unravel(layers, rep, def, n);
    } catch (const lance::Error&) {
      got_threw = true;
    }
    REQUIRE(want_threw == got_threw);
    if (want_threw) {
      ++both_threw;
      continue;
    }
    REQUIRE(got.size() == want.size());
    for (size_t k = 0; k < want.size(); ++k) {
      INFO("layer " << k);
      CHECK(got[k].is_list == want[k].is_list);
      CHECK(got[k].num_slots == want[k].num_slots);
      CHECK(flags(got[k]) == want[k].valid);
      CHECK(got[k].offsets == want[k].offsets);
      CHECK(got[k].has_nulls == want[k].has_nulls);
    }
    ++compared;
  }
  CHECK(compared > 1000);
  CHECK(both_threw > 100);
}

// ---------------------------------------------------------------------------------------
// Level plans: built once per column, applied to every batch of its levels.
// ---------------------------------------------------------------------------------------

namespace {

/// The message of the lance::Error `fn` throws ("" when it throws none).
template <typename Fn>
std::string error_of(Fn&& fn) {
  try {
    fn();
  } catch (const lance::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("unravel: one plan for many batches gives what a plan per batch gives", "[repdef]") {
  // list<struct<a: int?>?> with null and empty lists: rows of 0-3 items.
  const std::vector<RepDefLayer> layers = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULLABLE_ITEM,
                                           pb::REPDEF_NULL_AND_EMPTY_LIST};
  const LevelPlan plan(layers);
  CHECK(plan.max_rep == 1);
  CHECK(plan.max_def == 4);
  uint64_t seed = 7;
  auto next = [&](uint64_t k) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % k;
  };
  for (int batch = 0; batch < 200; ++batch) {
    std::vector<uint16_t> rep, def;
    const uint64_t rows = next(20);
    for (uint64_t r = 0; r < rows; ++r) {
      const uint64_t items = next(4);
      if (items == 0) {
        rep.push_back(1), def.push_back(static_cast<uint16_t>(3 + next(2)));  // null or empty list
        continue;
      }
      for (uint64_t i = 0; i < items; ++i) rep.push_back(i == 0 ? 1 : 0), def.push_back(static_cast<uint16_t>(next(3)));
    }
    INFO("batch " << batch);
    const auto once = unravel(plan, rep, def, rep.size());
    const auto fresh = unravel(layers, rep, def, rep.size());
    REQUIRE(once.size() == fresh.size());
    for (size_t k = 0; k < once.size(); ++k) {
      CHECK(once[k].num_slots == fresh[k].num_slots);
      CHECK(once[k].valid == fresh[k].valid);
      CHECK(once[k].offsets == fresh[k].offsets);
      CHECK(once[k].has_nulls == fresh[k].has_nulls);
    }
  }
}

TEST_CASE("unravel: layers a plan cannot use are refused in the order unravel checks its input", "[repdef]") {
  const auto unknown = static_cast<RepDefLayer>(0);  // REPDEF_UNSPECIFIED
  // A flat column never needs the tables: an unknown outer layer, or too many layers, pass.
  CHECK(unravel({pb::REPDEF_ALL_VALID_ITEM, unknown}, {}, {}, 2)[0].num_slots == 2);
  const std::vector<RepDefLayer> deep(65, pb::REPDEF_NULLABLE_ITEM);
  CHECK(unravel(deep, {}, {}, 3).size() == 65);
  // The level counts are checked first, then the layers.
  CHECK(error_of([&] {
          unravel({pb::REPDEF_ALL_VALID_ITEM, unknown}, {1}, {}, 2);
        }) == "1 repetition levels for 2 entries");
  CHECK(error_of([&] {
          unravel({pb::REPDEF_ALL_VALID_ITEM, unknown}, {}, {0, 0}, 2);
        }) == "unknown repetition/definition layer 0");
  CHECK(error_of([&] {
          unravel(deep, {}, {0, 0, 1}, 3);
        }) == "65 repetition/definition layers: more than the 64 supported");
  CHECK(error_of([&] { unravel(LevelPlan({}), {}, {}, 0); }) == "a column with no repetition/definition layers");
}

TEST_CASE("LevelPlans keeps one plan per leaf until its layers change", "[repdef]") {
  LevelPlans plans;
  const std::vector<RepDefLayer> list = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULLABLE_LIST};
  const std::vector<RepDefLayer> item = {pb::REPDEF_NULLABLE_ITEM};
  const auto a = plans.get(0, list);
  const auto b = plans.get(1, item);
  CHECK(plans.get(0, list) == a);
  CHECK(plans.get(1, item) == b);
  CHECK(a->inner_first == list);
  CHECK(b->inner_first == item);
  // Pages of one column may widen its layers: a new plan, kept from then on.
  const std::vector<RepDefLayer> wider = {pb::REPDEF_NULLABLE_ITEM, pb::REPDEF_NULL_AND_EMPTY_LIST};
  const auto c = plans.get(0, wider);
  CHECK(c != a);
  CHECK(c->inner_first == wider);
  CHECK(plans.get(0, wider) == c);
}
