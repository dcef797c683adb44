// Azure Blob Storage without a server: URI forms, options and variables, the Shared Key
// string-to-sign and signature (checked against node's crypto), base64/HMAC, SAS tokens and
// the redaction of keys and signatures. The requests themselves: tests/azure/ (Azurite).
#include <catch2/catch.hpp>

#include <array>
#include <map>

#include "../app/storage_config.h"
#include "common/error.h"
#include "io/remote/azure_auth.h"
#include "io/remote/crypto.h"
#include "io/remote/storage_options.h"
#include "io/remote/uri.h"

using namespace lance;
using namespace lance::io;

namespace {
std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}
}  // namespace

TEST_CASE("azure URIs: az and azure and abfs[s] with and without an account and https blob hosts", "[io][azure]") {
  auto az = parse_location("az://lance/db/t.lance");
  CHECK(az.scheme == Scheme::azure);
  CHECK(az.bucket == "lance");
  CHECK(az.key == "db/t.lance");
  CHECK(az.account.empty());
  CHECK(parse_location("azure://c/k").bucket == "c");
  CHECK(parse_location("abfs://c/k").scheme == Scheme::azure);
  auto abfss = parse_location("abfss://fs@acct.dfs.core.windows.net/dir/t.lance");
  CHECK(abfss.bucket == "fs");
  CHECK(abfss.account == "acct");
  CHECK(abfss.key == "dir/t.lance");
  CHECK(parse_location("az://c@acct.blob.core.windows.net/k").account == "acct");
  auto https = parse_location("https://acct.blob.core.windows.net/c/dir/t.lance");
  CHECK(https.scheme == Scheme::azure);
  CHECK(https.account == "acct");
  CHECK(https.bucket == "c");
  CHECK(https.key == "dir/t.lance");
  // A blob's SAS URL (a query string) stays a plain https URL, read as given.
  CHECK(parse_location("https://acct.blob.core.windows.net/c/t.lance?sv=1&sig=x").scheme == Scheme::http);
  CHECK(parse_location("https://example.com/c/t.lance").scheme == Scheme::http);
  CHECK(is_remote("az://c/k"));
  CHECK_THROWS_AS(parse_location("az:///k"), Error);
  CHECK_THROWS_AS(parse_location("abfss://fs@example.com/k"), Error);
  CHECK_THROWS_AS(parse_location("az://a.b/k"), Error);
  // The container before '@' is not user info: it stays in messages.
  CHECK(display_location("abfss://fs@acct.dfs.core.windows.net/k") == "abfss://fs@acct.dfs.core.windows.net/k");
}

