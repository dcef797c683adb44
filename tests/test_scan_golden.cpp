// scan output versus goldens rendered from Lance's own reading (scripts/gen-fixtures.mjs).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sstream>

#include "cli_runner.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using nlohmann::json;

namespace {

struct Fixture {
  std::string name;
  std::string file;    // absolute
  std::string golden;  // absolute prefix
  std::vector<std::string> columns;
  uint64_t num_rows = 0;
};

std::vector<Fixture> load_fixtures() {
  json index = json::parse(read_text(source_path("data/fixtures/index.json")));
  std::vector<Fixture> out;
  for (const auto& f : index["fixtures"]) {
    if (f.value("kind", "file") != "file") continue;
    Fixture x;
    x.name = f["name"];
    x.file = source_path("data/" + f["file"].get<std::string>());
    x.golden = source_path("data/" + f["golden_prefix"].get<std::string>());
    for (const auto& c : f["columns"]) x.columns.push_back(c["name"]);
    x.num_rows = f["num_rows"];
    out.push_back(x);
  }
  return out;
}

const std::vector<Fixture>& fixtures() {
  static const std::vector<Fixture> f = load_fixtures();
  return f;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

/// First differing line, for a readable failure.
std::string first_difference(const std::string& got, const std::string& want) {
  auto g = lines(got), w = lines(want);
  for (size_t i = 0; i < std::max(g.size(), w.size()); ++i) {
    std::string a = i < g.size() ? g[i] : "<missing>", b = i < w.size() ? w[i] : "<missing>";
    if (a != b) return "line " + std::to_string(i + 1) + "\n  got:  " + a.substr(0, 400) + "\n  want: " + b.substr(0, 400);
  }
  return got == want ? "" : "(trailing bytes differ)";
}

}  // namespace

TEST_CASE("scan equals Lance's reading, every fixture and format", "[golden]") {
  REQUIRE(!fixtures().empty());
  for (const auto& fx : fixtures()) {
    for (std::string fmt : {"jsonl", "json", "csv", "tsv"}) {
      DYNAMIC_SECTION(fx.name << " as " << fmt) {
        auto r = run_cli({"scan", fx.file, "-f", fmt});
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        std::string want = read_text(fx.golden + "." + fmt);
        INFO(first_difference(r.out, want));
        CHECK(r.out == want);
      }
    }
  }
}

TEST_CASE("scan limit and offset select the same rows as Lance", "[golden]") {
  for (const auto& fx : fixtures()) {
    if (fx.num_rows == 0) continue;
    auto want = lines(read_text(fx.golden + ".jsonl"));
    const uint64_t n = fx.num_rows;
    std::vector<std::pair<uint64_t, uint64_t>> cases = {{0, 1}, {n - 1, 5}, {n / 2, 3}, {n / 3, n}, {n, 4}};
    if (n > 1030) cases.push_back({1020, 10});  // crosses mini-block chunk boundaries
    for (auto [off, lim] : cases) {
      DYNAMIC_SECTION(fx.name << " offset " << off << " limit " << lim) {
        auto r = run_cli({"scan", fx.file, "--offset", std::to_string(off), "-n", std::to_string(lim), "-f", "jsonl"});
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        std::string expect;
        for (uint64_t i = off; i < std::min<uint64_t>(n, off + lim); ++i) expect += want[i] + "\n";
        INFO(first_difference(r.out, expect));
        CHECK(r.out == expect);
      }
    }
  }
}

TEST_CASE("scan projection returns the chosen columns in the chosen order", "[golden]") {
  for (const auto& fx : fixtures()) {
    if (fx.columns.empty()) continue;
    auto want = lines(read_text(fx.golden + ".jsonl"));
    std::vector<std::string> chosen = {fx.columns.back()};
    if (fx.columns.size() > 1) chosen.push_back(fx.columns.front());
    std::string arg = chosen[0] + (chosen.size() > 1 ? "," + chosen[1] : "");
    DYNAMIC_SECTION(fx.name << " -c " << arg) {
      auto r = run_cli({"scan", fx.file, "-c", arg, "-f", "jsonl"});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
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
