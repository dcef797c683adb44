// Reading through a real S3-compatible store (Ceph RGW, scripts/s3-fixture.sh): the fixtures
// of data/ uploaded byte for byte must scan exactly like their local goldens; LanceDB's own
// table written into the store must read like Lance reads it (data/golden/s3_*).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <sstream>

#include "s3_env.h"
#include "vector_goldens.h"

using namespace lance::testing;
using nlohmann::json;

namespace {

std::string first_difference(const std::string& got, const std::string& want) {
  size_t line = 1, i = 0;
  for (; i < got.size() && i < want.size() && got[i] == want[i]; ++i)
    if (got[i] == '\n') ++line;
  if (got == want) return "";
  return "first difference on line " + std::to_string(line);
}

/// The JSON object --stats=json prints last on stderr.
json stats_json(const std::string& err) {
  auto end = err.rfind('}');
  auto start = err.rfind("\n{", end);
  start = start == std::string::npos ? err.find('{') : start + 1;
  return json::parse(err.substr(start, end - start + 1));
}

json events() { return json::parse(read_text(source_path("data/golden/s3_tables.json")))["tables"][0]; }

}  // namespace

TEST_CASE("s3: every file fixture scans like its local golden", "[s3]") {
  json index = json::parse(read_text(source_path("data/fixtures/index.json")));
  int n = 0;
  for (const auto& f : index["fixtures"]) {
    if (f.value("kind", "file") != "file") continue;
    const std::string file = f["file"];
    DYNAMIC_SECTION(file) {
      auto r = run_s3({"scan", s3_uri("data/" + file), "-f", "jsonl"});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      const std::string want = read_text(source_path("data/" + f["golden_prefix"].get<std::string>() + ".jsonl"));
      INFO(first_difference(r.out, want));
      CHECK(r.out == want);
    }
    ++n;
  }
  CHECK(n > 50);
}

TEST_CASE("s3: a take of rows in order with repeats gives each repeat, every file fixture", "[s3]") {
  // Repeated rows reach the decoders as overlapping row ranges (read::FileRowReader::row_ranges);
  // through the store their byte ranges overlap too.
  json index = json::parse(read_text(source_path("data/fixtures/index.json")));
  for (const auto& f : index["fixtures"]) {
    if (f.value("kind", "file") != "file") continue;
    const std::string file = f["file"];
    std::vector<std::string> want;
    {
      std::istringstream in(read_text(source_path("data/" + f["golden_prefix"].get<std::string>() + ".jsonl")));
      for (std::string line; std::getline(in, line);) want.push_back(line);
    }
    if (want.empty()) continue;
    const uint64_t n = want.size();
    std::vector<uint64_t> rows{0, 0, n / 3, n / 2, n / 2, std::min(n - 1, n / 2 + 1), n - 1, n - 1};
    std::sort(rows.begin(), rows.end());
    std::string arg;
    for (uint64_t r : rows) arg += (arg.empty() ? "" : ",") + std::to_string(r);
    DYNAMIC_SECTION(file) {
      auto r = run_s3({"take", s3_uri("data/" + file), "--rows", arg, "-f", "jsonl"});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      std::string expect;
      for (uint64_t row : rows) expect += want[row] + "\n";
      INFO(first_difference(r.out, expect));
      CHECK(r.out == expect);
    }
  }
}

