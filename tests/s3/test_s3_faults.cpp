// Faults on the way to the store: retried (503 SlowDown, connection resets, truncated bodies
// through scripts/delayproxy.mjs --faults), reported (403, 404, wrong endpoint: exit 1 naming the
// URI, secrets never shown), bounded (request timeouts, SIGINT cancels requests in flight).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "cli_env.h"
#include "s3_env.h"

using namespace lance::testing;
using nlohmann::json;

extern char** environ;

namespace {

std::string events_golden() { return read_text(source_path("data/golden/s3_events.jsonl")); }

/// The last line of stderr that parses as a JSON object (--stats=json).
json stats_json(const std::string& err) {
  auto end = err.rfind('}');
  auto start = err.rfind("\n{", end);
  start = start == std::string::npos ? err.find('{') : start + 1;
  return json::parse(err.substr(start, end - start + 1));
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("s3: 503 SlowDown, resets and truncated bodies are retried - the output is exact", "[s3][faults]") {
  auto r = run_s3({"scan", s3_uri("db/events.lance"), "--stats=json"}, s3_env(s3().fault_endpoint));
  INFO(r.err.substr(0, 2000));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == events_golden());
  const json st = stats_json(r.err);
  // The proxy's fault counter is shared by tests running in parallel: at least one retry.
  CHECK(st["http_retries"].get<uint64_t>() >= 1);
  CHECK(st["http_requests"].get<uint64_t>() > st["http_retries"].get<uint64_t>());
  SECTION("take too") {
    auto t = run_s3({"take", s3_uri("db/events.lance"), "--rows", "0,1600,2899"}, s3_env(s3().fault_endpoint));
    INFO(t.err);
    CHECK(t.exit_code == 0);
  }
}

TEST_CASE("s3: retries give up after client_max_retries with exit 1 naming the URI", "[s3][faults]") {
  // Every request stalls: with a 300 ms request timeout and one retry the command fails fast.
  const auto t0 = std::chrono::steady_clock::now();
  auto r = run_s3({"count", s3_uri("data/sample/products.lance"), "--storage-option", "timeout=300ms",
                   "--storage-option", "client_max_retries=1"},
                  s3_env(s3().stall_endpoint), 20000);
  CHECK(r.exit_code == 1);
  CHECK(seconds_since(t0) < 5);
  CHECK_THAT(r.err, Catch::Contains("s3://" + s3().bucket + "/data/sample/products.lance") &&
                        Catch::Contains("gave up after 2 attempts"));
}

TEST_CASE("s3: an overall timeout bounds all network I/O", "[s3][faults]") {
  const auto t0 = std::chrono::steady_clock::now();
  auto r = run_s3({"count", s3_uri("data/sample/products.lance"), "--storage-option", "overall_timeout=1s"},
                  s3_env(s3().stall_endpoint), 20000);
  CHECK(r.exit_code == 1);
  CHECK(seconds_since(t0) < 6);
  CHECK_THAT(r.err, Catch::Contains("overall network timeout"));
}

TEST_CASE("s3: 404, 403 and an unreachable endpoint exit 1 naming the URI - secrets never show", "[s3][faults]") {
  SECTION("missing object") {
    auto r = run_s3({"scan", s3_uri("data/fixtures/no-such-file.lance")});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains(s3_uri("data/fixtures/no-such-file.lance")) && Catch::Contains("404"));
  }
  SECTION("missing bucket") {
    auto r = run_s3({"count", "s3://no-such-bucket-lc/t.lance"});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("s3://no-such-bucket-lc/t.lance") && Catch::Contains("NoSuchBucket"));
  }
  SECTION("wrong secret: 403, and the secret is not printed") {
    auto env = s3_env();
    env[1] = "AWS_SECRET_ACCESS_KEY=wrong-secret-XYZZY";
    env.push_back("AWS_SESSION_TOKEN=token-SECRET-PLUGH");
    auto r = run_s3({"scan", s3_uri("data/sample/products.lance"), "--stats", "-vv"}, env);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains(s3_uri("data/sample/products.lance")) && Catch::Contains("403"));
    CHECK_THAT(r.err, !Catch::Contains("XYZZY") && !Catch::Contains("PLUGH"));
  }
  SECTION("unsigned request to a private bucket: 403 with a hint") {
    auto r = run_s3({"count", s3_uri("data/sample/products.lance"), "--storage-option", "aws_skip_signature=true"});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains("access denied") && Catch::Contains("unsigned"));
  }
  SECTION("a public object read unsigned: the denied listing does not stop it being read as a data file") {
    // public/products.lance is public-read; the bucket denies anonymous listings (the dataset check's).
    auto r = run_s3({"count", s3_uri("public/products.lance"), "--storage-option", "aws_skip_signature=true"});
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out == "2000\n");
    auto s = run_s3({"scan", s3_uri("public/products.lance"), "--storage-option", "aws_skip_signature=true", "-n", "3",
                     "-c", "id"});
    CHECK(s.exit_code == 0);
    CHECK(s.out == run_cli({"scan", source_path("data/sample/products.lance"), "-n", "3", "-c", "id"}).out);
  }
  SECTION("nothing listens at the endpoint") {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = run_s3({"count", s3_uri("data/sample/products.lance")}, s3_env("http://127.0.0.1:9"));
    CHECK(r.exit_code == 1);
    CHECK(seconds_since(t0) < 10);
    CHECK_THAT(r.err, Catch::Contains(s3_uri("data/sample/products.lance")) && Catch::Contains("connect"));
    // The dataset check's listing of _versions/ is not what the user asked for.
    CHECK_THAT(r.err, !Catch::Contains("_versions"));
    auto file = run_s3({"scan", s3_uri("data/fixtures/no-such-file.lance")}, s3_env("http://127.0.0.1:9"));
    CHECK(file.exit_code == 1);
    CHECK_THAT(file.err, Catch::Contains(s3_uri("data/fixtures/no-such-file.lance:")) && !Catch::Contains("_versions"));
  }
  SECTION("an http endpoint without allow_http is a usage error") {
    auto env = s3_env();
    env[3] = "AWS_ALLOW_HTTP=false";
    auto r = run_s3({"count", s3_uri("data/sample/products.lance")}, env);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("allow_http"));
  }
  SECTION("an unknown storage option is a usage error that does not echo the value") {
    auto r = run_s3({"count", s3_uri("t"), "--storage-option", "aws_secret_key=hunter2"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("aws_secret_key") && !Catch::Contains("hunter2"));
  }
}

