// Filters answered through scalar indices (index/filter_plan.h): on the indexed copies of
// the filter tables (data/filters/<version>_indexed: BTREE, BITMAP and LABEL_LIST indices
// over two fragments, an unindexed third appended after them, deletions after both), every
// golden expression gives the rows Lance's query().where() gives, with and without
// --no-index; --stats names the index that answered; a damaged index is exit 4.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_env.h"
#include "cli_runner.h"
#include "common/error.h"
#include "filter_goldens.h"
#include "fixtures.h"
#include "index/scalar_index.h"

using namespace lance::testing;  // NOLINT: the test helpers
using Json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

/// The conjuncts --stats=json says indices answered.
Json index_uses(const std::string& err) {
  const auto start = err.find('{');
  REQUIRE(start != std::string::npos);
  return Json::parse(err.substr(start)).at("filter").at("index_uses");
}

}  // namespace

TEST_CASE("filter indices: the goldens say Lance answers the same rows with its indices", "[filter][index][golden]") {
  CHECK(filter_goldens().at("indexed_differs").empty());
  CHECK(filter_goldens().at("answered_by_index").size() > 50);
}

TEST_CASE("filter indices: every golden expression gives Lance's rows on the indexed copies, with and without them",
          "[filter][index][golden]") {
  for (const std::string& version : filter_versions()) {
    const auto rows = filter_rows_by_id(version);
    const std::string table = source_path(std::string("data/filters/") + version + "_indexed");
    for (const auto& e : filter_goldens().at("expressions")) {
      const Json& a = filter_answer(e, version);
      if (!a.at("accepted").get<bool>()) continue;
      const std::string expr = e.at("expr");
      INFO(version << ": " << expr);
      std::string want;
      for (const auto& id : a.at("ids")) want += rows.at(id.get<int64_t>());
      auto r = run_cli({"scan", table, "--filter", expr, "-f", "jsonl"});
      REQUIRE(r.exit_code == 0);
      CHECK(r.out == want);
      auto n = run_cli({"scan", table, "--filter", expr, "-f", "jsonl", "--no-index"});
      CHECK(n.out == want);
      auto c = run_cli({"count", table, "--where", expr});
      CHECK(c.out == std::to_string(a.at("count").get<uint64_t>()) + "\n");
    }
  }
}

TEST_CASE("filter indices: --stats names the index that answered each predicate", "[filter][index]") {
  const std::string table = source_path("data/filters/2_1_indexed");
  struct Case {
    const char* expr;
    std::vector<std::string> indices;  // per answered conjunct, the first index named
  };
  const Case cases[] = {
      {"id < 10", {"BTREE id_idx on id"}},
      {"cat = 'red' AND id > 100", {"BITMAP cat_idx on cat", "BTREE id_idx on id"}},
      {"NOT (i32 > 0)", {"BTREE i32_idx on i32"}},
      {"i32 NOT IN (1, 2, 3)", {"BTREE i32_idx on i32"}},
      {"array_has_any(tags, ['a', 'b'])", {"LABEL_LIST tags_idx on tags"}},
      {"array_contains(tags, 'a')", {"LABEL_LIST tags_idx on tags"}},
      {"u8 IN (3, 200, 255)", {"BITMAP u8_idx on u8"}},
      {"flag IS NULL", {"BITMAP flag_idx on flag"}},
      {"d BETWEEN date '2021-01-01' AND date '2021-06-30'", {"BTREE d_idx on d"}},
      {"ts IS NULL", {"BTREE ts_idx on ts"}},
      {"name != 'alpha'", {"BTREE name_idx on name"}},
      {"lower(name) = 'alpha'", {}},  // BTREE cannot answer a function of the column
      {"length(name) > 5 AND cat = 'red'", {"BITMAP cat_idx on cat"}},
      {"id >= 75 AND i32 > 0 AND id < 85", {"BTREE id_idx on id", "BTREE i32_idx on i32"}},  // one range on id
  };
  for (const auto& c : cases) {
    INFO(c.expr);
    auto r = run_cli({"scan", table, "--filter", c.expr, "-f", "null", "--stats=json"});
    REQUIRE(r.exit_code == 0);
    const Json uses = index_uses(r.err);
    REQUIRE(uses.size() == c.indices.size());
    for (size_t i = 0; i < uses.size(); ++i) {
      CHECK(uses[i].at("indices").at(0) == c.indices[i]);
      CHECK(uses[i].at("fragments") == 2);  // the third fragment came after the indices
      CHECK(uses[i].at("rows_covered") == 150);
    }
  }
  SECTION("the unindexed tail is scanned, the indexed fragments are not") {
    auto r = run_cli({"count", table, "--filter", "id < 10", "--stats=json"});
    CHECK(r.out == "9\n");  // id 4 is deleted
    const Json st = Json::parse(r.err.substr(r.err.find('{')));
    CHECK(st.at("filter").at("rows_evaluated") == 46);  // the third fragment's 50 rows, 4 deleted
    CHECK(st.at("filter").at("index_uses").at(0).at("rows_matched") == 10);
    // 140 of the 200 physical rows skipped, of a column of about 8 bytes a row on disk
    const auto skipped = st.at("filter").at("index_uses").at(0).at("column_bytes_skipped_estimate").get<uint64_t>();
    CHECK(skipped > 100);
    CHECK(skipped < 140 * 16);
  }
  SECTION("two bounds of one column are one BTREE range") {
    auto r = run_cli({"count", table, "--filter", "id >= 75 AND id < 85", "--stats=json"});
    CHECK(r.out == "9\n");  // 81 is deleted
    const Json uses = index_uses(r.err);
    REQUIRE(uses.size() == 1);
    CHECK(uses[0].at("predicate") == "id >= 75 AND id < 85");
    CHECK(uses[0].at("rows_matched") == 10);
  }
  SECTION("--no-index and a single data file use none") {
    auto r = run_cli({"count", table, "--filter", "id < 10", "--no-index", "--stats=json"});
    CHECK(r.out == "9\n");
    CHECK(index_uses(r.err).empty());
  }
  SECTION("text form") {
    auto r = run_cli({"count", table, "--filter", "cat = 'red'", "--stats"});
    CHECK(r.err.find(
              "index: BITMAP cat_idx on cat answered cat = 'red': 13 of 150 rows in 2 fragments (137 rows and ~") !=
          std::string::npos);
  }
}

