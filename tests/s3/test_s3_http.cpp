// Single files over plain http(s) (a web server, a presigned or public URL): Range GETs, no
// listing; and credentials from an AWS profile file.
#include <catch2/catch.hpp>

#include <fstream>

#include "cli_env.h"
#include "s3_env.h"

using namespace lance::testing;

TEST_CASE("s3: an http:// URL of a public object reads with plain Range GETs", "[s3][http]") {
  const std::string url = s3().endpoint + "/" + s3().bucket + "/public/products.lance";
  const std::string golden = read_text(source_path("data/golden/sample-products.jsonl"));
  auto r = run_s3({"scan", url, "--stats=json"}, {"AWS_ACCESS_KEY_ID=", "AWS_SECRET_ACCESS_KEY="});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == golden);
  auto c = run_s3({"count", url});
  CHECK(c.out == "2000\n");
  auto m = run_s3({"inspect", "meta", url});
  CHECK(m.exit_code == 0);
  auto v = run_s3({"count", url, "--version", "1"});
  CHECK(v.exit_code == 2);
}

TEST_CASE("s3: http(s) errors name the URL without its query string (a presigned URL's signature)", "[s3][http]") {
  const std::string url =
      s3().endpoint + "/" + s3().bucket + "/data/sample/products.lance?X-Amz-Signature=SIGSECRET123";
  auto r = run_s3({"scan", url});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("/data/sample/products.lance?…") && Catch::Contains("403"));
  CHECK_THAT(r.err, !Catch::Contains("SIGSECRET123"));
  auto missing = run_s3({"scan", s3().endpoint + "/" + s3().bucket + "/public/missing.lance"});
  CHECK(missing.exit_code == 1);
  // RGW answers an anonymous GET of a missing key with 403 (the bucket is not listable).
  CHECK_THAT(missing.err,
             Catch::Contains("/public/missing.lance") && (Catch::Contains("404") || Catch::Contains("403")));
}

TEST_CASE("s3: credentials, region and endpoint from an AWS profile (AWS_PROFILE, config + credentials files)",
          "[s3]") {
  TempDir dir("lance-s3-profile");
  {
    std::ofstream c(dir.file("credentials"));
    c << "[default]\naws_access_key_id = WRONG\naws_secret_access_key = WRONG\n\n[lc]\naws_access_key_id = " << s3().key
      << "\naws_secret_access_key = " << s3().secret << "\n";
    std::ofstream f(dir.file("config"));
    f << "[profile lc]\nregion = us-east-1\nendpoint_url = " << s3().endpoint << "\ns3 =\n  addressing_style = path\n";
  }
  std::vector<std::string> env = {"AWS_ACCESS_KEY_ID=",
                                  "AWS_SECRET_ACCESS_KEY=",
                                  "AWS_ENDPOINT_URL=",
                                  "AWS_ALLOW_HTTP=true",
                                  "AWS_SHARED_CREDENTIALS_FILE=" + dir.file("credentials"),
                                  "AWS_CONFIG_FILE=" + dir.file("config"),
                                  "AWS_PROFILE=lc"};
  auto r = run_s3({"count", s3_uri("data/sample/products.lance")}, env);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "2000\n");
  env.back() = "AWS_PROFILE=nope";
  auto bad = run_s3({"count", s3_uri("data/sample/products.lance")}, env);
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("AWS_PROFILE=nope"));
}

TEST_CASE("s3: half a credential pair is a usage error, never a silent unsigned request", "[s3]") {
  TempDir dir("lance-s3-halfcred");
  {
    std::ofstream c(dir.file("credentials"));
    c << "[lc]\naws_access_key_id = " << s3().key << "\n";
  }
  const std::vector<std::string> profile_env = {"AWS_ACCESS_KEY_ID=", "AWS_SECRET_ACCESS_KEY=", "AWS_PROFILE=lc",
                                                "AWS_SHARED_CREDENTIALS_FILE=" + dir.file("credentials"),
                                                "AWS_CONFIG_FILE=" + dir.file("none")};
  auto r = run_s3({"count", s3_uri("data/sample/products.lance")}, profile_env);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("aws_secret_access_key is not"));
  CHECK_THAT(r.err, !Catch::Contains(s3().key));
  std::vector<std::string> key_only = s3_env();
  for (auto& e : key_only)
    if (e.rfind("AWS_SECRET_ACCESS_KEY=", 0) == 0) e = "AWS_SECRET_ACCESS_KEY=";
  auto env_only = run_s3({"count", s3_uri("data/sample/products.lance")}, key_only);
  CHECK(env_only.exit_code == 2);
  CHECK_THAT(env_only.err, Catch::Contains("incomplete AWS credentials"));
  // Local paths never need credentials, complete or not.
  auto local = run_s3({"count", source_path("data/sample/products.lance")}, key_only);
  CHECK(local.exit_code == 0);
}

TEST_CASE("s3: a URL's query string stays out of every message and report (take, verify)", "[s3][http]") {
  const std::string url = s3().endpoint + "/" + s3().bucket + "/public/products.lance?download=QUERYSECRET42";
  const std::vector<std::string> anon = {"AWS_ACCESS_KEY_ID=", "AWS_SECRET_ACCESS_KEY="};
  auto take = run_s3({"take", url, "--rows", "5000"}, anon);
  CHECK(take.exit_code == 2);
  CHECK_THAT(take.err, Catch::Contains("out of range") && !Catch::Contains("QUERYSECRET42"));
  auto verify = run_s3({"verify", url, "--json"}, anon);
  INFO(verify.err);
  CHECK(verify.exit_code == 0);
  CHECK_THAT(verify.out, !Catch::Contains("QUERYSECRET42"));
}

TEST_CASE("s3: a bucket without a key is a usage error", "[s3]") {
  auto r = run_s3({"count", "s3://" + s3().bucket});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("names a bucket"));
}
