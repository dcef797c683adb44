// Dataset directories (manifests, fragments, deletion files, versions): scan and take output
// versus goldens rendered from Lance's own reading (scripts/gen-datasets.mjs), plus the
// errors a user sees.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

#include "cli_runner.h"
#include "fixtures.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using nlohmann::json;

namespace {

struct DatasetVersion {
  std::string dataset;  // name
  std::string dir;      // absolute
  std::string storage;  // "2.1", ...
  uint64_t version = 0;
  bool latest = false;
  uint64_t num_rows = 0;
  std::vector<std::string> columns;
  std::vector<uint64_t> fragment_rows;  // visible rows per fragment
  std::string golden;                   // absolute prefix
  std::vector<uint64_t> take_offsets;
  std::string take_golden;  // absolute prefix, empty when no take golden

  /// CLI arguments selecting this version.
  std::vector<std::string> version_args() const {
    if (latest) return {};
    return {"--version", std::to_string(version)};
  }
  std::string label() const { return dataset + "@v" + std::to_string(version); }
};

std::vector<DatasetVersion> load_versions() {
  std::vector<DatasetVersion> out;
  for (const auto& d : lance::testing::dataset_index()["datasets"]) {
    for (const auto& v : d["versions"]) {
      DatasetVersion x;
      x.dataset = d["name"];
      x.dir = source_path("data/" + d["dir"].get<std::string>());
      x.storage = d["storage_version"];
      x.version = v["version"];
      x.latest = v["latest"];
      x.num_rows = v["num_rows"];
      for (const auto& c : v["columns"]) x.columns.push_back(c["name"]);
      for (const auto& f : v["fragments"])
        x.fragment_rows.push_back(f["physical_rows"].get<uint64_t>() - f["deleted_rows"].get<uint64_t>());
      x.golden = source_path("data/" + v["golden_prefix"].get<std::string>());
      if (!v["take"].is_null()) {
        x.take_offsets = v["take"]["offsets"].get<std::vector<uint64_t>>();
        x.take_golden = source_path("data/" + v["take"]["golden_prefix"].get<std::string>());
      }
      out.push_back(x);
    }
  }
  return out;
}

const std::vector<DatasetVersion>& versions() {
  static const std::vector<DatasetVersion> v = load_versions();
  return v;
}

using lance::testing::first_difference;
using lance::testing::lines;

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string join_rows(const std::vector<uint64_t>& rows) {
  std::string s;
  for (uint64_t r : rows) s += (s.empty() ? "" : ",") + std::to_string(r);
  return s;
}

}  // namespace

TEST_CASE("dataset scan equals Lance's reading, every dataset, version and format", "[dataset]") {
  REQUIRE(versions().size() >= 10);
  for (const auto& v : versions()) {
    for (std::string fmt : {"jsonl", "json", "csv", "tsv"}) {
      DYNAMIC_SECTION(v.label() << " as " << fmt) {
        auto r = run_cli(concat({"scan", v.dir, "-f", fmt}, v.version_args()));
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        std::string want = read_text(v.golden + "." + fmt);
        INFO(first_difference(r.out, want));
        CHECK(r.out == want);
      }
    }
  }
}

TEST_CASE("dataset scan decoded on the CPU pool equals Lance's reading, every dataset and version", "[dataset]") {
  // These datasets are small: a default scan decodes them inline (read::scan_decode_mode).
  lance::testing::RunLimits pool;
  pool.env = {"LANCE_CLI_DECODE_TASKS=pool"};
  pool.timeout_ms = 60000;
  REQUIRE(versions().size() >= 10);
  for (const auto& v : versions()) {
    DYNAMIC_SECTION(v.label()) {
      auto r = run_cli_limited(concat({"scan", v.dir, "-f", "jsonl"}, v.version_args()), pool);
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      const std::string want = read_text(v.golden + ".jsonl");
      INFO(first_difference(r.out, want));
      CHECK(r.out == want);
    }
  }
}