TEST_CASE("filter indices: --offset and --limit count matching rows across indexed and scanned fragments",
          "[filter][index]") {
  for (const std::string& version : filter_versions()) {
    const std::string plain = source_path(std::string("data/filters/") + version);
    const std::string indexed = plain + "_indexed";
    for (const char* expr : {"cat IN ('red', 'blue')", "id >= 75 AND id < 160", "NOT flag"}) {
      INFO(version << ": " << expr);
      const std::vector<std::string> args = {"--filter", expr,       "-c", "id,name", "-f",
                                             "csv",      "--offset", "7",  "-n",      "20"};
      auto want = run_cli([&] {
        std::vector<std::string> a = {"scan", plain};
        a.insert(a.end(), args.begin(), args.end());
        return a;
      }());
      auto got = run_cli([&] {
        std::vector<std::string> a = {"scan", indexed};
        a.insert(a.end(), args.begin(), args.end());
        return a;
      }());
      REQUIRE(want.exit_code == 0);
      CHECK(got.out == want.out);
    }
  }
}

TEST_CASE("filter indices: a damaged index is a corrupt-file error naming it", "[filter][index]") {
  TempDir dir("damaged-index");
  const fs::path ds = dir.path() / "t";
  fs::copy(source_path("data/filters/2_1_indexed"), ds, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(ds / "_indices")) {
    if (!entry.is_regular_file()) continue;
    const auto name = entry.path().filename().string();
    if (name == "page_data.lance" || name == "bitmap_page_lookup.lance")
      fs::resize_file(entry.path(), fs::file_size(entry.path()) / 2);
  }
  for (const char* expr : {"id < 10", "cat = 'red'", "array_has_any(tags, ['a'])"}) {
    INFO(expr);
    auto r = run_cli({"scan", ds.string(), "--filter", expr, "-c", "id"});
    CHECK(r.exit_code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find("index '") != std::string::npos);
    auto n = run_cli({"count", ds.string(), "--filter", expr, "--no-index"});
    CHECK(n.exit_code == 0);
  }
}

TEST_CASE("filter indices: RowAddrTreeMap bytes", "[filter][index]") {
  // u32 count; per fragment u32 id, u32 size, portable roaring (size 0: the whole fragment)
  auto u32 = [](std::string& s, uint32_t v) { s.append(reinterpret_cast<const char*>(&v), 4); };
  auto u16 = [](std::string& s, uint16_t v) { s.append(reinterpret_cast<const char*>(&v), 2); };
  std::string roaring;  // {1, 5}: cookie 12346, 1 container, key 0, cardinality 2, offset, values
  u32(roaring, 12346);
  u32(roaring, 1);
  u16(roaring, 0);
  u16(roaring, 1);
  u32(roaring, 16);
  u16(roaring, 1);
  u16(roaring, 5);
  std::string bytes;
  u32(bytes, 3);
  u32(bytes, 0);
  u32(bytes, 0);  // fragment 0: all of it
  u32(bytes, 1);
  u32(bytes, static_cast<uint32_t>(roaring.size()));
  bytes += roaring;
  u32(bytes, 9);  // a fragment the dataset lacks: left out
  u32(bytes, static_cast<uint32_t>(roaring.size()));
  bytes += roaring;
  const auto rows = [](uint32_t f) -> uint32_t { return f == 0 ? 3 : f == 1 ? 6 : 0; };
  const lance::ByteView view(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  const auto s = lance::index::decode_row_addr_map(view, rows);
  CHECK(s == lance::index::RowSet{{0, {0, 1, 2}}, {1, {1, 5}}});
  SECTION("truncated, or a row past the fragment's end") {
    for (size_t cut = 0; cut < bytes.size(); ++cut)
      CHECK_THROWS_AS(lance::index::decode_row_addr_map(view.slice(0, cut), rows), lance::Error);
    const auto small = [](uint32_t f) -> uint32_t { return f == 0 ? 3 : f == 1 ? 5 : 0; };
    CHECK_THROWS_WITH(lance::index::decode_row_addr_map(view, small), Catch::Contains("fragment 1"));
  }
}
