// take: rows in the order asked, duplicates repeated, equal to Lance's reading of those rows.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <random>
#include <sstream>

#include "cli_env.h"
#include "cli_runner.h"
#include "fixtures.h"

using namespace lance::testing;

namespace {

/// `take FILE --rows arg` gives the golden's row rows[i] as its line i.
void check_take(const FileFixture& fx, const std::string& arg, const std::vector<uint64_t>& rows) {
  auto r = run_cli({"take", fx.file, "--rows", arg, "-f", "jsonl"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto want = lines(golden_text(fx, "jsonl"));
  REQUIRE(want.size() == fx.num_rows);
  auto got = lines(r.out);
  REQUIRE(got.size() == rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    INFO("request " << i << " row " << rows[i]);
    CHECK(got[i] == want[rows[i]]);
  }
}

}  // namespace

TEST_CASE("take returns Lance's rows in the order asked", "[take][golden]") {
  std::mt19937_64 rng(42);
  for (const auto& fx : file_fixtures()) {
    if (fx.num_rows == 0) continue;
    const uint64_t n = fx.num_rows;
    // scattered rows, a repeat, descending order, the last row, and a short inclusive range
    std::vector<uint64_t> rows;
    for (int i = 0; i < 40; ++i) rows.push_back(rng() % n);
    rows.push_back(rows.front());
    rows.push_back(n - 1);
    rows.push_back(0);
    std::string arg;
    for (uint64_t r : rows) arg += std::to_string(r) + ",";
    uint64_t a = n / 2, b = std::min(n - 1, n / 2 + 3);
    arg += std::to_string(a) + "-" + std::to_string(b);
    for (uint64_t r = a; r <= b; ++r) rows.push_back(r);
    DYNAMIC_SECTION(fx.name) { check_take(fx, arg, rows); }
  }
}

TEST_CASE("take of rows in order with repeats decodes each repeat as a row of its own", "[take][golden]") {
  // Rows in order keep their repeats down to the decoders (read::FileRowReader::row_ranges):
  // a repeated row is a range of its own, overlapping the one before. Every fixture (every
  // layout, encoding and format version) must give each repeat in full: the first row twice,
  // a run with a repeat inside it, and the last row three times.
  std::mt19937_64 rng(7);
  for (const auto& fx : file_fixtures()) {
    if (fx.num_rows == 0) continue;
    const uint64_t n = fx.num_rows;
    std::vector<uint64_t> rows{0, 0};
    for (int i = 0; i < 12; ++i) rows.push_back(rng() % n);
    const uint64_t mid = n / 2;
    for (uint64_t r = mid; r < std::min(n, mid + 3); ++r) rows.push_back(r);
    rows.push_back(mid);
    rows.push_back(mid);
    for (int i = 0; i < 3; ++i) rows.push_back(n - 1);
    std::sort(rows.begin(), rows.end());
    std::string arg;
    for (uint64_t r : rows) arg += (arg.empty() ? "" : ",") + std::to_string(r);
    DYNAMIC_SECTION(fx.name) { check_take(fx, arg, rows); }
  }
}

TEST_CASE("take of a data file in groups: ascending rows read ahead at once, decoded a group at a time",
          "[take][golden]") {
  // LANCE_CLI_TAKE_GROUP_BYTES=1 makes every distinct row its own group; 0 turns grouping off.
  // Lance's rows either way, and no more I/O operations or bytes than one take: the groups'
  // reads are answered by the read-ahead (2.0 and v1 files take the rows in one take). It can
  // be less: a later metadata round of the read-ahead (a blob page's descriptors) may lie
  // inside an earlier round's merged read, which the read-ahead keeps.
  auto stats_of = [](const std::string& err) {
    const auto at = err.find('{');
    REQUIRE(at != std::string::npos);
    return nlohmann::json::parse(err.substr(at, err.find('\n', at) - at));
  };
  for (const auto& fx : file_fixtures()) {
    if (fx.num_rows == 0) continue;
    std::vector<uint64_t> rows;
    for (uint64_t r = 0; r < fx.num_rows; r += 1 + r % 3) rows.push_back(r);
    rows.insert(rows.begin() + static_cast<std::ptrdiff_t>(rows.size() / 2), rows[rows.size() / 2]);  // a repeat
    std::string arg;
    for (uint64_t r : rows) arg += (arg.empty() ? "" : ",") + std::to_string(r);
    DYNAMIC_SECTION(fx.name) {
      const std::vector<std::string> args{"take", fx.file, "--rows", arg, "-f", "jsonl", "--stats=json"};
      RunLimits grouped, whole;
      grouped.timeout_ms = whole.timeout_ms = 60000;
      grouped.env = {"LANCE_CLI_TAKE_GROUP_BYTES=1"};
      whole.env = {"LANCE_CLI_TAKE_GROUP_BYTES=0"};
      auto a = run_cli_limited(args, grouped);
      auto b = run_cli_limited(args, whole);
      INFO(a.err);
      REQUIRE(a.exit_code == 0);
      REQUIRE(b.exit_code == 0);
      const auto want = lines(golden_text(fx, "jsonl"));
      std::string expect;
      for (uint64_t r : rows) expect += want.at(r) + "\n";
      CHECK(a.out == expect);
      CHECK(b.out == expect);
      const auto sa = stats_of(a.err), sb = stats_of(b.err);
      CHECK(sa["iops"].get<uint64_t>() <= sb["iops"].get<uint64_t>());
      CHECK(sa["bytes_read"].get<uint64_t>() <= sb["bytes_read"].get<uint64_t>());
    }
  }
}

TEST_CASE("take reads row numbers from a file or stdin", "[take]") {
  const std::string file = source_path("data/sample/products.lance");
  auto want = lines(read_text(source_path("data/golden/sample-products.jsonl")));
  auto r = run_cli({"take", file, "--rows-file", "-", "-f", "jsonl"}, "5\n3\n5\n1990-1991\n");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto got = lines(r.out);
  REQUIRE(got.size() == 5);
  CHECK(got[0] == want[5]);
  CHECK(got[1] == want[3]);
  CHECK(got[2] == want[5]);
  CHECK(got[3] == want[1990]);
  CHECK(got[4] == want[1991]);
}

TEST_CASE("take rejects bad row lists with usage errors", "[take]") {
  const std::string file = source_path("data/sample/products.lance");
  for (std::string bad : {"2000", "abc", "5-2", "1,,x", "-1"}) {
    DYNAMIC_SECTION("--rows " << bad) {
      auto r = run_cli({"take", file, "--rows", bad});
      CHECK(r.exit_code == 2);
      CHECK(r.out.empty());
      CHECK(!r.err.empty());
    }
  }
  auto r = run_cli({"take", file, "--rows", "2000"});
  CHECK(r.err.find("2000") != std::string::npos);
  CHECK(r.err.find("2000 rows") != std::string::npos);
}

TEST_CASE("take checks a range against the table before expanding it", "[take]") {
  const std::string file = source_path("data/sample/products.lance");
  RunLimits l;
  l.timeout_ms = 20000;
  if (!sanitizer_build()) l.address_space_bytes = uint64_t{2} << 30;
  for (const char* rows : {"0-1000000000", "5,0-4294967295", "0-18446744073709551614"}) {
    INFO(rows);
    auto r = run_cli_limited({"take", file, "--rows", rows, "-c", "id", "-f", "null"}, l);
    CHECK(!r.timed_out);
    CHECK(r.exit_code == 2);
    CHECK((r.err.find("out of range") != std::string::npos || r.err.find("too large") != std::string::npos));
  }
}

TEST_CASE("take reads a long rows list in windows, in order, across the window boundary", "[take]") {
  const std::string file = source_path("data/sample/products.lance");
  // 1,100,000 rows: past the first window of 2^20. Row 7 everywhere but at the ends.
  std::string rows = "1999\n";
  for (int i = 0; i < 1100000 - 2; ++i) rows += "7\n";
  rows += "3";
  auto r = run_cli({"take", file, "--rows-file", "-", "-c", "id", "-f", "csv", "--no-header"}, rows);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto got = lines(r.out);
  REQUIRE(got.size() == 1100000);
  CHECK(got.front() == "101999");
  CHECK(got[1048575] == "100007");
  CHECK(got[1048576] == "100007");
  CHECK(got.back() == "100003");
  // A bad row in a later window: the rows before it were written, then the usage error.
  std::string late = rows + "\n2000";
  auto bad = run_cli({"take", file, "--rows-file", "-", "-c", "id", "-f", "null"}, late);
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("row 2000 is out of range") != std::string::npos);
}

TEST_CASE("take: rows file errors name the file and the line", "[take]") {
  const std::string file = source_path("data/sample/products.lance");
  TempDir dir("rows-file");
  auto d = run_cli({"take", file, "--rows-file", dir.path().string()});
  CHECK(d.exit_code == 1);
  CHECK(d.err.find(dir.path().string() + ": cannot read the rows file: Is a directory") != std::string::npos);
  auto m = run_cli({"take", file, "--rows-file", dir.file("missing.txt")});
  CHECK(m.exit_code == 1);
  CHECK(m.err.find("missing.txt: cannot open the rows file: No such file or directory") != std::string::npos);
  auto b = run_cli({"take", file, "--rows-file", "-"}, "1\n2,3\n4-x\n");
  CHECK(b.exit_code == 2);
  CHECK(b.err.find("standard input: line 3: bad row number '4-x'") != std::string::npos);
  // An endless line is refused without holding it.
  auto e = run_cli({"take", file, "--rows-file", "-"}, std::string(100000, '1'));
  CHECK(e.exit_code == 2);
  // Leading zeros are decimal; blanks around numbers and ranges are fine.
  auto z = run_cli({"take", file, "--rows", " 010 , 8 - 9 ", "-c", "id", "-f", "csv", "--no-header"});
  INFO(z.err);
  CHECK(z.out == "100010\n100008\n100009\n");
}
