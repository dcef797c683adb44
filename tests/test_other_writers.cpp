// Tables written by other Lance releases (issue 19), from scripts/gen-writers.mjs: the legacy
// v1 format (lancedb 0.12.0 "legacy" / Lance 0.19.1, vectordb 0.4.20 / Lance 0.10.18), the
// all-null fixed_size_list pages of Lance 1.0 / 2.0, and Lance 12's 2.3 — each equal to what
// that writer's own reader returned (data/writers/index.json lists them).
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "cli_env.h"
#include "cli_runner.h"
#include "corrupt_variants.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using nlohmann::json;

namespace {

const json& writers_index() {
  static const json j = json::parse(read_text(source_path("data/writers/index.json")));
  return j;
}

std::vector<std::string> data_files(const std::string& dataset) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dataset + "/data"))
    if (e.path().extension() == ".lance") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string first_difference(const std::string& got, const std::string& want) {
  std::istringstream g(got), w(want);
  std::string a, b;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(g, a)), wb = static_cast<bool>(std::getline(w, b));
    if (!ga && !wb) return got == want ? "" : "(trailing bytes differ)";
    if (!ga || !wb || a != b)
      return "line " + std::to_string(line) + "\n  got:  " + (ga ? a.substr(0, 300) : "<missing>") +
             "\n  want: " + (wb ? b.substr(0, 300) : "<missing>");
  }
}

bool is_v1(const json& e) { return e["requested_format"].get<std::string>().rfind("legacy", 0) == 0; }

/// A copy of `src` with the footer's (major, minor) replaced.
std::string with_footer_version(const std::string& src, uint16_t major, uint16_t minor, const std::string& name) {
  std::ifstream in(src, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() > 40);
  std::memcpy(bytes.data() + bytes.size() - 8, &major, 2);
  std::memcpy(bytes.data() + bytes.size() - 6, &minor, 2);
  static const lance::testing::TempDir tmp("versions");  // removed at exit
  const auto& dir = tmp.path();
  const std::string out = (dir / name).string();
  std::ofstream(out, std::ios::binary) << bytes;
  return out;
}

}  // namespace

TEST_CASE("other writers: scan equals the writer's own reading", "[writers][golden]") {
  REQUIRE(!writers_index()["datasets"].empty());
  for (const auto& e : writers_index()["datasets"]) {
    const std::string ds = source_path("data/" + e["dataset"].get<std::string>());
    const std::string golden = source_path("data/" + e["golden_prefix"].get<std::string>());
    for (std::string fmt : {"jsonl", "json", "csv", "tsv"}) {
      DYNAMIC_SECTION(e["name"].get<std::string>() << " (" << e["writer"].get<std::string>() << ") as " << fmt) {
        auto r = run_cli({"scan", ds, "-f", fmt});
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        const std::string want = read_text(golden + "." + fmt);
        INFO(first_difference(r.out, want));
        CHECK(r.out == want);
      }
    }
  }
}

TEST_CASE("other writers: inspect versions describes every version, with or without its transaction file",
          "[writers][inspect]") {
  for (const auto& e : writers_index()["datasets"]) {
    const std::string ds = source_path("data/" + e["dataset"].get<std::string>());
    DYNAMIC_SECTION(e["name"].get<std::string>()) {
      auto r = run_cli({"inspect", "versions", ds, "--json"});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      const json j = json::parse(r.out);
      REQUIRE(!j["versions"].empty());
      for (const auto& v : j["versions"]) CHECK(!v.contains("error"));
    }
  }
}

