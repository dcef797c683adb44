// `--filter`: the rows Lance's `query().where(EXPR)` returns and the count `countRows(EXPR)`
// gives, for every expression of data/filters/goldens.json (scripts/gen-filters.mjs) on the
// 2.0, 2.1 and 2.2 tables; what Lance rejects is a usage error here too.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "common/error.h"
#include "expr/like.h"
#include "expr/parse.h"
#include "filter_goldens.h"
#include "fixtures.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using Json = nlohmann::json;
using lance::testing::filter_answer;
using lance::testing::filter_goldens;
using lance::testing::filter_rows_by_id;
using lance::testing::filter_versions;

TEST_CASE("filter: every golden expression gives Lance's rows and count, or Lance's rejection", "[filter][golden]") {
  REQUIRE(filter_goldens().at("expressions").size() > 100);
  for (const std::string& version : filter_versions()) {
    const auto rows = filter_rows_by_id(version);
    const std::string table = source_path(std::string("data/filters/") + version);
    for (const auto& e : filter_goldens().at("expressions")) {
      const std::string expr = e.at("expr");
      const Json& a = filter_answer(e, version);
      INFO(version << ": " << expr);
      auto r = run_cli({"scan", table, "--filter", expr, "-f", "jsonl"});
      if (!a.at("accepted").get<bool>()) {
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("filter: ") != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one line
        continue;
      }
      REQUIRE(r.exit_code == 0);
      std::string want;
      for (const auto& id : a.at("ids")) want += rows.at(id.get<int64_t>());
      CHECK(r.out == want);
      auto c = run_cli({"count", table, "--where", expr});
      CHECK(c.out == std::to_string(a.at("count").get<uint64_t>()) + "\n");
    }
  }
}

TEST_CASE("filter: -c projects, --offset and --limit count matching rows, every format works", "[filter]") {
  const std::string table = source_path("data/filters/2_1");
  const std::string expr = "cat = 'red' OR i32 IS NULL";
  const Json* e = nullptr;
  for (const auto& x : filter_goldens().at("expressions"))
    if (x.at("expr") == expr) e = &x;
  REQUIRE(e);
  std::vector<int64_t> ids;
  for (const auto& id : e->at("ids")) ids.push_back(id.get<int64_t>());
  REQUIRE(ids.size() > 10);
  // the filter's columns need not be projected
  auto r = run_cli({"scan", table, "--filter", expr, "-c", "id,name", "-f", "csv", "--offset", "3", "-n", "5"});
  REQUIRE(r.exit_code == 0);
  const auto lines = lance::testing::lines(r.out);
  REQUIRE(lines.size() == 6);
  CHECK(lines[0] == "id,name");
  for (size_t i = 0; i < 5; ++i) CHECK(lines[i + 1].substr(0, lines[i + 1].find(',')) == std::to_string(ids[3 + i]));
  // small batches through the take path: the same rows
  auto all = run_cli({"scan", table, "--filter", expr, "-f", "jsonl"});
  CHECK(run_cli({"scan", table, "--filter", expr, "-f", "jsonl", "--batch-size", "2"}).out == all.out);
  for (const char* fmt : {"csv", "tsv", "json", "arrow", "null"}) {
    INFO(fmt);
    CHECK(run_cli({"scan", table, "--filter", expr, "-f", fmt}).exit_code == 0);
  }
  CHECK(run_cli({"scan", table, "--filter", expr, "-n", "0"}).out.empty());
  // a single data file of the table
  std::vector<std::string> files;
  for (const auto& f : std::filesystem::directory_iterator(table + "/data")) files.push_back(f.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());
  const std::string first = run_cli({"scan", files[0], "-c", "id", "-n", "1", "-f", "csv", "--no-header"}).out;
  if (first == "0\n")
    CHECK(run_cli({"scan", files[0], "--filter", "id < 3", "-c", "id", "-f", "csv", "--no-header"}).out == "0\n1\n2\n");
  // --filter and --sample do not go together
  CHECK(run_cli({"scan", table, "--filter", expr, "--sample", "3"}).exit_code == 2);
}

