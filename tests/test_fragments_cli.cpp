// `--fragments` on scan, take and count, and `lance-cli plan`: fragment subsets read the
// right slice of Lance's own reading (the dataset goldens), plans cover a version exactly
// once in order, and the errors a user sees.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

#include "cli_env.h"
#include "cli_runner.h"
#include "dataset/dataset.h"
#include "fixtures.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using nlohmann::json;

using lance::testing::lines;

namespace {

struct Version {
  std::string label, dir, golden;
  std::vector<std::string> version_args;
  std::vector<uint64_t> ids;   // fragment ids, manifest order
  std::vector<uint64_t> rows;  // visible rows per fragment
};

/// Dataset versions of data/datasets/index.json with at least two fragments.
std::vector<Version> multi_fragment_versions() {
  std::vector<Version> out;
  json index = json::parse(read_text(source_path("data/datasets/index.json")));
  for (const auto& d : index["datasets"]) {
    for (const auto& v : d["versions"]) {
      if (v["fragments"].size() < 2) continue;
      Version x;
      x.label = d["name"].get<std::string>() + "@v" + std::to_string(v["version"].get<uint64_t>());
      x.dir = source_path("data/" + d["dir"].get<std::string>());
      x.golden = source_path("data/" + v["golden_prefix"].get<std::string>() + ".jsonl");
      x.version_args = {"--version", std::to_string(v["version"].get<uint64_t>())};
      for (const auto& f : v["fragments"]) {
        x.ids.push_back(f["id"]);
        x.rows.push_back(f["physical_rows"].get<uint64_t>() - f["deleted_rows"].get<uint64_t>());
      }
      out.push_back(x);
    }
  }
  return out;
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// Golden rows of the fragments at positions `chosen` (manifest positions, ascending).
std::string golden_rows(const Version& v, const std::vector<size_t>& chosen) {
  auto all = lines(read_text(v.golden));
  std::string out;
  uint64_t start = 0;
  for (size_t i = 0, c = 0; i < v.ids.size(); start += v.rows[i], ++i) {
    if (c < chosen.size() && chosen[c] == i) {
      for (uint64_t r = start; r < start + v.rows[i]; ++r) out += all.at(r) + "\n";
      ++c;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("scan --fragments reads those fragments' rows, in manifest order", "[fragments]") {
  const auto versions = multi_fragment_versions();
  REQUIRE(versions.size() >= 5);
  for (const auto& v : versions) {
    for (size_t i = 0; i < v.ids.size(); ++i) {
      DYNAMIC_SECTION(v.label << " fragment " << v.ids[i]) {
        auto r =
            run_cli(concat({"scan", v.dir, "-f", "jsonl", "--batch-size", "7", "--fragments", std::to_string(v.ids[i])},
                           v.version_args));
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        CHECK(r.out == golden_rows(v, {i}));
      }
    }
    // The last and the first, asked in reverse and repeated: manifest order, once each.
    const std::string last = std::to_string(v.ids.back()), first = std::to_string(v.ids.front());
    DYNAMIC_SECTION(v.label << " fragments " << last << "," << first << "," << last) {
      auto r = run_cli(concat({"scan", v.dir, "--fragments", last + "," + first + "," + last}, v.version_args));
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      CHECK(r.out == golden_rows(v, {0, v.ids.size() - 1}));
    }
  }
}

TEST_CASE("fragments option:: offset, limit, take rows and count refer to the selected fragments", "[fragments]") {
  const std::string dir = source_path("data/datasets/appends");  // v7: fragments 0 (103 rows), 2 (86), 3 (58)
  const auto all = lines(read_text(source_path("data/golden/ds_appends.jsonl")));
  REQUIRE(all.size() == 247);
  SECTION("scan --offset/--limit within fragments 2,3") {
    auto r = run_cli({"scan", dir, "--fragments", "2-3", "--offset", "80", "-n", "10"});
    REQUIRE(r.exit_code == 0);
    std::string want;
    for (size_t i = 103 + 80; i < 103 + 90; ++i) want += all[i] + "\n";
    CHECK(r.out == want);
  }
  SECTION("take numbers the visible rows of the selection") {
    auto r = run_cli({"take", dir, "--fragments", "0,3", "--rows", "104,0,102,103,160"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == all[103 + 86 + 1] + "\n" + all[0] + "\n" + all[102] + "\n" + all[103 + 86] + "\n" + all[246] + "\n");
    r = run_cli({"take", dir, "--fragments", "0,3", "--rows", "161"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("161") != std::string::npos);
  }
  SECTION("count") {
    auto r = run_cli({"count", dir, "--fragments", "2,3"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "144\n");
    r = run_cli({"count", dir, "--fragments", "0", "--json"});
    CHECK(r.out == "{\"rows\":103,\"deleted_rows\":17,\"fragments\":1,\"version\":7}\n");
    r = run_cli({"count", dir, "--version", "4", "--fragments", "1"});
    CHECK(r.out == "68\n");
  }
}

TEST_CASE("fragments option: errors", "[fragments]") {
  const std::string dir = source_path("data/datasets/appends");
  SECTION("an id the version lacks exits 2 and lists the ids there are") {
    for (std::vector<std::string> cmd :
         {std::vector<std::string>{"scan", dir}, {"take", dir, "--rows", "0"}, {"count", dir}}) {
      auto r = run_cli(concat(cmd, {"--fragments", "0,1"}));
      INFO(cmd[0] << ": " << r.err);
      CHECK(r.exit_code == 2);
      CHECK(r.err.find("version 7 has no fragment 1; its fragments are 0,2,3") != std::string::npos);
      CHECK(r.out.empty());
    }
    auto r = run_cli({"scan", dir, "--version", "4", "--fragments", "3"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("its fragments are 0-2") != std::string::npos);
  }
  SECTION("a bad list") {
    auto r = run_cli({"scan", dir, "--fragments", "2-x"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--fragments") != std::string::npos);
  }
  SECTION("a single data file") {
    for (std::vector<std::string> cmd : {std::vector<std::string>{"scan"}, {"take", "--rows", "0"}, {"count"}}) {
      cmd.insert(cmd.begin() + 1, source_path("data/sample/products.lance"));
      auto r = run_cli(concat(cmd, {"--fragments", "0"}));
      INFO(cmd[0] << ": " << r.err);
      CHECK(r.exit_code == 2);
      CHECK(r.err.find("single data file") != std::string::npos);
    }
  }
}

TEST_CASE("plan --json: exact shape, and the shards' scans concatenate to the full scan", "[fragments][plan]") {
  for (const auto& v : multi_fragment_versions()) {
    for (std::vector<std::string> how : {std::vector<std::string>{"--shards", "1"},
                                         {"--shards", "2"},
                                         {"--shards", "9"},
                                         {"--shard-bytes", "1"},
                                         {"--shard-bytes", "6KiB"},
                                         {}}) {
      DYNAMIC_SECTION(v.label << " " << (how.empty() ? "default" : how[0] + " " + how[1])) {
        auto p = run_cli(concat(concat({"plan", v.dir, "--json"}, v.version_args), how));
        INFO(p.err);
        REQUIRE(p.exit_code == 0);
        json plan = json::parse(p.out);
        REQUIRE(plan.size() == 3);
        CHECK(p.out.rfind("{\"version\": " + v.version_args[1] + ", \"rows\": ", 0) == 0);
        std::string scanned;
        std::vector<uint64_t> seen;
        uint64_t rows = 0;
        for (const auto& sh : plan["shards"]) {
          REQUIRE(sh.size() == 3);
          std::string ids;
          for (uint64_t id : sh["fragments"]) ids += (ids.empty() ? "" : ",") + std::to_string(id), seen.push_back(id);
          auto s = run_cli(
              {"scan", v.dir, "--version", std::to_string(plan["version"].get<uint64_t>()), "--fragments", ids});
          INFO(s.err);
          REQUIRE(s.exit_code == 0);
          CHECK(lines(s.out).size() == sh["rows"].get<uint64_t>());
          CHECK(sh["bytes"].get<uint64_t>() > 0);
          rows += sh["rows"].get<uint64_t>();
          scanned += s.out;
        }
        CHECK(seen == v.ids);
        CHECK(plan["rows"].get<uint64_t>() == rows);
        CHECK(scanned == read_text(v.golden));
        if (how.size() == 2 && how[0] == "--shards")
          CHECK(plan["shards"].size() == std::min<size_t>(std::stoul(how[1]), v.ids.size()));
        if (how.size() == 2 && how[0] == "--shard-bytes" && how[1] == "1") CHECK(plan["shards"].size() == v.ids.size());
      }
    }
  }
}

TEST_CASE("plan: text form, empty datasets and errors", "[fragments][plan]") {
  const std::string dir = source_path("data/datasets/appends");
  SECTION("text") {
    auto r = run_cli({"plan", dir, "--shards", "2"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find(dir + " version 7: 247 rows in 3 fragments") != std::string::npos);
    CHECK(r.out.find("2 shards") != std::string::npos);
    CHECK(r.out.find("shard  fragments  rows") != std::string::npos);
    CHECK(r.out.find("--version 7 --fragments") != std::string::npos);
  }
  SECTION("a version with no fragments has no shards") {
    auto r = run_cli({"plan", source_path("data/datasets/emptied"), "--json"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == "{\"version\": 2, \"rows\": 0, \"shards\": []}\n");
  }
  SECTION("--version pins an older version") {
    auto r = run_cli({"plan", dir, "--version", "4", "--json", "--shards", "3"});
    REQUIRE(r.exit_code == 0);
    json plan = json::parse(r.out);
    CHECK(plan["version"] == 4);
    CHECK(plan["rows"] == 257);
    CHECK(plan["shards"][1]["fragments"] == json::array({1}));
    CHECK(plan["shards"][1]["rows"] == 68);
  }
  SECTION("usage errors") {
    CHECK(run_cli({"plan", dir, "--shards", "2", "--shard-bytes", "1M"}).exit_code == 2);
    CHECK(run_cli({"plan", dir, "--shards", "0"}).exit_code == 2);
    auto r = run_cli({"plan", dir, "--shard-bytes", "12 parsecs"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--shard-bytes") != std::string::npos);
    r = run_cli({"plan", source_path("data/sample/products.lance")});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("single data file") != std::string::npos);
    r = run_cli({"plan", dir, "--version", "99"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("version 99") != std::string::npos);
    CHECK(run_cli({"plan", source_path("data/no-such-dir")}).exit_code == 1);
  }
}

TEST_CASE("fragments option: and plan never touch the data files of other fragments", "[fragments][plan]") {
  // What lets a worker read its shard when the other shards' files are elsewhere or gone.
  lance::testing::TempDir tmp("fragments");
  const std::string dir = tmp.file("appends");
  std::filesystem::copy(source_path("data/datasets/appends"), dir, std::filesystem::copy_options::recursive);
  const std::string plan_before = run_cli({"plan", dir, "--shards", "2", "--json"}).out;
  auto ds = lance::dataset::Dataset::open(dir);
  REQUIRE(ds->fragments().at(0).id == 0);
  const std::string gone = ds->data_file_path(ds->fragments()[0].files.at(0));
  REQUIRE(std::filesystem::remove(gone));
  const auto all = lines(read_text(source_path("data/golden/ds_appends.jsonl")));
  auto r = run_cli({"scan", dir, "--fragments", "2,3"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::string want;
  for (size_t i = 103; i < all.size(); ++i) want += all[i] + "\n";
  CHECK(r.out == want);
  CHECK(run_cli({"take", dir, "--fragments", "3", "--rows", "57"}).out == all.back() + "\n");
  auto p = run_cli({"plan", dir, "--shards", "2", "--json"});  // sizes from the manifest
  CHECK(p.exit_code == 0);
  CHECK(p.out == plan_before);
  r = run_cli({"scan", dir});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find(std::filesystem::path(gone).filename().string()) != std::string::npos);
}
