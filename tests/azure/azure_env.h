// The Azurite of the Azure tests (started by scripts/azure-fixture.sh, which writes its
// endpoint, the test account's key and the goldens LanceDB read back) and how to run
// lance-cli against it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace lance::testing {

struct AzureEnv {
  std::string endpoint;        ///< Azurite's blob service, e.g. http://127.0.0.1:10000
  std::string account, key;    ///< the shared-key account "lanceacct" and its base64 key
  std::string fault_endpoint;  ///< proxy: every 3rd request 503 / reset / truncated body
  std::string dir;             ///< the fixture's directory: golden/, tables.json
  nlohmann::json tables;       ///< tables.json (rows, versions, take offsets, SAS tokens)
};

const AzureEnv& azure();

/// The account's Blob service URL (Azurite's path style: ENDPOINT/ACCOUNT).
std::string azure_account_url(const std::string& endpoint = "");

/// Environment for lance-cli: the shared-key account as object_store takes it, every other
/// Azure and AWS variable cleared (a developer's own must not leak in).
std::vector<std::string> azure_env(const std::string& endpoint = "");

/// Only the variables that clear the inherited ones (no credentials, no endpoint).
std::vector<std::string> azure_clean_env();

/// `env` with each NAME=VALUE of `vars` replacing the entry of the same name (or added).
std::vector<std::string> with_vars(std::vector<std::string> env, const std::vector<std::string>& vars);

/// Runs lance-cli with `env` added (default: azure_env()), killed after `timeout_ms`.
CliResult run_azure(const std::vector<std::string>& args, std::vector<std::string> env = {}, int timeout_ms = 30000);

/// The text of the fixture's golden `name` (DIR/golden/NAME), as Lance read it back.
std::string azure_golden(const std::string& name);

}  // namespace lance::testing
