// Knowing a table: `inspect meta` indices and `inspect versions` against what LanceDB's own API
// says about the tables of scripts/gen-know.mjs (data/datasets/know/index.json), and `verify`
// on intact tables and on broken copies made here from them.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "cli_env.h"
#include "cli_runner.h"
#include "corrupt_variants.h"
#include "dataset/indices.h"
#include "missing_component.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;
using lance::testing::stable_seed;
using lance::testing::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const json& know_index() {
  static const json j = json::parse(read_text(source_path("data/datasets/know/index.json")));
  return j;
}

const json& know_table(const std::string& name) {
  for (const auto& t : know_index()["tables"])
    if (t["name"] == name) return t;
  throw std::runtime_error("no table " + name + " in data/datasets/know/index.json");
}

std::string table_dir(const json& t) { return source_path("data/" + t["dir"].get<std::string>()); }

json run_json(const std::vector<std::string>& args) {
  auto r = run_cli(args);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

/// A copy of a fixture dataset directory, to break.
std::string copy_table(const TempDir& tmp, const std::string& name) {
  const std::string dst = tmp.file(name);
  fs::copy(table_dir(know_table(name)), dst, fs::copy_options::recursive);
  return dst;
}

/// Data files of the latest version, as `inspect meta --json` lists them (fragment order).
std::vector<std::string> data_files(const std::string& dir) {
  json m = run_json({"inspect", "meta", dir, "--json"});
  std::vector<std::string> out;
  for (const auto& f : m["fragments"])
    for (const auto& d : f["data_files"])
      out.push_back((fs::path(dir) / "data" / d["path"].get<std::string>()).string());
  return out;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// Flips the first two bytes of the chunk-metadata buffer of `column` `page` of a 2.1+ data
/// file (from `inspect pages --json`): the chunk sizes it records then overrun the page.
void flip_chunk_metadata(const std::string& file, uint32_t column, uint64_t page) {
  json p = run_json({"inspect", "pages", file, "--json"});
  uint64_t offset = 0;
  bool found = false;
  for (const auto& c : p["columns"])
    if (c["column"] == column)
      for (const auto& b : c["pages"].at(page)["buffers"])
        if (b["role"] == "chunk metadata") offset = b["offset"], found = true;
  REQUIRE(found);
  std::fstream f(file, std::ios::binary | std::ios::in | std::ios::out);
  char two[2];
  f.seekg(static_cast<std::streamoff>(offset));
  f.read(two, 2);
  two[0] = static_cast<char>(two[0] ^ 0xff);
  two[1] = static_cast<char>(two[1] ^ 0x7f);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(two, 2);
}

}  // namespace

TEST_CASE("inspect meta lists indices as LanceDB's listIndices/indexStats describe them", "[know][inspect]") {
  for (const auto& t : know_index()["tables"]) {
    const std::string dir = table_dir(t);
    for (const auto& v : t["versions"]) {
      DYNAMIC_SECTION(t["name"].get<std::string>() << " version " << v["version"]) {
        json m =
            run_json({"inspect", "meta", dir, "--version", std::to_string(v["version"].get<uint64_t>()), "--json"});
        REQUIRE(m.contains("indices"));
        CHECK_FALSE(m.contains("indices_error"));
        const json& got = m["indices"];
        REQUIRE(got.size() == v["indices"].size());
        for (const auto& want : v["indices"]) {
          INFO("index " << want.dump());
          auto it = std::find_if(got.begin(), got.end(), [&](const json& g) { return g["name"] == want["name"]; });
          REQUIRE(it != got.end());
          const json& g = *it;
          CHECK(g["uuid"] == want["uuid"]);
          CHECK(g["type_url"] == want["type_url"]);
          CHECK(g["known_type"] == true);
          CHECK(g["type"] == want["stats_index_type"]);  // IVF_PQ, BTREE, ... as LanceDB names them
          CHECK(g["fields"] == want["columns"]);
          CHECK(g["indexed_rows"] == want["num_indexed_rows"]);
          CHECK(g["unindexed_rows"] == want["num_unindexed_rows"]);
          CHECK(g["index_version"] == want["index_version"]);
          if (!want["size_bytes"].is_null()) CHECK(g["size_bytes"] == want["size_bytes"]);
          CHECK(g["dataset_version"].get<uint64_t>() < v["version"].get<uint64_t>());
          REQUIRE_FALSE(g["files"].empty());
          for (const auto& f : g["files"]) {
            CHECK(f["recorded"] == true);
            CHECK(f["exists"] == true);
            CHECK(fs::file_size(fs::path(dir) / f["path"].get<std::string>()) == f["size_bytes"].get<uint64_t>());
          }
          CHECK(g["created_at"].is_string());
        }
      }
    }
  }
}

TEST_CASE("inspect meta indices: coverage after an append, a compaction and a restore", "[know][inspect]") {
  SECTION("indexed: the appended fragment is in no index") {
    const json& t = know_table("indexed");
    json m = run_json({"inspect", "meta", table_dir(t), "--json"});
    REQUIRE(m["fragments"].size() == 2);
    for (const auto& ix : m["indices"]) {
      CHECK(ix["fragment_ids"] == json::array({0}));
      CHECK(ix["unindexed_fragments"] == json::array({1}));
    }
  }
  SECTION("history: compaction rewrites the fragments and remaps the index to the new one") {
    const json& t = know_table("history");
    auto find_op = [&](const std::string& op) {
      for (const auto& v : t["versions"])
        if (v["operation"] == op) return v["version"].get<uint64_t>();
      FAIL("no " << op);
      return uint64_t{0};
    };
    json before =
        run_json({"inspect", "meta", table_dir(t), "--version", std::to_string(find_op("CreateIndex")), "--json"});
    json after = run_json({"inspect", "meta", table_dir(t), "--version", std::to_string(find_op("Rewrite")), "--json"});
    REQUIRE(before["indices"].size() == 1);
    REQUIRE(after["indices"].size() == 1);
    REQUIRE(after["fragments"].size() == 1);
    CHECK(before["indices"][0]["fragment_ids"].size() == before["fragments"].size());
    CHECK(after["indices"][0]["fragment_ids"] == json::array({after["fragments"][0]["id"]}));
    CHECK(after["indices"][0]["unindexed_rows"] == 0);
  }
  SECTION("text: a table of indices, then each with its uuid and files") {
    const json& t = know_table("indexed");
    auto r = run_cli({"inspect", "meta", table_dir(t)});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("\nindices\n") != std::string::npos);
    for (const auto& ix : t["versions"].back()["indices"]) {
      CHECK(r.out.find(ix["name"].get<std::string>()) != std::string::npos);
      CHECK(r.out.find(ix["uuid"].get<std::string>()) != std::string::npos);
      CHECK(r.out.find(ix["stats_index_type"].get<std::string>()) != std::string::npos);
    }
    CHECK(r.out.find("40 (fragments 1)") != std::string::npos);
  }
  SECTION("a dataset without indices says so") {
    auto r = run_cli({"inspect", "meta", source_path("data/datasets/appends")});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("\nindices\n  (none)\n") != std::string::npos);
    json m = run_json({"inspect", "meta", source_path("data/datasets/appends"), "--json"});
    CHECK(m["indices"] == json::array());
  }
}

