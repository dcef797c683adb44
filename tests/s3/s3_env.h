// The object store of the S3 tests (written by scripts/s3-fixture.sh) and how to run
// lance-cli against it.
#pragma once

#include <string>
#include <vector>

#include "cli_runner.h"

namespace lance::testing {

struct S3Env {
  std::string endpoint;  ///< RGW, e.g. http://127.0.0.1:7480
  std::string bucket, key, secret;
  std::string fault_endpoint;  ///< proxy: every 3rd request 503 / reset / truncated body
  std::string stall_endpoint;  ///< proxy: never answers
  std::string delay_endpoint;  ///< proxy: +25 ms each way
};

const S3Env& s3();

/// "s3://BUCKET/" + rel.
std::string s3_uri(const std::string& rel);

/// Environment for lance-cli: credentials and endpoint as AWS tools take them (no profile files).
std::vector<std::string> s3_env(const std::string& endpoint = "");

/// Runs lance-cli with `env` added (default: s3_env()), killed after `timeout_ms`.
CliResult run_s3(const std::vector<std::string>& args, std::vector<std::string> env = {}, int timeout_ms = 30000);

}  // namespace lance::testing
