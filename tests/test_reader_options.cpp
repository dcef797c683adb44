// app/reader_options_env.cpp: the LANCE_CLI_* variables → read::ReaderOptions (names and
// defaults as README's "I/O settings" table documents them).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>

#include "../app/reader_options_env.h"
#include "../app/storage_config.h"
#include "cli_env.h"
#include "common/error.h"

namespace {

std::map<std::string, std::string> g_vars;

const char* lookup(const char* name) {
  auto it = g_vars.find(name);
  return it == g_vars.end() ? nullptr : it->second.c_str();
}

lance::read::ReaderOptions parse(std::map<std::string, std::string> vars) {
  g_vars = std::move(vars);
  return lance::app::reader_options_from(lookup);
}

/// storage_options_from with the variables `vars` and the profile files `credentials` and `config`.
lance::io::StorageOptions storage_with(std::map<std::string, std::string> vars, const std::string& credentials,
                                       const std::string& config) {
  vars["AWS_SHARED_CREDENTIALS_FILE"] = credentials;
  vars["AWS_CONFIG_FILE"] = config;
  return lance::app::storage_options_from(
      [vars](const std::string& k) -> std::optional<std::string> {
        auto it = vars.find(k);
        return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
      },
      {});
}

}  // namespace

TEST_CASE("reader options: defaults without variables", "[options]") {
  const auto o = parse({});
  CHECK(o.io.io_threads == 8);
  CHECK(o.io.block_size == 4096);
  CHECK(o.io.max_iop_size == 16u << 20);
  CHECK(o.io.max_bytes_in_flight == 256u << 20);
  CHECK(o.page_batch_bytes == 8u << 20);
  CHECK(!o.decode_mode);
  CHECK(!o.cache_rep_index);
  REQUIRE(o.stats);  // one counter set for everything the process reads
}

TEST_CASE("reader options: every variable lands in its field", "[options]") {
  const auto o = parse({{"LANCE_CLI_IO_THREADS", "3"},
                        {"LANCE_CLI_BLOCK_SIZE", "0"},
                        {"LANCE_CLI_MAX_IOP_SIZE", "65536"},
                        {"LANCE_CLI_IO_BYTES_IN_FLIGHT", "1000"},
                        {"LANCE_CLI_PAGE_BATCH_BYTES", "0"},
                        {"LANCE_CLI_DECODE_TASKS", "inline"},
                        {"LANCE_CLI_CACHE_REP_INDEX", "1"}});
  CHECK(o.io.io_threads == 3);
  CHECK(o.io.block_size == 0);
  CHECK(o.io.max_iop_size == 65536);
  CHECK(o.io.max_bytes_in_flight == 1000);
  CHECK(o.page_batch_bytes == 0);
  CHECK(o.decode_mode == lance::read::DecodeMode::inline_run);
  CHECK(o.cache_rep_index);
  CHECK(parse({{"LANCE_CLI_DECODE_TASKS", "pool"}}).decode_mode == lance::read::DecodeMode::pool);
  CHECK(parse({{"LANCE_CLI_DECODE_TASKS", "split"}}).decode_mode == lance::read::DecodeMode::inline_split_large);
  CHECK(parse({{"LANCE_CLI_IO_THREADS", "0"}}).io.io_threads == 1);  // at least one
  CHECK(!parse({{"LANCE_CLI_CACHE_REP_INDEX", "0"}}).cache_rep_index);
}

TEST_CASE("reader options: a malformed value is a usage error naming the variable", "[options]") {
  for (const auto& [name, value] : std::map<std::string, std::string>{{"LANCE_CLI_IO_THREADS", "four"},
                                                                      {"LANCE_CLI_BLOCK_SIZE", "-1"},
                                                                      {"LANCE_CLI_PAGE_BATCH_BYTES", "8M"},
                                                                      {"LANCE_CLI_DECODE_TASKS", "threads"}}) {
    INFO(name << "=" << value);
    try {
      parse({{name, value}});
      FAIL("expected a usage error");
    } catch (const lance::Error& e) {
      CHECK(e.kind() == lance::ErrorKind::usage);
      CHECK(std::string(e.what()).find(name) != std::string::npos);
    }
  }
}