TEST_CASE("an index of a type this reader does not know shows its type URL", "[know][inspect]") {
  // A copy of `history` whose manifests name the BTREE details message differently (same
  // length, so the protobuf stays valid; Lance manifests carry no checksum).
  TempDir tmp("unknown-index");
  const std::string dir = copy_table(tmp, "history");
  const std::string from = "lance.table.BTreeIndexDetails", to = "acme.example.TreeIndexDetails";
  REQUIRE(from.size() == to.size());
  int patched = 0;
  for (const auto& e : fs::directory_iterator(fs::path(dir) / "_versions")) {
    std::string bytes = read_text(e.path().string());
    for (size_t at; (at = bytes.find(from)) != std::string::npos; ++patched) bytes.replace(at, from.size(), to);
    write_bytes(e.path().string(), bytes);
  }
  REQUIRE(patched > 0);
  json m = run_json({"inspect", "meta", dir, "--json"});
  REQUIRE(m["indices"].size() == 1);
  CHECK(m["indices"][0]["type"] == "/" + to);
  CHECK(m["indices"][0]["known_type"] == false);
  CHECK(m["indices"][0]["name"] == "id_idx");
  auto t = run_cli({"inspect", "meta", dir});
  CHECK(t.exit_code == 0);
  CHECK(t.out.find("/" + to) != std::string::npos);
  CHECK(t.out.find("unknown type") != std::string::npos);
  CHECK(run_cli({"verify", dir}).exit_code == 0);
}

