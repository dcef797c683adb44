// lib/io's object-store layer without a network: location parsing, joining, display (no
// secrets), storage option keys, the network model's coalescing numbers, the local store.
#include <catch2/catch.hpp>

#include <fstream>

#include "cli_env.h"
#include "common/error.h"
#include "io/object_store.h"
#include "io/remote/s3_store.h"
#include "io/remote/stores.h"
#include "io/remote/uri.h"

using namespace lance;
using namespace lance::io;

TEST_CASE("file:// URIs name local paths, and another host or a bad escape is a usage error", "[io][store]") {
  CHECK(local_path_of_file_uri("file:///data/t.lance") == "/data/t.lance");
  CHECK(local_path_of_file_uri("FILE://localhost/data/t.lance") == "/data/t.lance");
  CHECK(local_path_of_file_uri("file:///a%20b/%c3%a9.lance") == "/a b/\xc3\xa9.lance");
  CHECK(local_path_of_file_uri("/data/t.lance") == "/data/t.lance");
  CHECK(local_path_of_file_uri("s3://b/file:///x") == "s3://b/file:///x");
  for (const char* bad : {"file://server/share/t.lance", "file:///a%2", "file:///a%zz", "file://"}) {
    INFO(bad);
    try {
      local_path_of_file_uri(bad);
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);
    }
  }
}

TEST_CASE("locations: s3://, http(s):// and local paths", "[io][store]") {
  auto s3 = parse_location("s3://bucket/db/t.lance");
  CHECK(s3.scheme == Scheme::s3);
  CHECK(s3.bucket == "bucket");
  CHECK(s3.key == "db/t.lance");
  CHECK(parse_location("s3://bucket").key.empty());
  CHECK(parse_location("https://h/x.lance?a=b").scheme == Scheme::http);
  CHECK(parse_location("/data/t.lance").scheme == Scheme::local);
  CHECK(parse_location("dir/with://inside").scheme == Scheme::local);
  CHECK_THROWS_AS(parse_location("s3:///key"), Error);
  try {
    parse_location("gs://b/k");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
  }
  CHECK(join_path("s3://b/t.lance/", "_versions") == "s3://b/t.lance/_versions");
  CHECK(join_path("/d/t.lance", "data") == "/d/t.lance/data");
  CHECK(display_location("https://u:pw@h/x.lance?X-Amz-Signature=abc") == "https://h/x.lance?…");
  CHECK(display_location("s3://b/k") == "s3://b/k");
  CHECK(aws_uri_encode("db/a b+c=", true) == "db/a%20b%2Bc%3D");
  CHECK(aws_uri_encode("db/", false) == "db%2F");
}

TEST_CASE("storage options: LanceDB keys, durations, and no secret in errors", "[io][store]") {
  StorageOptions o;
  o.set("aws_endpoint", "http://127.0.0.1:9000");
  o.set("AWS_REGION", "eu-west-1");
  o.set("allow_http", "true");
  o.set("aws_virtual_hosted_style_request", "false");
  o.set("aws_skip_signature", "1");
  o.set("timeout", "500ms");
  o.set("connect_timeout", "2");
  o.set("client_max_retries", "3");
  CHECK(o.endpoint == "http://127.0.0.1:9000");
  CHECK(o.region == "eu-west-1");
  CHECK(o.allow_http);
  CHECK(o.skip_signature);
  CHECK(o.request_timeout_ms == 500);
  CHECK(o.connect_timeout_ms == 2000);
  CHECK(o.max_retries == 3);
  try {
    o.set("allow_http", "maybe-SECRET");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
  }
  try {
    o.set("aws_secret_key", "hunter2");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("hunter2") == std::string::npos);
  }
}

TEST_CASE("network model: coalescing gap and request size follow latency and bandwidth", "[io][store]") {
  StorageOptions o;  // 25 ms, 100 MiB/s per connection, 400 MiB/s together, 64 in flight
  CHECK(o.parallelism == 64);
  // One of 64 request slots moves 400 / 64 MiB/s (less than a connection could).
  CHECK(o.effective_coalesce_gap() == 25 * 400 * 1048576ull / 1000 / 64);
  // A measured round trip replaces the configured one, unless latency_ms was set.
  CHECK(o.effective_coalesce_gap(50.0) == 50 * 400 * 1048576ull / 1000 / 64);
  // A connection slower than its share of the link bounds it.
  o.set("bandwidth_mib_s", "2");
  CHECK(o.effective_coalesce_gap(50.0) == 50 * 2 * 1048576ull / 1000);
  o.set("bandwidth_mib_s", "100");
  o.set("latency_ms", "25");
  CHECK(o.effective_coalesce_gap(50.0) == 25 * 400 * 1048576ull / 1000 / 64);
  // 4 x 2.6 MB, rounded down to a power of two.
  CHECK(o.effective_max_request_size() == 8 * 1024 * 1024);
  CHECK(o.effective_tail_read_size() == 1024 * 1024);
  o.latency_ms = 1;
  CHECK(o.effective_coalesce_gap() == 64 * 1024);
  CHECK(o.effective_max_request_size() == 4 * 1024 * 1024);
  o.set("coalesce_gap", "1000");
  o.set("max_request_size", "200000");
  CHECK(o.effective_coalesce_gap() == 1000);
  CHECK(o.effective_max_request_size() == 200000);
  // Below 64 KiB a scan would crawl, and more than 256 threads cannot be started: refused.
  CHECK_THROWS_WITH(o.set("max_request_size", "2000"), Catch::Contains("out of range"));
  CHECK_THROWS_WITH(o.set("io_parallelism", "100000"), Catch::Contains("out of range (1 to 256)"));
  auto store = make_s3_store(o, nullptr);
  IoOptions io = store->tune({});
  CHECK(io.block_size == 1000);
  CHECK(io.max_iop_size == 200000);
  CHECK(io.io_threads == o.parallelism);
}

TEST_CASE("the local store lists, sizes, opens and reads files", "[io][store]") {
  lance::testing::TempDir dir("lance-store");
  { std::ofstream(dir.file("a.bin")) << "hello"; }
  std::filesystem::create_directory(dir.path() / "sub");
  auto store = store_for(dir.path().string(), {}, nullptr);
  CHECK(!store->remote());
  auto entries = store->list(dir.path().string());
  REQUIRE(entries.size() == 2);
  CHECK(store->is_directory(dir.file("sub")));
  CHECK(store->size_of(dir.file("a.bin")) == 5u);
  CHECK(!store->size_of(dir.file("none")));
  auto data = store->read_all(dir.file("a.bin"));
  CHECK(std::string(data.begin(), data.end()) == "hello");
  CHECK(store->open(dir.file("a.bin"))->size() == 5);
  CHECK_THROWS_AS(store->read_all(dir.file("none")), Error);
}