TEST_CASE("filter parser: positions, quoting, trailing text and depth", "[filter]") {
  using lance::expr::parse;
  CHECK(parse("a = 1").ignored_tail == 0);
  CHECK(parse("a = 1) junk").ignored_tail == 6);
  CHECK(parse("`odd name` = 'it''s'").root->kind == lance::expr::NodeKind::binary);
  auto error_of = [](const std::string& text) {
    try {
      parse(text);
    } catch (const lance::Error& e) {
      CHECK(e.kind() == lance::ErrorKind::usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of("a = ").find("at position 5") != std::string::npos);
  CHECK(error_of("a = 'open").find("unterminated string at position 5") != std::string::npos);
  CHECK(error_of("").find("empty expression") != std::string::npos);
  CHECK(error_of(std::string(5000, '(') + "a").find("nested too deeply") != std::string::npos);
  CHECK(error_of("a # 1").find("unexpected character '#'") != std::string::npos);
}

TEST_CASE("filter LIKE: wildcards, escapes, code points, case folding", "[filter]") {
  using lance::expr::like_match;
  CHECK(like_match("alpha", "a%", false));
  CHECK(like_match("alpha", "%ph%", false));
  CHECK(!like_match("alpha", "a_", false));
  CHECK(like_match("naïve", "na_ve", false));  // ï is one character of two bytes
  CHECK(like_match("100%", "100\\%", false));
  CHECK(!like_match("1000", "100\\%", false));
  CHECK(like_match("a_b", "a\\_b", false));
  CHECK(!like_match("axb", "a\\_b", false));
  CHECK(like_match("ALPHA", "alpha", true));
  CHECK(like_match("", "%", false));
  CHECK(!like_match("", "_", false));
  CHECK(like_match("aaab", "%a%b", false));
}

TEST_CASE("filter: head --filter shows the first matching rows", "[filter]") {
  const std::string table = source_path("data/filters/2_2");
  const auto all = lance::testing::lines(run_cli({"scan", table, "--filter", "flag AND i32 > 0", "-f", "jsonl"}).out);
  REQUIRE(all.size() > 3);
  auto h = run_cli({"head", table, "--filter", "flag AND i32 > 0", "-n", "3", "-f", "jsonl"});
  REQUIRE(h.exit_code == 0);
  CHECK(h.out == all[0] + "\n" + all[1] + "\n" + all[2] + "\n");
}

TEST_CASE("filter: a column compared with a literal, either way round, gives the rows of the general path",
          "[filter]") {
  // `column op literal` is compared in place (expr/eval.cpp, compare_column_to_literal); the
  // same comparison with the literal first, or through arithmetic (the general path), must
  // keep the same rows, nulls and NaNs included.
  const std::string table = source_path("data/filters/2_1");
  const std::vector<std::array<std::string, 3>> same = {
      {"i32 > 0", "0 < i32", "i32 + 0 > 0"},
      {"i32 <= -10", "-10 >= i32", "i32 + 0 <= -10"},
      {"u8 >= 200", "200 <= u8", "u8 + 0 >= 200"},
      {"f64 < 0", "0 > f64", "f64 + 0 < 0"},
      {"f64 >= 1.5", "1.5 <= f64", "f64 + 0.0 >= 1.5"},
      {"f64 != 0", "0 != f64", "f64 * 1 != 0"},
      {"name < 'b'", "'b' > name", "name < concat('b', '')"},
      {"name = 'O''Brien'", "'O''Brien' = name", "name = concat('O''Brien', '')"},
      {"cat != 'red'", "'red' <> cat", "cat != concat('red', '')"},
  };
  for (const auto& [a, b, c] : same) {
    INFO(a);
    const auto ra = run_cli({"scan", table, "--filter", a, "-c", "id", "-f", "csv", "--no-header"});
    REQUIRE(ra.exit_code == 0);
    CHECK(!ra.out.empty());
    CHECK(run_cli({"scan", table, "--filter", b, "-c", "id", "-f", "csv", "--no-header"}).out == ra.out);
    CHECK(run_cli({"scan", table, "--filter", c, "-c", "id", "-f", "csv", "--no-header"}).out == ra.out);
  }
}

TEST_CASE("filter: a projected filter column is read once, by the filter pass", "[filter]") {
  // Every row matches (ids start at -5000000): the filter pass reads the column, and its values are the
  // output; nothing is taken afterwards. A column not in the filter is still taken.
  const auto file = source_path("data/fixtures/multipage-v2.2.lance");
  const auto bytes_of = [](const std::vector<std::string>& args) {
    auto r = run_cli(args);
    REQUIRE(r.exit_code == 0);
    const auto at = r.err.rfind("{\"requests\"");
    REQUIRE(at != std::string::npos);
    return Json::parse(r.err.substr(at, r.err.find('\n', at) - at)).at("bytes_read").get<uint64_t>();
  };
  const uint64_t scan = bytes_of({"scan", file, "-c", "id", "-f", "null", "--stats=json"});
  CHECK(bytes_of({"scan", file, "--filter", "id > -100000000", "-c", "id", "-f", "null", "--stats=json"}) == scan);
  const uint64_t with_txt = bytes_of({"scan", file, "-c", "id,txt", "-f", "null", "--stats=json"});
  CHECK(bytes_of({"scan", file, "--filter", "id > -100000000", "-c", "id,txt", "-f", "null", "--stats=json"}) <=
        with_txt);
  // The same rows and values as without the filter, in the projection's order.
  CHECK(run_cli({"scan", file, "--filter", "id > -100000000", "-c", "txt,id", "-f", "csv"}).out ==
        run_cli({"scan", file, "-c", "txt,id", "-f", "csv"}).out);
  CHECK(run_cli({"scan", file, "--filter", "id > -100000000", "-c", "txt,id", "-f", "csv", "--batch-size", "7"}).out ==
        run_cli({"scan", file, "-c", "txt,id", "-f", "csv"}).out);
}