TEST_CASE("index types come from the details type URL - an unknown one is not an error", "[know][unit]") {
  using lance::dataset::index_type_name;
  CHECK(index_type_name("/lance.table.BTreeIndexDetails", {}) == "BTREE");
  CHECK(index_type_name("/LANCE.TABLE.bitmapindexdetails", {}) == "BITMAP");  // compared case-insensitively
  CHECK(index_type_name("/lance.table.NGramIndexDetails", {}) == "NGRAM");
  CHECK(index_type_name("/lance.table.ZoneMapIndexDetails", {}) == "ZONEMAP");
  CHECK(index_type_name("/lance.table.InvertedIndexDetails", {}) == "FTS");
  CHECK(index_type_name("/lance.index.pb.VectorIndexDetails", {}) == "IVF_FLAT");  // nothing set: flat, no HNSW
  CHECK(index_type_name("/acme.SomethingNewIndexDetails", {}).empty());
  CHECK(lance::dataset::format_uuid(lance::ByteView()) == "");
}

TEST_CASE("inspect versions: operation, rows, fragments and tags of every version, as LanceDB reports them",
          "[know][versions]") {
  for (const auto& t : know_index()["tables"]) {
    DYNAMIC_SECTION(t["name"].get<std::string>()) {
      json r = run_json({"inspect", "versions", table_dir(t), "--json"});
      const json& got = r["versions"];
      const json& want = t["versions"];
      REQUIRE(got.size() == want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        INFO("version " << want[i]["version"]);
        const json& g = got[i];
        CHECK(g["version"] == want[i]["version"]);
        CHECK(g["operation"] == want[i]["operation"]);
        CHECK(g["num_rows"] == want[i]["num_rows"]);
        CHECK(g["num_fragments"] == want[i]["num_fragments"]);
        CHECK(g["tags"] == want[i]["tags"]);
        CHECK(g["num_indices"] == want[i]["indices"].size());
        CHECK_FALSE(g.contains("error"));
        REQUIRE(g["timestamp_ns"].is_number());
        const int64_t ms = g["timestamp_ns"].get<int64_t>() / 1000000;
        CHECK(std::llabs(ms - want[i]["timestamp_ms"].get<int64_t>()) <= 1);
        // Each was written on top of the last, except compaction: it read the version before
        // its own ReserveFragments commit (as Lance 8.0 wrote it).
        const uint64_t back = want[i]["operation"] == "Rewrite" ? 2 : 1;
        CHECK(g["read_version"] == want[i]["version"].get<uint64_t>() - back);
      }
    }
  }
  SECTION("details: restore names its version, delete its predicate, compaction its fragments") {
    json r = run_json({"inspect", "versions", table_dir(know_table("history")), "--json"});
    std::map<std::string, std::string> detail;
    for (const auto& v : r["versions"]) detail[v["operation"]] = v["detail"];
    CHECK(detail["Restore"] == "to v" + std::to_string(know_table("history")["tags"]["before-compaction"].get<int>()));
    CHECK(detail["Delete"] == "id % 9 = 4");
    CHECK(detail["Rewrite"] == "4 → 1 fragments");
    CHECK(detail["Append"] == "+5 rows");
    CHECK(detail["CreateIndex"] == "id_idx");
  }
  SECTION("text: one line per version with its tags") {
    auto r = run_cli({"inspect", "versions", table_dir(know_table("history"))});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("12 versions") != std::string::npos);
    CHECK(r.out.find("before-compaction") != std::string::npos);
    CHECK(r.out.find("Restore") != std::string::npos);
  }
  SECTION("a data file has no versions; --version does not apply") {
    auto r = run_cli({"inspect", "versions", source_path("data/sample/products.lance")});
    CHECK(r.exit_code == 2);
    CHECK(run_cli({"inspect", "versions", table_dir(know_table("history")), "--version", "3"}).exit_code == 2);
  }
  SECTION("older datasets: every version has a transaction file too") {
    json r = run_json({"inspect", "versions", source_path("data/datasets/appends"), "--json"});
    REQUIRE(r["versions"].size() == 7);
    CHECK(r["versions"][0]["operation"] == "Overwrite");
    CHECK(r["versions"][1]["operation"] == "Append");
    CHECK(r["versions"][3]["operation"] == "Delete");
  }
}