TEST_CASE("other writers: take, count, head and schema", "[writers][golden][take]") {
  for (const auto& e : writers_index()["datasets"]) {
    const std::string ds = source_path("data/" + e["dataset"].get<std::string>());
    DYNAMIC_SECTION(e["name"].get<std::string>()) {
      std::string rows;
      for (const auto& o : e["take_offsets"]) rows += (rows.empty() ? "" : ",") + std::to_string(o.get<uint64_t>());
      auto t = run_cli({"take", ds, "--rows", rows, "-f", "jsonl"});
      INFO(t.err);
      REQUIRE(t.exit_code == 0);
      const std::string want = read_text(source_path("data/" + e["take_golden_prefix"].get<std::string>() + ".jsonl"));
      INFO(first_difference(t.out, want));
      CHECK(t.out == want);

      auto c = run_cli({"count", ds, "--json"});
      REQUIRE(c.exit_code == 0);
      CHECK(json::parse(c.out)["rows"] == e["num_rows"]);

      auto h = run_cli({"head", ds, "-n", "3", "-f", "jsonl"});
      REQUIRE(h.exit_code == 0);
      const std::string scan = read_text(source_path("data/" + e["golden_prefix"].get<std::string>() + ".jsonl"));
      std::string first3;
      std::istringstream in(scan);
      for (std::string line; first3.size() < scan.size() && std::getline(in, line);) {
        first3 += line + "\n";
        if (std::count(first3.begin(), first3.end(), '\n') == 3) break;
      }
      CHECK(h.out == first3);

      auto s = run_cli({"schema", ds, "--json"});
      REQUIRE(s.exit_code == 0);
      const json fields = json::parse(s.out)["fields"];
      REQUIRE(fields.size() == e["columns"].size());
      for (size_t i = 0; i < fields.size(); ++i) {
        CHECK(fields[i]["name"] == e["columns"][i]["name"]);
        // the generator writes apache-arrow's dictionary name, which adds ", ordered=0"
        std::string want = e["columns"][i]["arrow_type"];
        if (auto at = want.find(", ordered=0"); at != std::string::npos) want.erase(at, 11);
        CHECK(fields[i]["arrow_type"] == want);
      }
    }
  }
}

TEST_CASE("other writers: a single data file reads like its dataset", "[writers][golden]") {
  for (const auto& e : writers_index()["datasets"]) {
    const std::string ds = source_path("data/" + e["dataset"].get<std::string>());
    if (e["data_files"] != 1 || std::filesystem::exists(ds + "/_deletions")) continue;
    DYNAMIC_SECTION(e["name"].get<std::string>()) {
      auto files = data_files(ds);
      REQUIRE(files.size() == 1);
      auto r = run_cli({"scan", files[0]});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      CHECK(r.out == read_text(source_path("data/" + e["golden_prefix"].get<std::string>() + ".jsonl")));
      auto t = run_cli({"take", files[0], "--rows", "1,0,1"});
      REQUIRE(t.exit_code == 0);
    }
  }
}

TEST_CASE("inspect meta names the writer's Lance version", "[writers][inspect]") {
  for (const auto& e : writers_index()["datasets"]) {
    const std::string ds = source_path("data/" + e["dataset"].get<std::string>());
    DYNAMIC_SECTION(e["name"].get<std::string>()) {
      auto m = run_cli({"inspect", "meta", ds, "--json"});
      INFO(m.err);
      REQUIRE(m.exit_code == 0);
      CHECK(m.out.find("\"lance " + e["lance"].get<std::string>().substr(0, 4)) != std::string::npos);
      auto text = run_cli({"inspect", "meta", ds});
      REQUIRE(text.exit_code == 0);
      CHECK(text.out.find(e["lance"].get<std::string>().substr(0, 4)) != std::string::npos);
    }
  }
}

