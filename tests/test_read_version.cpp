// Which version a read used: `--stats` (text and json) and `count --json` report it, so a
// reader of a table that a writer keeps changing can compare with, or re-read, that version
// (tests/live_writer.mjs checks it against Lance while LanceDB writes).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

using lance::testing::run_cli;
using lance::testing::source_path;

namespace {

nlohmann::json stats_json(const std::string& err) {
  const auto start = err.find('{');
  REQUIRE(start != std::string::npos);
  return nlohmann::json::parse(err.substr(start, err.find('\n', start) - start));
}

}  // namespace

TEST_CASE("stats and count --json name the dataset version read", "[stats][count][dataset]") {
  const std::string ds = source_path("data/datasets/appends");  // versions 1-7
  auto scan = run_cli({"scan", ds, "-f", "null", "--stats=json"});
  REQUIRE(scan.exit_code == 0);
  CHECK(stats_json(scan.err).at("version") == 7);
  auto old = run_cli({"take", ds, "--version", "4", "--rows", "0", "-f", "null", "--stats=json"});
  REQUIRE(old.exit_code == 0);
  CHECK(stats_json(old.err).at("version") == 4);
  auto text = run_cli({"scan", ds, "--version", "2", "-f", "null", "--stats"});
  REQUIRE(text.exit_code == 0);
  CHECK(text.err.rfind("read:  dataset version 2\nstats: ", 0) == 0);
  auto count = run_cli({"count", ds, "--version", "3", "--json"});
  REQUIRE(count.exit_code == 0);
  CHECK(nlohmann::json::parse(count.out).at("version") == 3);
  CHECK(nlohmann::json::parse(run_cli({"count", ds, "--json"}).out).at("version") == 7);
  // A single data file has no version.
  const std::string file = source_path("data/sample/products.lance");
  CHECK(stats_json(run_cli({"scan", file, "-n", "1", "-f", "null", "--stats=json"}).err).at("version").is_null());
  CHECK(run_cli({"scan", file, "-n", "1", "-f", "null", "--stats"}).err.find("version") == std::string::npos);
  CHECK(nlohmann::json::parse(run_cli({"count", file, "--json"}).out).at("version").is_null());
}