TEST_CASE("verify: intact tables and files pass", "[know][verify]") {
  for (const std::string& dir :
       std::vector<std::string>{table_dir(know_table("indexed")), table_dir(know_table("history")),
                                source_path("data/datasets/appends"), source_path("data/datasets/bitmap"),
                                source_path("data/datasets/evolution"), source_path("data/datasets/v2_0")}) {
    DYNAMIC_SECTION(dir) {
      auto r = run_cli({"verify", dir});
      INFO(r.out << r.err);
      CHECK(r.exit_code == 0);
      CHECK(r.out.find("\nok: checked ") != std::string::npos);
      json j = run_json({"verify", dir, "--json"});
      CHECK(j["ok"] == true);
      CHECK(j["problems"] == json::array());
      CHECK(j["pages"].get<uint64_t>() > 0);
    }
  }
  SECTION("an older version, and the index files are counted") {
    json j = run_json({"verify", table_dir(know_table("history")), "--version", "4", "--json"});
    CHECK(j["version"] == 4);
    CHECK(j["deletion_files"].get<uint64_t>() > 0);
    json k = run_json({"verify", table_dir(know_table("indexed")), "--json"});
    CHECK(k["index_files"].get<uint64_t>() >= 10);
    CHECK(k["rows"] == 340);
  }
  SECTION("a single data file") {
    json j = run_json({"verify", source_path("data/fixtures/nested_structs-v2.1.lance"), "--json"});
    CHECK(j["kind"] == "file");
    CHECK(j["ok"] == true);
  }
}