TEST_CASE("dataset scan: limit and offset across fragments and deletions", "[dataset]") {
  for (const auto& v : versions()) {
    if (v.num_rows == 0) continue;
    auto want = lines(read_text(v.golden + ".jsonl"));
    REQUIRE(want.size() == v.num_rows);
    const uint64_t n = v.num_rows;
    std::vector<std::pair<uint64_t, uint64_t>> cases = {{0, 1}, {n - 1, 5}, {n / 2, 3}, {n / 3, n}, {n, 4}, {0, 0}};
    uint64_t at = 0;
    for (uint64_t rows : v.fragment_rows) {  // windows straddling each fragment boundary
      at += rows;
      if (at > 2 && at < n) cases.push_back({at - 2, 5});
    }
    for (auto [off, lim] : cases) {
      DYNAMIC_SECTION(v.label() << " offset " << off << " limit " << lim) {
        auto r = run_cli(concat({"scan", v.dir, "--offset", std::to_string(off), "-n", std::to_string(lim), "-f",
                                 "jsonl", "--batch-size", "3"},
                                v.version_args()));
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

TEST_CASE("dataset scan: projection picks columns by name, in the order asked", "[dataset]") {
  for (const auto& v : versions()) {
    if (v.columns.size() < 2 || v.num_rows == 0) continue;
    auto want = lines(read_text(v.golden + ".jsonl"));
    const std::vector<std::string> chosen = {v.columns.back(), v.columns.front()};
    DYNAMIC_SECTION(v.label() << " -c " << chosen[0] << "," << chosen[1]) {
      auto r = run_cli(concat({"scan", v.dir, "-c", chosen[0] + "," + chosen[1], "-f", "jsonl"}, v.version_args()));
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      auto got = lines(r.out);
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        json g = json::parse(got[i]), w = json::parse(want[i]);
        REQUIRE(g.size() == 2);
        CHECK(got[i].rfind("{\"" + chosen[0] + "\":", 0) == 0);  // first key as asked
        for (const auto& c : chosen) CHECK(g[c] == w[c]);
      }
    }
  }
}

TEST_CASE("dataset take equals LanceDB takeOffsets", "[dataset]") {
  for (const auto& v : versions()) {
    if (v.take_golden.empty()) continue;
    for (std::string fmt : {"jsonl", "json", "csv", "tsv"}) {
      DYNAMIC_SECTION(v.label() << " take as " << fmt) {
        auto r = run_cli(concat({"take", v.dir, "--rows", join_rows(v.take_offsets), "-f", fmt}, v.version_args()));
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        std::string want = read_text(v.take_golden + "." + fmt);
        INFO(first_difference(r.out, want));
        CHECK(r.out == want);
      }
    }
  }
}

TEST_CASE("dataset take returns rows in the order asked, repeats included", "[dataset]") {
  for (const auto& v : versions()) {
    if (v.num_rows == 0) continue;
    auto want = lines(read_text(v.golden + ".jsonl"));
    std::vector<uint64_t> rows(v.take_offsets.rbegin(), v.take_offsets.rend());
    rows.push_back(v.num_rows - 1);
    rows.push_back(0);
    rows.push_back(v.num_rows / 2);
    rows.push_back(v.num_rows / 2);
    DYNAMIC_SECTION(v.label() << " take " << join_rows(rows)) {
      auto r = run_cli(
          concat({"take", v.dir, "--rows", join_rows(rows), "-f", "jsonl", "--batch-size", "4"}, v.version_args()));
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      std::string expect;
      for (uint64_t row : rows) expect += want[row] + "\n";
      INFO(first_difference(r.out, expect));
      CHECK(r.out == expect);
    }
  }
}

TEST_CASE("dataset take in groups: ascending rows read ahead at once, decoded a group at a time", "[dataset][take]") {
  // LANCE_CLI_TAKE_GROUP_BYTES=1 makes every distinct row its own group (one batch each);
  // 0 turns grouping off. Same rows out, and the same I/O operations and bytes: the groups'
  // reads are answered by the read-ahead of their fragment's run.
  auto stats_of = [](const std::string& err) {
    const auto at = err.find('{');
    REQUIRE(at != std::string::npos);
    return json::parse(err.substr(at, err.find('\n', at) - at));
  };
  for (const auto& v : versions()) {
    if (v.num_rows == 0) continue;
    auto want = lines(read_text(v.golden + ".jsonl"));
    std::vector<uint64_t> rows;
    for (uint64_t r = 0; r < v.num_rows; r += 1 + r % 3) rows.push_back(r);
    rows.insert(rows.begin() + static_cast<std::ptrdiff_t>(rows.size() / 2), rows[rows.size() / 2]);  // a repeat
    DYNAMIC_SECTION(v.label() << " take of " << rows.size() << " ascending rows") {
      std::vector<std::string> args =
          concat({"take", v.dir, "--rows", join_rows(rows), "-f", "jsonl", "--stats=json"}, v.version_args());
      lance::testing::RunLimits grouped, whole;
      grouped.timeout_ms = whole.timeout_ms = 60000;
      grouped.env = {"LANCE_CLI_TAKE_GROUP_BYTES=1"};
      whole.env = {"LANCE_CLI_TAKE_GROUP_BYTES=0"};
      auto a = lance::testing::run_cli_limited(args, grouped);
      auto b = lance::testing::run_cli_limited(args, whole);
      INFO(a.err);
      REQUIRE(a.exit_code == 0);
      REQUIRE(b.exit_code == 0);
      std::string expect;
      for (uint64_t row : rows) expect += want[row] + "\n";
      INFO(first_difference(a.out, expect));
      CHECK(a.out == expect);
      CHECK(b.out == expect);
      const json sa = stats_of(a.err), sb = stats_of(b.err);
      CHECK(sa["iops"] == sb["iops"]);
      CHECK(sa["bytes_read"] == sb["bytes_read"]);
    }
  }
}

TEST_CASE("dataset errors name the version and the directory", "[dataset]") {
  const std::string dir = source_path("data/datasets/appends");
  SECTION("a version that does not exist") {
    auto r = run_cli({"scan", dir, "--version", "99"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("version 99") != std::string::npos);
    CHECK(r.err.find(dir) != std::string::npos);
    CHECK(r.err.find("1-7") != std::string::npos);  // lists the versions it has
    CHECK(r.out.empty());
  }
  SECTION("version 0 does not exist either") {
    auto r = run_cli({"take", dir, "--rows", "0", "--version", "0"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("version 0") != std::string::npos);
  }
  SECTION("a row past the visible rows") {
    auto r = run_cli({"take", dir, "--rows", "0,247"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("247") != std::string::npos);
  }
  SECTION("an unknown column") {
    auto r = run_cli({"scan", dir, "-c", "nmae"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("name") != std::string::npos);
  }
  SECTION("a renamed column is known by its new name only") {
    auto r = run_cli({"scan", source_path("data/datasets/evolution"), "-c", "name"});
    CHECK(r.exit_code == 2);
    r = run_cli({"scan", source_path("data/datasets/evolution"), "-c", "name", "--version", "4", "-n", "1"});
    CHECK(r.exit_code == 0);
  }
  SECTION("--version on a single data file") {
    auto r = run_cli({"scan", source_path("data/sample/products.lance"), "--version", "1"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("single data file") != std::string::npos);
  }
  SECTION("a directory that is not a dataset") {
    auto r = run_cli({"scan", source_path("data/datasets")});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("_versions") != std::string::npos);
  }
}
