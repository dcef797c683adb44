// scan output versus goldens rendered from Lance's own reading (scripts/gen-fixtures.mjs).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "fixtures.h"

using namespace lance::testing;
using nlohmann::json;

TEST_CASE("scan equals Lance's reading, every fixture and format", "[golden]") {
  REQUIRE(!file_fixtures().empty());
  for (const auto& fx : file_fixtures()) {
    for (std::string fmt : {"jsonl", "json", "csv", "tsv"}) {
      DYNAMIC_SECTION(fx.name << " as " << fmt) {
        auto r = run_cli({"scan", fx.file, "-f", fmt});
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        std::string want = golden_text(fx, fmt);
        INFO(first_difference(r.out, want));
        CHECK(r.out == want);
      }
    }
  }
}

TEST_CASE("scan decoded on the CPU pool equals Lance's reading, every fixture", "[golden]") {
  // The fixtures are small: a default scan of them decodes inline (read::scan_decode_mode).
  // LANCE_CLI_DECODE_TASKS=pool decodes them as large scans do.
  REQUIRE(!file_fixtures().empty());
  RunLimits pool;
  pool.env = {"LANCE_CLI_DECODE_TASKS=pool"};
  pool.timeout_ms = 60000;
  for (const auto& fx : file_fixtures()) {
    DYNAMIC_SECTION(fx.name) {
      auto r = run_cli_limited({"scan", fx.file, "-f", "jsonl"}, pool);
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      const std::string want = golden_text(fx, "jsonl");
      INFO(first_difference(r.out, want));
      CHECK(r.out == want);
    }
  }
}

TEST_CASE("scan limit and offset select the same rows as Lance", "[golden]") {
  for (const auto& fx : file_fixtures()) {
    if (fx.num_rows == 0) continue;
    const uint64_t n = fx.num_rows;
    std::vector<std::pair<uint64_t, uint64_t>> cases = {{0, 1}, {n - 1, 5}, {n / 2, 3}, {n / 3, n}, {n, 4}};
    if (n > 1030) cases.push_back({1020, 10});  // crosses mini-block chunk boundaries
    for (auto [off, lim] : cases) {
      DYNAMIC_SECTION(fx.name << " offset " << off << " limit " << lim) {
        auto r = run_cli({"scan", fx.file, "--offset", std::to_string(off), "-n", std::to_string(lim), "-f", "jsonl"});
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        const auto want = lines(golden_text(fx, "jsonl"));
        REQUIRE(want.size() == n);
        std::string expect;
        for (uint64_t i = off; i < std::min<uint64_t>(n, off + lim); ++i) expect += want[i] + "\n";
        INFO(first_difference(r.out, expect));
        CHECK(r.out == expect);
      }
    }
  }
}

TEST_CASE("scan projection returns the chosen columns in the chosen order", "[golden]") {
  for (const auto& fx : file_fixtures()) {
    if (fx.columns.empty()) continue;
    std::vector<std::string> chosen = {fx.columns.back()};
    if (fx.columns.size() > 1) chosen.push_back(fx.columns.front());
    std::string arg = chosen[0] + (chosen.size() > 1 ? "," + chosen[1] : "");
    DYNAMIC_SECTION(fx.name << " -c " << arg) {
      auto r = run_cli({"scan", fx.file, "-c", arg, "-f", "jsonl"});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      const auto want = lines(golden_text(fx, "jsonl"));
      auto got = lines(r.out);
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        json g = json::parse(got[i]), w = json::parse(want[i]);
        std::vector<std::string> keys;
        for (auto it = g.begin(); it != g.end(); ++it) keys.push_back(it.key());
        REQUIRE(g.size() == chosen.size());
        for (const auto& c : chosen) {
          INFO("row " << i << " column " << c);
          REQUIRE(g.contains(c));
          CHECK(g[c] == w[c]);
        }
      }
      // key order follows the projection
      CHECK(r.out.rfind("{\"" + chosen[0] + "\"", 0) == 0);
    }
  }
}