TEST_CASE("storage options: AWS_DEFAULT_PROFILE picks the profile when AWS_PROFILE is unset", "[options][aws]") {
  const lance::testing::TempDir tmp("profiles");
  const std::string dir = tmp.path().string();
  {
    std::ofstream f(dir + "/credentials");
    f << "[default]\naws_access_key_id = K0\naws_secret_access_key = S0\n"
         "[legacy]\naws_access_key_id = K1\naws_secret_access_key = S1\n"
         "[modern]\naws_access_key_id = K2\naws_secret_access_key = S2\n";
  }
  auto with = [&](std::map<std::string, std::string> vars) {
    return storage_with(std::move(vars), dir + "/credentials", dir + "/config-none");
  };
  CHECK(with({}).access_key_id == "K0");
  CHECK(with({{"AWS_DEFAULT_PROFILE", "legacy"}}).access_key_id == "K1");
  CHECK(with({{"AWS_DEFAULT_PROFILE", "legacy"}, {"AWS_PROFILE", "modern"}}).access_key_id == "K2");
  try {
    with({{"AWS_DEFAULT_PROFILE", "nosuch"}});
    FAIL("no error");
  } catch (const lance::Error& e) {
    CHECK(e.kind() == lance::ErrorKind::usage);
    CHECK(std::string(e.what()).find("AWS_DEFAULT_PROFILE=nosuch") != std::string::npos);
  }
}

TEST_CASE("storage options: AWS CLI v2 services sections and ignore_configured_endpoint_urls", "[options][aws]") {
  const lance::testing::TempDir tmp("services");
  const std::string dir = tmp.path().string();
  {
    std::ofstream f(dir + "/config");
    f << "[default]\nendpoint_url = http://profile:1\n"
         "[profile local]\nregion = eu-west-1\nendpoint_url = http://profile:2\nservices = dev\n"
         "s3 =\n  addressing_style = virtual\n  endpoint_url = http://not-a-services-block:9\n"
         "[services dev]\ndynamodb =\n  endpoint_url = http://dynamo:8000\ns3 =\n  endpoint_url = http://rgw:7480\n"
         "[profile broken]\nservices = nosuch\n"
         "[profile ignoring]\nendpoint_url = http://profile:3\nignore_configured_endpoint_urls = true\n";
  }
  auto with = [&](std::map<std::string, std::string> vars) {
    return storage_with(std::move(vars), dir + "/credentials-none", dir + "/config");
  };
  CHECK(with({}).endpoint == "http://profile:1");
  const auto local = with({{"AWS_PROFILE", "local"}});
  CHECK(local.endpoint == "http://rgw:7480");  // the services block's s3 endpoint, not dynamodb's
  CHECK(local.region == "eu-west-1");
  CHECK(local.virtual_hosted_style);  // the profile's s3 = / addressing_style = virtual
  // The environment still wins over the files, unless endpoints are ignored.
  CHECK(with({{"AWS_PROFILE", "local"}, {"AWS_ENDPOINT_URL_S3", "http://env:1"}}).endpoint == "http://env:1");
  CHECK(with({{"AWS_PROFILE", "local"}, {"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true"}}).endpoint.empty());
  CHECK(with({{"AWS_PROFILE", "ignoring"}}).endpoint.empty());
  CHECK(with({{"AWS_PROFILE", "ignoring"}, {"AWS_ENDPOINT_URL", "http://env:2"}}).endpoint.empty());
  CHECK(with({{"AWS_PROFILE", "ignoring"}, {"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "false"}}).endpoint ==
        "http://profile:3");
  try {
    with({{"AWS_PROFILE", "broken"}});
    FAIL("no error");
  } catch (const lance::Error& e) {
    CHECK(e.kind() == lance::ErrorKind::usage);
    CHECK(std::string(e.what()).find("[services nosuch]") != std::string::npos);
  }
}