TEST_CASE("s3: dataset fixtures scan and take like their goldens, every golden version", "[s3]") {
  json index = json::parse(read_text(source_path("data/datasets/index.json")));
  for (const auto& d : index["datasets"]) {
    const std::string uri = s3_uri("data/" + d["dir"].get<std::string>());
    for (const auto& v : d["versions"]) {
      if (!v.contains("golden_prefix")) continue;
      const std::string version = std::to_string(v["version"].get<uint64_t>());
      DYNAMIC_SECTION(d["name"].get<std::string>() << " version " << version) {
        auto r = run_s3({"scan", uri, "--version", version, "-f", "jsonl"});
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        CHECK(r.out == read_text(source_path("data/" + v["golden_prefix"].get<std::string>() + ".jsonl")));
        if (v.contains("take") && v["take"].is_object() && !v["take"]["offsets"].empty()) {
          std::string rows;
          for (const auto& o : v["take"]["offsets"])
            rows += (rows.empty() ? "" : ",") + std::to_string(o.get<uint64_t>());
          auto t = run_s3({"take", uri, "--version", version, "--rows", rows, "-f", "jsonl"});
          INFO(t.err);
          REQUIRE(t.exit_code == 0);
          CHECK(t.out == read_text(source_path("data/" + v["take"]["golden_prefix"].get<std::string>() + ".jsonl")));
        }
        auto c = run_s3({"count", uri, "--version", version});
        REQUIRE(c.exit_code == 0);
        CHECK(c.out == std::to_string(v["num_rows"].get<uint64_t>()) + "\n");
      }
    }
  }
}

TEST_CASE("s3: both manifest namings list their versions (ListObjectsV2 of _versions/)", "[s3]") {
  for (std::string ds : {"appends", "appends_v1names"}) {
    DYNAMIC_SECTION(ds) {
      auto r = run_s3({"inspect", "meta", s3_uri("data/datasets/" + ds), "--json"});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      json j = json::parse(r.out);
      CHECK(j["version"] == 7);
      CHECK(j["versions"] == json::array({1, 2, 3, 4, 5, 6, 7}));
      auto missing = run_s3({"count", s3_uri("data/datasets/" + ds), "--version", "99"});
      CHECK(missing.exit_code == 2);
      CHECK_THAT(missing.err, Catch::Contains("version 99 does not exist") && Catch::Contains("1-7"));
    }
  }
}

TEST_CASE("s3: a table LanceDB wrote into the store reads like Lance reads it", "[s3]") {
  const json t = events();
  const std::string uri = s3_uri("db/events.lance");
  SECTION("scan, latest and version 1") {
    auto r = run_s3({"scan", uri});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == read_text(source_path("data/" + t["golden"].get<std::string>())));
    auto v1 = run_s3({"scan", uri, "--version", "1"});
    REQUIRE(v1.exit_code == 0);
    CHECK(v1.out == read_text(source_path("data/" + t["version1_golden"].get<std::string>())));
  }
  SECTION("take") {
    std::string rows;
    for (const auto& o : t["take_offsets"]) rows += (rows.empty() ? "" : ",") + std::to_string(o.get<uint64_t>());
    auto r = run_s3({"take", uri, "--rows", rows});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == read_text(source_path("data/" + t["take_golden"].get<std::string>())));
  }
  SECTION("count, head, schema, inspect") {
    auto c = run_s3({"count", uri, "--json"});
    REQUIRE(c.exit_code == 0);
    CHECK(json::parse(c.out)["rows"] == t["rows"]);
    auto h = run_s3({"head", uri, "-n", "3", "-f", "jsonl"});
    REQUIRE(h.exit_code == 0);
    const std::string golden = read_text(source_path("data/" + t["golden"].get<std::string>()));
    size_t third = 0;
    for (int i = 0; i < 3; ++i) third = golden.find('\n', third) + 1;
    CHECK(h.out == golden.substr(0, third));
    auto s = run_s3({"schema", uri, "--json"});
    REQUIRE(s.exit_code == 0);
    CHECK(json::parse(s.out)["fields"].size() >= 5);
    auto m = run_s3({"inspect", "meta", uri, "--json"});
    REQUIRE(m.exit_code == 0);
    CHECK(json::parse(m.out)["version"] == t["latest_version"]);
  }
  SECTION("a data file of the table, read on its own (inspect pages, scan)") {
    auto m = run_s3({"inspect", "meta", uri, "--json"});
    REQUIRE(m.exit_code == 0);
    const std::string file = json::parse(m.out)["fragments"][0]["data_files"][0]["path"];
    auto p = run_s3({"inspect", "pages", uri + "/data/" + file, "--json"});
    INFO(p.err);
    REQUIRE(p.exit_code == 0);
    CHECK(!json::parse(p.out)["columns"].empty());
  }
}

