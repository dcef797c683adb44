// `--stats` and `-f null`: what scan and take report about their reads.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

using lance::testing::run_cli;
using lance::testing::source_path;

namespace {

nlohmann::json stats_line(const std::string& err) {
  auto start = err.find('{');
  REQUIRE(start != std::string::npos);
  auto end = err.find('\n', start);
  return nlohmann::json::parse(err.substr(start, end - start));
}

}  // namespace

TEST_CASE("format null decodes every row and writes nothing", "[stats]") {
  const auto file = source_path("data/sample/products.lance");
  auto r = run_cli({"scan", file, "-f", "null"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  auto t = run_cli({"take", file, "--rows", "0,3,3", "-f", "null"});
  CHECK(t.exit_code == 0);
  CHECK(t.out.empty());
}

TEST_CASE("stats json: one JSON line on stderr with the reads of a take", "[stats]") {
  const auto file = source_path("data/fixtures/multipage-v2.2.lance");
  auto r = run_cli({"take", file, "--rows", "0,5,5", "-c", "txt", "-f", "null", "--stats=json"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  auto j = stats_line(r.err);
  CHECK(j.at("rows_out") == 3);
  // Rows 0 and 5 lie in txt's first page: the file's tail (footer, column metadata), then
  // the page's chunk metadata, then the one chunk.
  CHECK(j.at("requests") == 3);
  CHECK(j.at("chunks") == 1);
  CHECK(j.at("pages") == 1);
  CHECK(j.at("iops").get<uint64_t>() >= j.at("requests").get<uint64_t>());
  CHECK(j.at("bytes_read").get<uint64_t>() > 0);
  CHECK(j.at("bytes_read").get<uint64_t>() < std::filesystem::file_size(file));
  for (const char* k : {"total_ms", "plan_ms", "io_wait_ms", "decode_ms", "plan_wall_ms", "io_wait_wall_ms",
                        "decode_wall_ms", "output_ms"})
    CHECK(j.at(k).get<double>() >= 0.0);
  // A stage's wall-clock time is the union of its threads' intervals: never above the total.
  for (const char* k : {"plan_wall_ms", "io_wait_wall_ms", "decode_wall_ms", "output_ms"})
    CHECK(j.at(k).get<double>() <= j.at("total_ms").get<double>());
}

TEST_CASE("stats text: lines on stderr, stdout keeps only the rows", "[stats]") {
  const auto file = source_path("data/sample/products.lance");
  auto plain = run_cli({"scan", file, "-n", "3", "-f", "csv"});
  auto r = run_cli({"scan", file, "-n", "3", "-f", "csv", "--stats"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == plain.out);
  CHECK(r.err.find("requests") != std::string::npos);
  CHECK(r.err.find("I/O operations") != std::string::npos);
  CHECK(r.err.find("3 rows out") != std::string::npos);
  CHECK(r.err.find("ms decoding") != std::string::npos);
}

TEST_CASE("stats with an unknown mode is a usage error", "[stats]") {
  auto r = run_cli({"scan", source_path("data/sample/products.lance"), "--stats=xml"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--stats") != std::string::npos);
}

TEST_CASE("scan and take batch size: bytes read and chunks decoded do not grow as batches shrink", "[stats][batch]") {
  // A small --batch-size once planned every batch as its own read: each 7-row batch fetched
  // and decoded the whole chunk holding it again (41x the file's bytes on a 2M-row table).
  struct Input {
    const char* path;
    const char* golden;
  };
  for (const auto& [rel, golden] : {Input{"data/fixtures/multipage-v2.2.lance", "data/golden/multipage.csv"},
                                    Input{"data/fixtures/multipage-v2.1.lance", "data/golden/multipage.csv"},
                                    Input{"data/datasets/appends", "data/golden/ds_appends.csv"}}) {
    INFO(rel);
    const auto path = source_path(rel);
    for (const char* command : {"scan", "take"}) {
      INFO(command);
      std::vector<std::string> args{command, path, "-f", "null", "--stats=json"};
      if (command == std::string("take")) args.insert(args.end(), {"--rows", "3-199,0,150-160"});
      auto base = run_cli(args);
      REQUIRE(base.exit_code == 0);
      const auto want = stats_line(base.err);
      for (const char* batch : {"1", "7", "100", "8192"}) {
        INFO("--batch-size " << batch);
        auto with_batch = args;
        with_batch.insert(with_batch.end(), {"--batch-size", batch});
        auto r = run_cli(with_batch);
        REQUIRE(r.exit_code == 0);
        const auto got = stats_line(r.err);
        CHECK(got.at("bytes_read") == want.at("bytes_read"));
        CHECK(got.at("chunks") == want.at("chunks"));
        CHECK(got.at("pages") == want.at("pages"));
        CHECK(got.at("rows_out") == want.at("rows_out"));
      }
    }
    // The rows are Lance's, in batches of 7 as in one.
    CHECK(run_cli({"scan", path, "-f", "csv", "--batch-size", "7"}).out ==
          lance::testing::read_text(source_path(golden)));
  }
}