TEST_CASE("verify: broken copies report every problem and exit 4 (corrupt) or 1 (missing)", "[know][verify]") {
  TempDir tmp("verify");
  SECTION("a deleted data file: exit 1, named") {
    const std::string dir = copy_table(tmp, "history");
    const auto files = data_files(dir);
    REQUIRE(files.size() >= 2);
    fs::remove(files.back());
    auto r = run_cli({"verify", dir});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find(fs::path(files.back()).filename().string() + ": missing") != std::string::npos);
    CHECK(r.out.find("FAILED: 1 problem (1 missing or unreadable)") != std::string::npos);
    CHECK(r.err.find("verify") != std::string::npos);
  }
  SECTION("a truncated data file: exit 4, size and file named") {
    const std::string dir = copy_table(tmp, "history");
    const auto files = data_files(dir);
    fs::resize_file(files[0], fs::file_size(files[0]) / 2);
    auto r = run_cli({"verify", dir, "--json"});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 4);
    json j = json::parse(r.out);
    REQUIRE(j["problems"].size() >= 1);
    CHECK(j["problems"][0]["kind"] == "corrupt");
    CHECK(j["problems"][0]["file"] == "data/" + fs::path(files[0]).filename().string());
    CHECK(j["problems"][0]["error"].get<std::string>().find("the manifest records") != std::string::npos);
  }
  SECTION("bit flips in two pages of a data file: each named by column and page, the others decode") {
    const std::string file = tmp.file("multipage.lance");
    fs::copy_file(source_path("data/fixtures/multipage-v2.1.lance"), file);
    flip_chunk_metadata(file, 0, 1);
    flip_chunk_metadata(file, 2, 2);
    auto r = run_cli({"verify", file, "--json"});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 4);
    json j = json::parse(r.out);
    REQUIRE(j["problems"].size() == 2);
    CHECK(j["problems"][0]["column"] == "id");
    CHECK(j["problems"][0]["column_index"] == 0);
    CHECK(j["problems"][0]["page"] == 1);
    CHECK(j["problems"][0]["rows"] == "rows 600-1199");
    CHECK(j["problems"][1]["column"] == "txt");
    CHECK(j["problems"][1]["page"] == 2);
    CHECK(j["rows"] == 2000);  // the rest was still decoded
    auto t = run_cli({"verify", file});
    CHECK(t.out.find("multipage.lance: column 'id' (column 0), page 1, rows 600-1199: ") != std::string::npos);
    CHECK(t.out.find("FAILED: 2 problems (2 corrupt)") != std::string::npos);
    CHECK(t.err.find("lance-cli: verify ") != std::string::npos);
  }
  SECTION("a bit flip in a dataset's data file: the file, column and page are named") {
    const std::string dir = copy_table(tmp, "indexed");
    const auto files = data_files(dir);
    flip_chunk_metadata(files[0], 0, 0);  // column 0: id
    auto r = run_cli({"verify", dir, "--json"});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 4);
    json j = json::parse(r.out);
    REQUIRE(j["problems"].size() == 1);
    CHECK(j["problems"][0]["file"] == "data/" + fs::path(files[0]).filename().string());
    CHECK(j["problems"][0]["column"] == "id");
    CHECK(j["problems"][0]["page"] == 0);
  }
  SECTION("a file that is not a Lance file at all") {
    const std::string file = tmp.file("junk.lance");
    write_bytes(file, std::string(100, 'x'));
    auto r = run_cli({"verify", file});
    CHECK(r.exit_code == 4);
    CHECK(r.out.find("junk.lance: ") != std::string::npos);
    auto missing = run_cli({"verify", tmp.file("nothing.lance")});
    CHECK(missing.exit_code == 1);
  }
  SECTION("a corrupt deletion file: exit 4") {
    const std::string dir = copy_table(tmp, "history");
    json m = run_json({"inspect", "meta", dir, "--json"});
    std::string del;
    for (const auto& f : m["fragments"])
      if (!f["deletion_file"].is_null()) del = f["deletion_file"]["path"];
    REQUIRE_FALSE(del.empty());
    write_bytes((fs::path(dir) / del).string(), "this is not an Arrow IPC file");
    auto r = run_cli({"verify", dir});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 4);
    CHECK(r.out.find(del + ": ") != std::string::npos);
  }
  SECTION("a deletion file with an offset past its fragment: exit 4") {
    // The .bin deletion file of `bitmap` (fragment 0, 6000 rows), moved onto fragment 1 (50 rows).
    const std::string dir = tmp.file("bitmap");
    fs::copy(source_path("data/datasets/bitmap"), dir, fs::copy_options::recursive);
    json m = run_json({"inspect", "meta", dir, "--json"});
    REQUIRE(m["fragments"].size() == 2);
    const std::string big = m["fragments"][0]["deletion_file"]["path"],
                      small = m["fragments"][1]["deletion_file"]["path"];
    // Replace fragment 1's .arrow with the contents of a valid .arrow whose offsets are too large.
    fs::copy_file(source_path("data/arrow/lance-deletions-1000-step7.arrow"), fs::path(dir) / small,
                  fs::copy_options::overwrite_existing);
    auto r = run_cli({"verify", dir});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 4);
    CHECK(r.out.find(small + ": ") != std::string::npos);
    CHECK(r.out.find(big + ": ") == std::string::npos);
  }
  SECTION("a missing index file: exit 1") {
    const std::string dir = copy_table(tmp, "indexed");
    json m = run_json({"inspect", "meta", dir, "--json"});
    const std::string f = m["indices"][0]["files"][0]["path"];
    fs::remove(fs::path(dir) / f);
    auto r = run_cli({"verify", dir});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find(f + ": missing") != std::string::npos);
  }
  SECTION("several problems at once: all reported, corrupt wins the exit code") {
    const std::string dir = copy_table(tmp, "history");
    const auto files = data_files(dir);
    REQUIRE(files.size() >= 3);
    fs::remove(files[1]);
    fs::resize_file(files[2], fs::file_size(files[2]) - 1);
    auto r = run_cli({"verify", dir, "--json"});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 4);
    json j = json::parse(r.out);
    std::set<std::string> kinds;
    for (const auto& p : j["problems"]) kinds.insert(p["kind"]);
    CHECK(kinds == std::set<std::string>{"corrupt", "missing_or_unreadable"});
  }
}

TEST_CASE("the README's inspect versions example is the current output", "[know][versions]") {
  // The example lives in docs/inspect.md (moved there from the README; the test keeps its name).
  const std::string readme = read_text(source_path("docs/inspect.md"));
  const std::string marker = "$ lance-cli inspect versions data/datasets/know/history\n";
  size_t start = readme.find(marker);
  REQUIRE(start != std::string::npos);
  start += marker.size();
  const std::string shown = readme.substr(start, readme.find("```", start) - start);
  auto r = run_cli({"inspect", "versions", source_path("data/datasets/know/history")});
  REQUIRE(r.exit_code == 0);
  std::string out = r.out;
  const std::string abs = source_path("data/datasets/know/history");
  if (out.rfind(abs, 0) == 0) out.replace(0, abs.size(), "data/datasets/know/history");
  CHECK(out == shown);
}