TEST_CASE("s3: SIGINT cancels the requests in flight (exit 130 at once)", "[s3][faults][signals]") {
  // Every request to the stall proxy hangs for its full 60 s timeout unless cancelled.
  auto env_s = s3_env(s3().stall_endpoint);
  std::vector<std::string> all;
  for (char** e = environ; *e; ++e) all.emplace_back(*e);
  all.insert(all.end(), env_s.begin(), env_s.end());
  std::vector<char*> envp;
  for (auto& e : all) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_s = {cli_binary(), "count", s3_uri("data/sample/products.lance"), "--storage-option",
                                     "timeout=60s"};
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_RDWR);
    dup2(devnull, 0);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  const auto t0 = std::chrono::steady_clock::now();
  kill(pid, SIGINT);
  int status = 0;
  bool done = false;
  for (int i = 0; i < 5000 && !done; ++i) {
    done = waitpid(pid, &status, WNOHANG) == pid;
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!done) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  REQUIRE(done);
  CHECK(seconds_since(t0) < 2);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
}

TEST_CASE("s3: --stats counts HTTP requests, bytes, retries and network wait", "[s3]") {
  auto r = run_s3({"scan", s3_uri("data/sample/products.lance"), "-f", "null", "--stats=json"});
  REQUIRE(r.exit_code == 0);
  const json st = stats_json(r.err);
  CHECK(st["http_requests"].get<uint64_t>() >= 1);
  CHECK(st["http_requests"].get<uint64_t>() <= 3);  // a listing (dataset?) and one tail GET for a 45 KiB file
  CHECK(st["http_bytes"].get<uint64_t>() >= 45000);
  CHECK(st["http_retries"] == 0);
  CHECK(st["network_wait_ms"].get<double>() > 0);
  auto text = run_s3({"scan", s3_uri("data/sample/products.lance"), "-f", "null", "--stats"});
  CHECK_THAT(text.err,
             Catch::Contains("network:") && Catch::Contains("HTTP requests") && !Catch::Contains(s3().secret));
}