TEST_CASE("s3: --storage-option gives endpoint and credentials instead of the environment", "[s3]") {
  const std::vector<std::string> no_aws = {"AWS_ACCESS_KEY_ID=",
                                           "AWS_SECRET_ACCESS_KEY=",
                                           "AWS_ENDPOINT_URL=",
                                           "AWS_ALLOW_HTTP=",
                                           "AWS_SHARED_CREDENTIALS_FILE=/nonexistent/c",
                                           "AWS_CONFIG_FILE=/nonexistent/c",
                                           "AWS_PROFILE="};
  auto r =
      run_s3({"count", s3_uri("data/sample/products.lance"), "--storage-option", "aws_endpoint=" + s3().endpoint,
              "--storage-option", "allow_http=true", "--storage-option", "aws_access_key_id=" + s3().key,
              "--storage-option", "aws_secret_access_key=" + s3().secret, "--storage-option", "aws_region=us-east-1"},
             no_aws);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "2000\n");
}

namespace {

/// `text` with every occurrence of `from` replaced by `to`.
std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

TEST_CASE("s3: inspect versions and inspect meta (indices, tags, transactions) read like the local copy",
          "[s3][know]") {
  for (std::string ds : {"know/history", "know/indexed"}) {
    DYNAMIC_SECTION(ds) {
      const std::string local = source_path("data/datasets/" + ds);
      const std::string remote = s3_uri("data/datasets/" + ds);
      for (std::string what : {"versions", "meta"}) {
        auto want = run_cli({"inspect", what, local, "--json"});
        REQUIRE(want.exit_code == 0);
        auto got = run_s3({"inspect", what, remote, "--json"});
        INFO(what << ": " << got.err);
        REQUIRE(got.exit_code == 0);
        CHECK(json::parse(got.out) == json::parse(replace_all(want.out, local, remote)));
      }
    }
  }
}

TEST_CASE("s3: plan pins a version and its shards, scanned with --fragments from the store, make one full scan",
          "[s3][fanout]") {
  const std::string local = source_path("data/datasets/appends");
  const std::string remote = s3_uri("data/datasets/appends");
  auto want = run_cli({"plan", local, "--shards", "3", "--json"});
  REQUIRE(want.exit_code == 0);
  auto got = run_s3({"plan", remote, "--shards", "3", "--json"});
  INFO(got.err);
  REQUIRE(got.exit_code == 0);
  const json plan = json::parse(got.out);
  CHECK(plan == json::parse(want.out));
  const std::string version = std::to_string(plan["version"].get<uint64_t>());
  std::string parts;
  for (const auto& shard : plan["shards"]) {
    std::string ids;
    for (const auto& id : shard["fragments"]) ids += (ids.empty() ? "" : ",") + std::to_string(id.get<uint64_t>());
    auto part = run_s3({"scan", remote, "--version", version, "--fragments", ids, "-f", "jsonl"});
    INFO(part.err);
    REQUIRE(part.exit_code == 0);
    parts += part.out;
  }
  auto full = run_cli({"scan", local, "--version", version, "-f", "jsonl"});
  REQUIRE(full.exit_code == 0);
  CHECK(parts == full.out);
}

TEST_CASE("s3: verify checks a dataset in the store like the local copy", "[s3][know]") {
  for (std::string ds : {"know/indexed", "appends"}) {
    DYNAMIC_SECTION(ds) {
      const std::string local = source_path("data/datasets/" + ds);
      const std::string remote = s3_uri("data/datasets/" + ds);
      auto want = run_cli({"verify", local, "--json"});
      auto got = run_s3({"verify", remote, "--json"});
      INFO(got.err);
      CHECK(got.exit_code == want.exit_code);
      CHECK(json::parse(got.out) == json::parse(replace_all(want.out, local, remote)));
    }
  }
}

TEST_CASE("s3: request plans: small files whole, announced page buffers, same rows either way", "[s3][plan]") {
  const json t = events();
  const std::string uri = s3_uri("db/events.lance");
  auto m = run_s3({"inspect", "meta", uri, "--json"});
  REQUIRE(m.exit_code == 0);
  const json meta = json::parse(m.out);
  size_t files = 0, deletions = 0;
  for (const auto& f : meta["fragments"]) {
    files += f["data_files"].size();
    deletions += f.contains("deletion_file") && !f["deletion_file"].is_null() ? 1 : 0;
  }
  REQUIRE(files >= 2);
  const std::string golden = read_text(source_path("data/" + t["golden"].get<std::string>()));
  SECTION(
      "a full scan: the listings, the manifest, then one GET per data file (read whole: it is small) and deletion "
      "file") {
    // The listing of data/ goes out with that of _versions/, and its files' opening GETs with
    // the manifest's (dataset::open_data_files_ahead): these files are smaller than the 1 MiB
    // tail, so that GET reads each whole and nothing more is asked.
    auto r = run_s3({"scan", uri, "--stats=json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == golden);
    CHECK(stats_json(r.err)["http_requests"].get<uint64_t>() == 3 + files + deletions);
  }
  SECTION(
      "a take: files whole when the rows need most of their bytes, else tail then pages; reads from memory copy only "
      "the rows") {
    std::string all_rows = "0-" + std::to_string(t["rows"].get<uint64_t>() - 1);
    // A round trip worth ~1 KiB (1 ms x 1 MiB/s): only a take of every row reads the files whole.
    const std::vector<std::string> model = {"--storage-option", "tail_read_size=4096", "--storage-option",
                                            "latency_ms=1",     "--storage-option",    "bandwidth_mib_s=1",
                                            "--stats=json"};
    std::vector<std::string> all = {"take", uri, "--rows", all_rows};
    all.insert(all.end(), model.begin(), model.end());
    auto a = run_s3(all);
    INFO(a.err);
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == golden);
    // The two listings, the manifest, each data file's speculative 4 KiB tail (opened ahead,
    // then overtaken by the read of the whole file), the whole files and the deletion files.
    CHECK(stats_json(a.err)["http_requests"].get<uint64_t>() == 3 + 2 * files + deletions);
    std::vector<std::string> one = {"take", uri, "--rows", "1"};
    auto d = run_s3({"take", uri, "--rows", "1", "--stats=json"});  // default model: a small file is cheaper whole
    REQUIRE(d.exit_code == 0);
    one.insert(one.end(), model.begin(), model.end());
    auto o = run_s3(one);
    INFO(o.err);
    REQUIRE(o.exit_code == 0);
    CHECK(o.out == d.out);
    const json ds = stats_json(d.err), os = stats_json(o.err);
    CHECK(os["http_requests"].get<uint64_t>() > ds["http_requests"].get<uint64_t>());  // tail, then the row's pages
    // The whole file is in memory: the take copies out the row's ranges only.
    CHECK(ds["bytes_read"].get<uint64_t>() < ds["http_bytes"].get<uint64_t>());
  }
  SECTION("a scan of one column of every row opens ahead only files a tail reads whole") {
    // These files are smaller than the 1 MiB tail: opened ahead, one GET reads each whole.
    auto r = run_s3({"scan", uri, "-c", "id", "--stats=json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(stats_json(r.err)["http_requests"].get<uint64_t>() == 3 + files + deletions);
    // With 4 KiB tails none is that small: nothing is opened ahead, no tail is overtaken.
    auto small = run_s3({"scan", uri, "-c", "id", "--storage-option", "tail_read_size=4096", "--stats=json"});
    INFO(small.err);
    REQUIRE(small.exit_code == 0);
    CHECK(small.out == r.out);
    const uint64_t requests = stats_json(small.err)["http_requests"].get<uint64_t>();
    auto all =
        run_s3({"scan", uri, "-c", "id", "--storage-option", "tail_read_size=4096", "--stats=json", "-n", "1000000"});
    REQUIRE(all.exit_code == 0);
    // A limit is not "every row": files are opened ahead (tails), so one request more per file at least.
    CHECK(stats_json(all.err)["http_requests"].get<uint64_t>() >= requests + files);
  }
  SECTION("a take of rows spread over the table: the data files are fetched whole with the manifest") {
    // Every 5th row: sparse, so lance-cli asks for the listed files whole while it reads the
    // manifest (dataset::read_ahead_hint_for_take), not for 4 KiB tails that the read would
    // then overtake: the two listings, the manifest, one GET per file, the deletion files.
    std::string rows;
    for (uint64_t r = 0; r < t["rows"].get<uint64_t>(); r += 5) rows += (rows.empty() ? "" : ",") + std::to_string(r);
    auto plain = run_s3({"take", uri, "--rows", rows});
    REQUIRE(plain.exit_code == 0);
    auto r = run_s3({"take", uri, "--rows", rows, "--storage-option", "tail_read_size=4096", "--stats=json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == plain.out);
    CHECK(stats_json(r.err)["http_requests"].get<uint64_t>() == 3 + files + deletions);
  }
  SECTION("a tiny tail: metadata and page buffers fetched on demand (announced units) give the same rows") {
    // 4 KiB tails and 64 KiB requests: the files' pages are not in the opening GET, so the scan
    // goes through will_read windows and the take through plain ranged reads.
    const std::vector<std::string> small = {"--storage-option", "tail_read_size=4096", "--storage-option",
                                            "max_request_size=65536"};
    auto full = run_s3({"scan", uri, "-c", "id"});
    REQUIRE(full.exit_code == 0);
    std::vector<std::string> args = {"scan", uri, "-c", "id", "--stats=json"};
    args.insert(args.end(), small.begin(), small.end());
    auto r = run_s3(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == full.out);
    std::vector<std::string> all = {"scan", uri};
    all.insert(all.end(), small.begin(), small.end());
    auto a = run_s3(all);
    REQUIRE(a.exit_code == 0);
    CHECK(a.out == golden);
    std::string rows;
    for (const auto& o : t["take_offsets"]) rows += (rows.empty() ? "" : ",") + std::to_string(o.get<uint64_t>());
    std::vector<std::string> take = {"take", uri, "--rows", rows};
    take.insert(take.end(), small.begin(), small.end());
    auto k = run_s3(take);
    REQUIRE(k.exit_code == 0);
    CHECK(k.out == read_text(source_path("data/" + t["take_golden"].get<std::string>())));
  }
}

TEST_CASE("s3: 2.0 and v1 reads send a metadata round and batched data per batch and not a request per page",
          "[s3][plan]") {
  // A round trip worth ~1 KiB and 4 KiB tails: nothing is fetched whole, every page read is
  // a request of the plan's own (before StagedReads a 2.0 scan sent one per page per
  // column: 316 for this file, and the v1 read 21).
  const std::vector<std::string> model = {"--storage-option", "tail_read_size=4096", "--storage-option", "latency_ms=1",
                                          "--storage-option", "bandwidth_mib_s=1",   "--stats=json"};
  auto run = [&](std::vector<std::string> args) {
    args.insert(args.end(), model.begin(), model.end());
    auto r = run_s3(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return std::make_pair(r.out, stats_json(r.err)["http_requests"].get<uint64_t>());
  };
  SECTION(
      "a 2.0 file of 313 pages in 8 fields: its opening and 2 rounds (a list of lists) and a data request per field") {
    const std::string rel = "data/fixtures/v20_pages-v2.0.lance";
    const uint64_t open = run({"scan", s3_uri(rel), "-n", "0"}).second;  // the tail and the metadata before it
    auto [out, requests] = run({"scan", s3_uri(rel)});
    CHECK(out == run_cli({"scan", source_path(rel)}).out);
    CHECK(requests <= open + 2 + 8);
    // In batches of 100 rows: at most that per batch (10 batches), pages shared by batches read once.
    auto [batched, batched_requests] = run({"scan", s3_uri(rel), "--batch-size", "100"});
    CHECK(batched == out);
    CHECK(batched_requests <= open + 10 * (2 + 8));
  }
  SECTION(
      "a v1 dataset of 7 fields: listings and manifest and the tail and 2 rounds (a list of strings) and a data "
      "request per field") {
    const std::string rel = "data/writers/l0_10_nested";
    auto [out, requests] = run({"scan", s3_uri(rel), "-n", "1000"});
    CHECK(out == run_cli({"scan", source_path(rel), "-n", "1000"}).out);
    CHECK(requests <= 3 + 1 + 2 + 7);
  }
}

TEST_CASE("s3: a LanceDB database prefix as PATH names its tables", "[s3][paths]") {
  // s3://BUCKET/db/ holds the table LanceDB wrote there (scripts/s3-tables.mjs).
  auto r = run_s3({"scan", s3_uri("db")});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("LanceDB database holding the table events") &&
                        Catch::Contains("read one as " + s3_uri("db/events.lance")));
}

TEST_CASE("s3: --filter reads Lance's rows and counts through the store", "[s3][filter]") {
  const json goldens = json::parse(read_text(source_path("data/filters/goldens.json")));
  std::map<int64_t, std::string> rows;
  const std::string all = read_text(source_path("data/filters/rows-2_1.jsonl"));
  for (size_t at = 0, nl; (nl = all.find('\n', at)) != std::string::npos; at = nl + 1)
    rows[json::parse(all.substr(at, nl - at)).at("id").get<int64_t>()] = all.substr(at, nl - at + 1);
  int n = 0;
  // The indexed copy answers through its BTREE, BITMAP and LABEL_LIST indices, read from the store.
  for (const char* table : {"data/filters/2_1", "data/filters/2_1_indexed"}) {
    for (const char* expr : {"cat = 'red' OR i32 IS NULL", "array_has_any(tags, ['a', 'b'])",
                             "d BETWEEN date '2021-01-01' AND date '2021-06-30'", "name LIKE 'a%'"}) {
      INFO(table << ": " << expr);
      const json* e = nullptr;
      for (const auto& x : goldens.at("expressions"))
        if (x.at("expr") == expr) e = &x;
      REQUIRE(e);
      std::string want;
      for (const auto& id : e->at("ids")) want += rows.at(id.get<int64_t>());
      auto r = run_s3({"scan", s3_uri(table), "--filter", expr, "-f", "jsonl", "--stats=json"});
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
      CHECK(r.out == want);
      const bool indexed =
          std::string(table).find("indexed") != std::string::npos && std::string(expr) != "name LIKE 'a%'";
      CHECK(json::parse(r.err.substr(r.err.find('{'))).at("filter").at("index_uses").empty() == !indexed);
      auto c = run_s3({"count", s3_uri(table), "--filter", expr});
      CHECK(c.out == std::to_string(e->at("count").get<uint64_t>()) + "\n");
      ++n;
    }
  }
  CHECK(n == 8);
}

TEST_CASE("s3: search reads the vector indices through the store and gives LanceDB's rows", "[s3][search]") {
  int n = 0;
  for (const auto& c : lance::testing::vector_goldens().at("cases")) {
    const std::string name = c.at("name");
    if (name != "indexed/v_pq/default/q3" && name != "indexed/v_hnsw_sq/pre_x/q2" &&
        name != "indexed/v_flat/refine5/q1" && name != "indexed/v_hnsw_pq/exact/q0")
      continue;
    INFO(name);
    auto args = lance::testing::search_args(c, true);
    args.at(1) = s3_uri("data/vectors/indexed");
    args.push_back("--stats=json");
    auto r = run_s3(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(lance::testing::compare_with_lance(c, lance::testing::parse_search_rows(r.out)) == "");
    const json stats = json::parse(r.err.substr(r.err.find('{')));
    CHECK((stats.at("search").at("method") == "exact") == c.value("bypass_index", false));
    ++n;
  }
  CHECK(n == 4);
}