TEST_CASE("legacy v1 files: inspect meta, schema and the page table", "[writers][inspect][v1]") {
  for (const auto& e : writers_index()["datasets"]) {
    if (!is_v1(e)) continue;
    const std::string ds = source_path("data/" + e["dataset"].get<std::string>());
    DYNAMIC_SECTION(e["name"].get<std::string>()) {
      for (const auto& f : data_files(ds)) {
        auto m = run_cli({"inspect", "meta", f, "--json"});
        INFO(m.err);
        REQUIRE(m.exit_code == 0);
        const json meta = json::parse(m.out);
        CHECK(meta["format_version"].get<std::string>().rfind("legacy v1", 0) == 0);
        CHECK(meta["writer"].get<std::string>() == "lance " + e["lance"].get<std::string>());
        uint64_t rows = 0;
        for (const auto& b : meta["batch_rows"]) rows += b.get<uint64_t>();
        CHECK(rows == meta["num_rows"].get<uint64_t>());

        auto p = run_cli({"inspect", "pages", f, "--json"});
        INFO(p.err);
        REQUIRE(p.exit_code == 0);
        const json pages = json::parse(p.out);
        REQUIRE(!pages["fields"].empty());
        for (const auto& fp : pages["fields"]) {
          REQUIRE(fp["pages"].size() == meta["batch_rows"].size());
          for (const auto& pg : fp["pages"]) CHECK(pg["position"].get<uint64_t>() < meta["file_size"].get<uint64_t>());
        }
        auto one = run_cli({"inspect", "pages", f, "-c", "id", "--page", "0"});
        REQUIRE(one.exit_code == 0);
        CHECK(one.out.find("field 0 · id") != std::string::npos);

        auto s = run_cli({"inspect", "schema", f});
        INFO(s.err);
        REQUIRE(s.exit_code == 0);
      }
    }
  }
}

TEST_CASE("a file format version this build does not read is unsupported (exit 3), naming it", "[writers][errors]") {
  const std::string src = source_path("data/fixtures/ints-v2.1.lance");
  struct Case {
    uint16_t major, minor;
  };
  for (Case c : {Case{2, 4}, Case{2, 99}, Case{3, 0}, Case{1, 0}, Case{0, 4}, Case{0, 9}}) {
    DYNAMIC_SECTION(c.major << "." << c.minor) {
      const std::string f = with_footer_version(src, c.major, c.minor, fmt::format("v{}_{}.lance", c.major, c.minor));
      for (const auto& cmd : std::vector<std::vector<std::string>>{
               {"scan", f}, {"count", f}, {"schema", f}, {"inspect", "meta", f}, {"inspect", "pages", f}}) {
        auto r = run_cli(cmd);
        INFO(cmd[0] << ": " << r.err);
        CHECK(r.exit_code == 3);
        CHECK(r.err.find(fmt::format("{}.{}", c.major, c.minor)) != std::string::npos);
      }
    }
  }
}

TEST_CASE("corrupt files of other writers end with a typed error", "[writers][corrupt]") {
  // v1 files: truncations and byte flips anywhere (blind); 2.x files of these writers: the
  // structural variants of the corrupt-file suite.
  const lance::testing::TempDir tmp("writers");
  const auto& dir = tmp.path();
  size_t runs = 0;
  for (const auto& e : writers_index()["datasets"]) {
    const std::string name = e["name"];
    if (name.find("frags") != std::string::npos || name.find("v2.2") != std::string::npos) continue;  // enough
    for (const auto& f : data_files(source_path("data/" + e["dataset"].get<std::string>()))) {
      const std::string original = read_text(f);
      const uint64_t seed = lance::testing::stable_seed(name);
      auto variants = is_v1(e) ? lance::testing::make_blind_variants(original, seed, 40)
                               : lance::testing::make_variants(original, lance::testing::file_regions(f), seed, 6, 6);
      for (size_t i = 0; i < variants.size(); ++i) {
        const std::string p = (dir / fmt::format("v{}-{}.lance", i, name)).string();
        std::ofstream(p, std::ios::binary) << variants[i].bytes;
        for (const auto& cmd :
             std::vector<std::vector<std::string>>{{"scan", p, "-f", "jsonl"}, {"take", p, "--rows", "0,1"}}) {
          auto r = run_cli(cmd);
          INFO(name << ": " << variants[i].name << ": " << cmd[0] << ": " << r.err);
          CHECK((r.exit_code == 0 || r.exit_code == 2 || r.exit_code == 3 || r.exit_code == 4));
          if (r.exit_code != 0) CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
          ++runs;
        }
        std::filesystem::remove(p);
      }
    }
  }
  CHECK(runs > 100);
}
