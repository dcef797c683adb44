#include "s3_env.h"

#include <fstream>
#include <map>
#include <stdexcept>

namespace lance::testing {

const S3Env& s3() {
  static const S3Env env = [] {
    std::ifstream in(LANCE_S3_ENV);
    if (!in) throw std::runtime_error(std::string("cannot read ") + LANCE_S3_ENV);
    std::map<std::string, std::string> kv;
    std::string line;
    while (std::getline(in, line))
      if (auto eq = line.find('='); eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
    S3Env e;
    e.endpoint = kv["S3_ENDPOINT"];
    e.bucket = kv["S3_BUCKET"];
    e.key = kv["S3_KEY"];
    e.secret = kv["S3_SECRET"];
    e.fault_endpoint = kv["S3_FAULT_ENDPOINT"];
    e.stall_endpoint = kv["S3_STALL_ENDPOINT"];
    e.delay_endpoint = kv["S3_DELAY_ENDPOINT"];
    return e;
  }();
  return env;
}

std::string s3_uri(const std::string& rel) { return "s3://" + s3().bucket + "/" + rel; }

std::vector<std::string> s3_env(const std::string& endpoint) {
  return {"AWS_ACCESS_KEY_ID=" + s3().key,
          "AWS_SECRET_ACCESS_KEY=" + s3().secret,
          "AWS_ENDPOINT_URL=" + (endpoint.empty() ? s3().endpoint : endpoint),
          "AWS_ALLOW_HTTP=true",
          "AWS_REGION=us-east-1",
          "AWS_SHARED_CREDENTIALS_FILE=/nonexistent/credentials",
          "AWS_CONFIG_FILE=/nonexistent/config"};
}

CliResult run_s3(const std::vector<std::string>& args, std::vector<std::string> env, int timeout_ms) {
  RunLimits limits;
  limits.timeout_ms = timeout_ms;
  limits.env = env.empty() ? s3_env() : std::move(env);
  return run_cli_limited(args, limits);
}

}  // namespace lance::testing