TEST_CASE("verify: progress on a terminal's stderr, never on stdout", "[know][verify][pty]") {
  if (!lance::testing::have_script()) {
    LANCE_MISSING_COMPONENT("util-linux script is not installed");
  }
  TempDir tmp("verify-progress");
  const std::string out = tmp.file("out.txt");
  auto r = lance::testing::run_in_pty("LANCE_CLI_PROGRESS_DELAY_MS=0 LANCE_CLI verify " +
                                      lance::testing::shell_quote(table_dir(know_table("indexed"))) + " > " +
                                      lance::testing::shell_quote(out));
  INFO(r.tty);
  REQUIRE(r.exit_code == 0);
  CHECK(r.tty.find("\rverify ") != std::string::npos);
  CHECK(read_text(out).find("verify ") == std::string::npos);
  CHECK(read_text(out).find("ok: checked") != std::string::npos);
  auto quiet = lance::testing::run_in_pty("LANCE_CLI_PROGRESS_DELAY_MS=0 LANCE_CLI -q verify " +
                                          lance::testing::shell_quote(table_dir(know_table("indexed"))) + " > " +
                                          lance::testing::shell_quote(out));
  CHECK(quiet.tty.empty());
}

TEST_CASE("verify on hostile variants of data files: a typed exit, and never 'ok' where scan fails",
          "[know][verify][corrupt]") {
  using lance::testing::file_regions;
  using lance::testing::make_variants;
  TempDir tmp("verify-variants");
  int runs = 0;
  for (const std::string& name :
       std::vector<std::string>{"multipage-v2.1.lance", "nested_structs-v2.2.lance", "v20_ints-v2.0.lance"}) {
    const std::string src = source_path("data/fixtures/" + name);
    const std::string original = read_text(src);
    const auto variants = make_variants(original, file_regions(src), stable_seed(name), 6, 6);
    for (size_t i = 0; i < variants.size(); i += lance::testing::sanitizer_build() ? 3 : 1) {
      const std::string p = tmp.file("v" + std::to_string(i) + "-" + name);
      write_bytes(p, variants[i].bytes);
      INFO(name << ": " << variants[i].name);
      lance::testing::RunLimits limits;
      limits.keep_stdout = true;
      auto v = lance::testing::run_cli_limited({"verify", p}, limits);
      REQUIRE_FALSE(v.timed_out);
      REQUIRE(v.term_signal == 0);
      CHECK((v.exit_code == 0 || v.exit_code == 1 || v.exit_code == 3 || v.exit_code == 4));
      limits.keep_stdout = false;
      auto s = lance::testing::run_cli_limited({"scan", p, "-f", "null"}, limits);
      if (s.exit_code != 0) CHECK(v.exit_code != 0);
      if (v.exit_code != 0) CHECK(v.out.find("FAILED: ") != std::string::npos);
      fs::remove(p);
      ++runs;
    }
  }
  CHECK(runs > 20);
}

TEST_CASE("hostile manifests and transaction files: inspect meta, inspect versions and verify end typed",
          "[know][corrupt]") {
  TempDir tmp("know-manifests");
  const std::string dir = copy_table(tmp, "history");
  // The manifest of the version with an index, and the transaction file of the latest version.
  std::vector<fs::path> targets;
  for (const auto& e : fs::directory_iterator(fs::path(dir) / "_versions"))
    if (e.path().extension() == ".manifest") targets.push_back(e.path());
  std::sort(targets.begin(), targets.end());  // newest first (u64::MAX - version)
  targets.resize(1);
  for (const auto& e : fs::directory_iterator(fs::path(dir) / "_transactions")) targets.push_back(e.path());
  targets.resize(3);
  int runs = 0;
  for (const auto& t : targets) {
    const std::string original = read_text(t.string());
    for (const auto& v : lance::testing::make_blind_variants(original, stable_seed(t.filename().string()),
                                                             lance::testing::sanitizer_build() ? 6 : 12)) {
      write_bytes(t.string(), v.bytes);
      INFO(t.filename().string() << ": " << v.name);
      for (const std::vector<std::string>& args :
           {std::vector<std::string>{"inspect", "meta", dir, "--json"},
            std::vector<std::string>{"inspect", "versions", dir, "--json"}, std::vector<std::string>{"verify", dir}}) {
        lance::testing::RunLimits limits;
        auto r = lance::testing::run_cli_limited(args, limits);
        REQUIRE_FALSE(r.timed_out);
        REQUIRE(r.term_signal == 0);
        CHECK((r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3 || r.exit_code == 4));
        ++runs;
      }
    }
    write_bytes(t.string(), original);
  }
  CHECK(runs > 30);
}
