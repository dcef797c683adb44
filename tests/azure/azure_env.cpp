#include "azure_env.h"

#include <fstream>
#include <map>
#include <stdexcept>

namespace lance::testing {

const AzureEnv& azure() {
  static const AzureEnv env = [] {
    std::ifstream in(LANCE_AZURE_ENV);
    if (!in) throw std::runtime_error(std::string("cannot read ") + LANCE_AZURE_ENV);
    std::map<std::string, std::string> kv;
    std::string line;
    while (std::getline(in, line))
      if (auto eq = line.find('='); eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
    AzureEnv e;
    e.endpoint = kv["AZ_ENDPOINT"];
    e.account = kv["AZ_ACCOUNT"];
    e.key = kv["AZ_KEY"];
    e.fault_endpoint = kv["AZ_FAULT_ENDPOINT"];
    const std::string env_path = LANCE_AZURE_ENV;
    e.dir = env_path.substr(0, env_path.rfind('/'));
    e.tables = nlohmann::json::parse(read_text(e.dir + "/tables.json"));
    return e;
  }();
  return env;
}

std::string azure_account_url(const std::string& endpoint) {
  return (endpoint.empty() ? azure().endpoint : endpoint) + "/" + azure().account;
}

std::vector<std::string> azure_clean_env() {
  std::vector<std::string> env;
  for (const char* name :
       {"AZURE_STORAGE_CONNECTION_STRING", "AZURE_STORAGE_ACCOUNT_NAME", "AZURE_STORAGE_ACCOUNT_KEY",
        "AZURE_STORAGE_ACCESS_KEY", "AZURE_STORAGE_MASTER_KEY", "AZURE_STORAGE_SAS_TOKEN", "AZURE_STORAGE_SAS_KEY",
        "AZURE_STORAGE_TOKEN", "AZURE_STORAGE_ENDPOINT", "AZURE_ENDPOINT", "AZURE_STORAGE_USE_EMULATOR",
        "AZURE_SKIP_SIGNATURE", "AZURE_ALLOW_HTTP", "AZURITE_BLOB_STORAGE_URL", "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY", "AWS_ENDPOINT_URL", "AWS_PROFILE"})
    env.push_back(std::string(name) + "=");
  env.push_back("AWS_SHARED_CREDENTIALS_FILE=/nonexistent/credentials");
  env.push_back("AWS_CONFIG_FILE=/nonexistent/config");
  return env;
}

std::vector<std::string> with_vars(std::vector<std::string> env, const std::vector<std::string>& vars) {
  for (const auto& kv : vars) {
    const std::string name = kv.substr(0, kv.find('=') + 1);
    std::erase_if(env, [&](const std::string& e) { return e.compare(0, name.size(), name) == 0; });
    env.push_back(kv);
  }
  return env;
}

std::vector<std::string> azure_env(const std::string& endpoint) {
  return with_vars(azure_clean_env(),
                   {"AZURE_STORAGE_ACCOUNT_NAME=" + azure().account, "AZURE_STORAGE_ACCOUNT_KEY=" + azure().key,
                    "AZURE_STORAGE_ENDPOINT=" + azure_account_url(endpoint), "AZURE_ALLOW_HTTP=true"});
}

CliResult run_azure(const std::vector<std::string>& args, std::vector<std::string> env, int timeout_ms) {
  RunLimits limits;
  limits.timeout_ms = timeout_ms;
  limits.env = env.empty() ? azure_env() : std::move(env);
  return run_cli_limited(args, limits);
}

std::string azure_golden(const std::string& name) { return read_text(azure().dir + "/golden/" + name); }

}  // namespace lance::testing