TEST_CASE("azure: HMAC-SHA256 (RFC 4231 case 2) and base64 (RFC 4648 vectors)", "[io][azure]") {
  CHECK(hex(hmac_sha256("Jefe", "what do ya want for nothing?")) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  const std::map<std::string, std::string> vectors{{"", ""},
                                                   {"f", "Zg=="},
                                                   {"fo", "Zm8="},
                                                   {"foo", "Zm9v"},
                                                   {"foob", "Zm9vYg=="},
                                                   {"fooba", "Zm9vYmE="},
                                                   {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    CHECK(base64_encode(plain) == encoded);
    CHECK(base64_decode(encoded) == plain);
  }
  CHECK_FALSE(base64_decode("Zm9").has_value());
  CHECK_FALSE(base64_decode("Zm9v!A==").has_value());
  CHECK_FALSE(base64_decode("Z===").has_value());
}

TEST_CASE("azure: the Shared Key string-to-sign and signature of a ranged GET and a listing", "[io][azure]") {
  const std::vector<std::string> headers{"Range: bytes=0-99", "x-ms-version: 2021-08-06",
                                         "x-ms-date: Thu, 03 Dec 2026 19:06:31 GMT"};
  const std::string url = "http://127.0.0.1:10000/devstoreaccount1/lance/db/t.lance/data/a%20b.lance";
  const std::string sts = azure_string_to_sign("GET", url, "devstoreaccount1", headers);
  CHECK(sts == "GET\n" + std::string(10, '\n') +
                   "bytes=0-99\nx-ms-date:Thu, 03 Dec 2026 19:06:31 GMT\nx-ms-version:2021-08-06\n"
                   "/devstoreaccount1/devstoreaccount1/lance/db/t.lance/data/a%20b.lance");
  // Expected: node -e 'crypto.createHmac("sha256", Buffer.from(KEY, "base64")).update(STS).digest("base64")'.
  CHECK(azure_shared_key_header("devstoreaccount1", *base64_decode(kAzuriteKey), sts) ==
        "Authorization: SharedKey devstoreaccount1:U0m1EPein//25g8uB75PIkXyf/rMqVFLY1Y60DsToDs=");
  const std::string list = azure_string_to_sign(
      "GET", "https://acct.blob.core.windows.net/c?restype=container&comp=list&prefix=db%2Ft.lance%2F&Marker=x", "acct",
      {"x-ms-version: 2021-08-06"});
  CHECK_THAT(list, Catch::EndsWith("\n/acct/c\ncomp:list\nmarker:x\nprefix:db/t.lance/\nrestype:container"));
}

TEST_CASE("azure options: object_store's keys and aliases and SAS tokens and connection strings", "[io][azure]") {
  StorageOptions o;
  o.set("azure_storage_account_name", "acct");
  o.set("AZURE_STORAGE_ACCESS_KEY", "a2V5");
  o.set("azure_storage_endpoint", "http://h/acct");
  o.set("azure_allow_http", "true");
  o.set("azure_timeout", "5s");
  o.set("use_emulator", "true");
  CHECK(o.azure.account == "acct");
  CHECK(o.azure.access_key == "a2V5");
  CHECK(o.azure.endpoint == "http://h/acct");
  CHECK(o.allow_http);
  CHECK(o.request_timeout_ms == 5000);
  CHECK(o.azure.use_emulator);
  // A SAS as the portal prints it (with '?', encoded) or raw: the same query string.
  o.set("sas_token", "?sv=2020-12-06&sp=rl&sig=ab%2Bc%3D");
  CHECK(o.azure.sas_token == "sv=2020-12-06&sp=rl&sig=ab%2Bc%3D");
  o.set("azure_storage_sas_key", "sv=2020-12-06&sp=rl&sig=ab+c=");
  CHECK(o.azure.sas_token == "sv=2020-12-06&sp=rl&sig=ab%2Bc%3D");
  CHECK_THROWS_WITH(o.set("azure_storage_sas_token", "sv=1&nosig"), !Catch::Contains("nosig"));
  StorageOptions c;
  c.set("azure_storage_connection_string",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5;BlobEndpoint=https://acct.example/;");
  CHECK(c.azure.account == "acct");
  CHECK(c.azure.access_key == "a2V5");
  CHECK(c.azure.endpoint == "https://acct.example/");
  StorageOptions china;
  china.azure.set_connection_string("AccountName=a;AccountKey=a2V5;EndpointSuffix=core.chinacloudapi.cn");
  CHECK(china.azure.endpoint == "https://a.blob.core.chinacloudapi.cn");
  StorageOptions dev;
  dev.azure.set_connection_string("UseDevelopmentStorage=true");
  CHECK(dev.azure.use_emulator);
}

TEST_CASE("azure variables: AZURE_* as object_store reads them - the connection string overridden", "[io][azure]") {
  std::map<std::string, std::string> vars{
      {"AZURE_STORAGE_CONNECTION_STRING", "AccountName=fromconn;AccountKey=Y29ubg=="},
      {"AZURE_STORAGE_ACCOUNT_NAME", "acct"},
      {"AZURE_STORAGE_SAS_TOKEN", "sv=1&sig=s"},
      {"AZURE_STORAGE_USE_EMULATOR", "true"},
      {"AZURITE_BLOB_STORAGE_URL", "http://127.0.0.1:12345"},
      {"HOME", "/nonexistent"}};
  auto env = [&](const std::string& n) -> std::optional<std::string> {
    auto it = vars.find(n);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  const StorageOptions o = app::storage_options_from(env, {"azure_skip_signature=true"});
  CHECK(o.azure.account == "acct");
  CHECK(o.azure.access_key == "Y29ubg==");
  CHECK(o.azure.sas_token == "sv=1&sig=s");
  CHECK(o.azure.use_emulator);
  CHECK(o.azure.emulator_url == "http://127.0.0.1:12345");
  CHECK(o.azure.skip_signature);
}

TEST_CASE("azure: SAS signatures and connection-string keys never reach a message", "[io][azure]") {
  CHECK(redact_locations("az://c/t.lance: denied (token sv=1&sig=SECRET%2B&se=2)") ==
        "az://c/t.lance: denied (token sv=1&sig=***&se=2)");
  CHECK(redact_locations("bad: AccountName=a;AccountKey=S3CR3T==;EndpointSuffix=x") ==
        "bad: AccountName=a;AccountKey=***;EndpointSuffix=x");
  CHECK(redact_locations("SharedAccessSignature=sv=1&sig=abc") == "SharedAccessSignature=***");
  CHECK(redact_locations("https://a.blob.core.windows.net/c/t.lance?sv=1&sig=abc: 403") ==
        "https://a.blob.core.windows.net/c/t.lance?…: 403");
  CHECK(
      app::redact_storage_option_secrets(
          "x sv=1&sig=abc y", 3,
          std::array<const char*, 3>{"lance-cli", "--storage-option", "azure_storage_sas_token=sv=1&sig=abc"}.data()) ==
      "x *** y");
}
