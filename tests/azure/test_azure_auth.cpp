// The ways of reaching an Azure account (tests/azure/, Azurite): Shared Key from variables or
// options, a SAS token, a connection string, the emulator flag, anonymous reads of a public
// container, the abfss:// and https:// URI forms; and the errors: 404, a wrong key, missing
// credentials, bad URIs, never showing a key or a SAS signature.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "azure_env.h"

using namespace lance::testing;

namespace {

const std::string kTable = "az://lance/db/events21.lance";

std::string rows_of(const std::string& table) {
  for (const auto& t : azure().tables["tables"])
    if (t["name"] == table) return std::to_string(t["rows"].get<uint64_t>()) + "\n";
  return "?";
}

/// The `sig=` value of a SAS query string.
std::string signature_of(const std::string& sas) {
  const auto at = sas.find("sig=") + 4;
  return sas.substr(at, sas.find('&', at) - at);
}

}  // namespace

TEST_CASE("azure: shared key from --storage-option instead of the environment", "[azure][auth]") {
  auto r = run_azure({"count", kTable, "--storage-option", "azure_storage_account_name=" + azure().account,
                      "--storage-option", "azure_storage_account_key=" + azure().key, "--storage-option",
                      "azure_storage_endpoint=" + azure_account_url(), "--storage-option", "azure_allow_http=true"},
                     azure_clean_env());
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == rows_of("events21"));
}

TEST_CASE("azure: a service SAS token reads - without list permission it is refused and the signature never shown",
          "[azure][auth]") {
  const std::string sas = azure().tables["sas"];
  auto env = with_vars(azure_clean_env(), {"AZURE_STORAGE_ENDPOINT=" + azure_account_url(), "AZURE_ALLOW_HTTP=true"});
  auto r = run_azure({"scan", kTable, "-f", "jsonl"}, with_vars(env, {"AZURE_STORAGE_SAS_TOKEN=" + sas}));
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == azure_golden("events21.jsonl"));
  const std::string read_only = azure().tables["sas_read_only"];
  auto denied = run_azure({"count", kTable, "-vv", "--storage-option", "azure_storage_sas_token=?" + read_only}, env);
  CHECK(denied.exit_code == 1);
  CHECK_THAT(denied.err, Catch::Contains(kTable) && Catch::Contains("403") && Catch::Contains("SAS token"));
  CHECK_THAT(denied.err, !Catch::Contains(signature_of(read_only)) && !Catch::Contains(signature_of(sas)));
}

TEST_CASE("azure: a connection string with the abfss:// and https:// forms naming the account", "[azure][auth]") {
  const std::string conn = "DefaultEndpointsProtocol=http;AccountName=" + azure().account +
                           ";AccountKey=" + azure().key + ";BlobEndpoint=" + azure_account_url() + ";";
  auto env = with_vars(azure_clean_env(), {"AZURE_STORAGE_CONNECTION_STRING=" + conn, "AZURE_ALLOW_HTTP=true"});
  for (std::string uri :
       std::vector<std::string>{"abfss://lance@lanceacct.dfs.core.windows.net/db/events21.lance",
                                "https://lanceacct.blob.core.windows.net/lance/db/events21.lance", kTable}) {
    DYNAMIC_SECTION(uri) {
      auto r = run_azure({"count", uri}, env);
      INFO(r.err);
      CHECK(r.exit_code == 0);
      CHECK(r.out == rows_of("events21"));
    }
  }
}

TEST_CASE("azure: azure_storage_use_emulator reads devstoreaccount1 at AZURITE_BLOB_STORAGE_URL", "[azure][auth]") {
  auto env = with_vars(azure_clean_env(), {"AZURITE_BLOB_STORAGE_URL=" + azure().endpoint});
  auto r = run_azure(
      {"scan", "az://lance/db/emu.lance", "-f", "jsonl", "--storage-option", "azure_storage_use_emulator=true"}, env);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == azure_golden("emu.jsonl"));
  auto from_env = run_azure({"count", "az://lance/db/emu.lance"}, with_vars(env, {"AZURE_STORAGE_USE_EMULATOR=true"}));
  CHECK(from_env.out == std::to_string(azure().tables["emu_rows"].get<uint64_t>()) + "\n");
}

TEST_CASE("azure: a public container reads anonymously - a private one names the missing credentials",
          "[azure][auth]") {
  auto env = with_vars(azure_clean_env(), {"AZURE_STORAGE_ENDPOINT=" + azure_account_url(), "AZURE_ALLOW_HTTP=true"});
  auto r = run_azure({"scan", "az://public/data/sample/products.lance", "-f", "jsonl"}, env);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == read_text(source_path("data/golden/sample-products.jsonl")));
  auto denied = run_azure({"count", kTable}, env);
  CHECK(denied.exit_code == 1);
  CHECK_THAT(denied.err, Catch::Contains(kTable) && Catch::Contains("no credentials"));
}

TEST_CASE("azure: 404 - a wrong key and bad settings exit like S3's and never show the key", "[azure][auth]") {
  SECTION("a missing blob and a missing table: 1, naming the URI") {
    for (std::string uri : {"az://lance/data/no-such-file.lance", "az://lance/db/no-such-table.lance"}) {
      auto r = run_azure({"scan", uri});
      CHECK(r.exit_code == 1);
      CHECK_THAT(r.err, Catch::Contains(uri) && Catch::Contains("404"));
    }
  }
  SECTION("a wrong key: 403, and neither key is printed") {
    const std::string wrong = "V1JPTkctS0VZLVhZWlpZLVhZWlpZLVhZWlpZLVhZWlpZ";  // base64, not the account's
    auto r = run_azure({"scan", kTable, "-f", "null", "-vv", "--stats"},
                       with_vars(azure_env(), {"AZURE_STORAGE_ACCOUNT_KEY=" + wrong}));
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains(kTable) && Catch::Contains("403") && Catch::Contains("account name and key"));
    CHECK_THAT(r.err, !Catch::Contains(wrong) && !Catch::Contains(azure().key));
  }
  SECTION("a key that is not base64: 2, not echoed") {
    auto r = run_azure({"count", kTable, "--storage-option", "azure_storage_account_key=hunter2!!"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("not base64") && !Catch::Contains("hunter2"));
  }
  SECTION("no account: 2, naming the variable") {
    auto r = run_azure({"count", kTable}, azure_clean_env());
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("AZURE_STORAGE_ACCOUNT_NAME"));
  }
  SECTION("a plain http endpoint without allow_http: 2") {
    auto r = run_azure({"count", kTable}, with_vars(azure_env(), {"AZURE_ALLOW_HTTP="}));
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("allow_http"));
  }
  SECTION("bad URIs: 2") {
    for (std::string uri : {"az:///t.lance", "abfss://c@example.com/t.lance", "az://lance"}) {
      auto r = run_azure({"count", uri});
      CHECK(r.exit_code == 2);
      CHECK_THAT(r.err, Catch::Contains(uri));
    }
  }
  SECTION("nothing listens at the endpoint: 1 naming the URI") {
    auto r = run_azure({"count", kTable, "--storage-option", "client_max_retries=1"}, azure_env("http://127.0.0.1:9"));
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains(kTable) && Catch::Contains("connect"));
  }
}
