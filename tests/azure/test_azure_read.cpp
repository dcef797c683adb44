// Reading through a real Azure Blob Storage emulator (Azurite, scripts/azure-fixture.sh): the
// tables LanceDB wrote there must read like Lance reads them back (the fixture's goldens), and
// files uploaded unchanged like their committed goldens.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "azure_env.h"
#include "io/remote/stores.h"

using namespace lance::testing;
using nlohmann::json;

namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

std::string rows_arg(const json& offsets) {
  std::string rows;
  for (const auto& o : offsets) rows += (rows.empty() ? "" : ",") + std::to_string(o.get<uint64_t>());
  return rows;
}

/// The JSON object --stats=json prints last on stderr.
json stats_json(const std::string& err) {
  auto end = err.rfind('}');
  auto start = err.rfind("\n{", end);
  start = start == std::string::npos ? err.find('{') : start + 1;
  return json::parse(err.substr(start, end - start + 1));
}

}  // namespace

TEST_CASE("azure: LanceDB's tables (formats 2.0 and 2.1 with deletions) scan and take and count like Lance reads them",
          "[azure]") {
  for (const auto& t : azure().tables["tables"]) {
    const std::string name = t["name"];
    const std::string uri = "az://lance/db/" + name + ".lance";
    DYNAMIC_SECTION(name << " (format " << t["storage_version"].get<std::string>() << ")") {
      auto scan = run_azure({"scan", uri, "-f", "jsonl"});
      INFO(scan.err);
      REQUIRE(scan.exit_code == 0);
      CHECK(scan.out == azure_golden(name + ".jsonl"));
      auto take = run_azure({"take", uri, "--rows", rows_arg(t["take_offsets"]), "-f", "jsonl"});
      INFO(take.err);
      REQUIRE(take.exit_code == 0);
      CHECK(take.out == azure_golden(name + "-take.jsonl"));
      auto count = run_azure({"count", uri});
      CHECK(count.out == std::to_string(t["rows"].get<uint64_t>()) + "\n");
      auto v1 = run_azure({"scan", uri, "--version", "1", "-f", "jsonl"});
      REQUIRE(v1.exit_code == 0);
      CHECK(v1.out == azure_golden(name + "-version1.jsonl"));
      auto versions = run_azure({"inspect", "versions", uri, "--json"});
      REQUIRE(versions.exit_code == 0);
      CHECK(json::parse(versions.out)["versions"].size() == t["latest_version"].get<size_t>());
    }
  }
}

TEST_CASE("azure: a data file uploaded unchanged scans like its committed golden", "[azure]") {
  auto r = run_azure({"scan", "az://lance/data/sample/products.lance", "-f", "jsonl"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == read_text(source_path("data/golden/sample-products.jsonl")));
}

TEST_CASE("azure: inspect versions and inspect meta (indices and tags and transactions) read like the local copy",
          "[azure]") {
  for (std::string ds : {"know/history", "know/indexed"}) {
    DYNAMIC_SECTION(ds) {
      const std::string local = source_path("data/datasets/" + ds);
      const std::string remote = "az://lance/data/datasets/" + ds;
      for (std::string what : {"versions", "meta"}) {
        auto want = run_cli({"inspect", what, local, "--json"});
        REQUIRE(want.exit_code == 0);
        auto got = run_azure({"inspect", what, remote, "--json"});
        INFO(what << ": " << got.err);
        REQUIRE(got.exit_code == 0);
        CHECK(json::parse(got.out) == json::parse(replace_all(want.out, local, remote)));
      }
    }
  }
}

TEST_CASE("azure: a LanceDB database prefix as PATH names its tables", "[azure]") {
  auto r = run_azure({"scan", "az://lance/db"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("LanceDB database holding the tables events20, events21") &&
                        Catch::Contains("read one as az://lance/db/events20.lance"));
}

TEST_CASE("azure: retried 503s and resets and truncated bodies give the exact output - --stats counts the requests",
          "[azure][faults]") {
  const auto& t = azure().tables["tables"][0];
  const std::string uri = "az://lance/db/" + t["name"].get<std::string>() + ".lance";
  auto r = run_azure({"scan", uri, "-f", "jsonl", "--stats=json"}, azure_env(azure().fault_endpoint), 120000);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == azure_golden(t["name"].get<std::string>() + ".jsonl"));
  const json st = stats_json(r.err);
  CHECK(st["http_retries"].get<uint64_t>() >= 1);
  CHECK(st["http_requests"].get<uint64_t>() > st["http_retries"].get<uint64_t>());
}

TEST_CASE("azure: a bounded listing (maxresults) tells a longer prefix from a short one", "[azure]") {
  lance::io::StorageOptions o;
  o.azure.account = azure().account;
  o.azure.access_key = azure().key;
  o.azure.endpoint = azure_account_url();
  o.allow_http = true;
  auto store = lance::io::store_for("az://lance/x", o, nullptr);
  const std::string dir = "az://lance/db/events21.lance/_versions";
  const auto all = store->list(dir);
  const size_t versions = azure().tables["tables"][0]["latest_version"].get<size_t>();
  CHECK(all.size() == versions);
  // One page of maxresults=2 has a NextMarker: more than one entry.
  CHECK_FALSE(store->list_if_at_most(dir, 1).has_value());
  auto bounded = store->list_if_at_most(dir, versions);
  REQUIRE(bounded.has_value());
  CHECK(bounded->size() == versions);
  CHECK(store->list("az://lance/db/no-such-prefix").empty());
  CHECK(store->size_of("az://lance/db/no-such-prefix/x.lance") == std::nullopt);
}
