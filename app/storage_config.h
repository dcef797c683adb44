// Object-store settings from the environment and the command line, the way AWS tools and
// LanceDB take them, into io::StorageOptions (the only place that reads these variables).
//
// Lowest to highest precedence:
//   1. the profile (AWS_PROFILE, else AWS_DEFAULT_PROFILE, else "default") in ~/.aws/config and ~/.aws/credentials
//      (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE): aws_access_key_id, aws_secret_access_key,
//      aws_session_token, region, endpoint_url, `s3 =` / `addressing_style`; the AWS CLI v2
//      `services = NAME` setting, whose `[services NAME]` section's `s3 =` / `endpoint_url` wins
//      over the profile's endpoint_url;
//   2. AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION / AWS_DEFAULT_REGION,
//      AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL, AWS_ALLOW_HTTP, AWS_SKIP_SIGNATURE;
//      AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true (or the profile's ignore_configured_endpoint_urls)
//      drops the endpoints of 1. and 2.;
//   3. --storage-option KEY=VALUE (repeatable; LanceDB's keys, see io::StorageOptions::set).
// Azure (az://, abfss://) likewise: AZURE_STORAGE_CONNECTION_STRING, then AZURE_STORAGE_ACCOUNT_NAME,
// AZURE_STORAGE_ACCOUNT_KEY (or _ACCESS_KEY, _MASTER_KEY), AZURE_STORAGE_SAS_TOKEN (or _SAS_KEY),
// AZURE_STORAGE_TOKEN, AZURE_STORAGE_ENDPOINT / AZURE_ENDPOINT, AZURE_STORAGE_USE_EMULATOR,
// AZURE_SKIP_SIGNATURE, AZURE_ALLOW_HTTP and AZURITE_BLOB_STORAGE_URL, then --storage-option azure_….
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "io/remote/storage_options.h"

namespace lance::app {

/// Adds `--storage-option KEY=VALUE` (repeatable) to `cmd`; values go to one process-wide list.
void add_storage_option(CLI::App* cmd);

/// A lookup of environment variables (std::getenv in the CLI; a map in tests).
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

/// The options from `env`, the profile files it points at, and `key_values` ("KEY=VALUE").
/// Throws Error(usage) for a malformed or unknown option, or an AWS_PROFILE that exists in
/// neither file or a `services` name without its section. Messages never include secret values.
io::StorageOptions storage_options_from(const EnvLookup& env, const std::vector<std::string>& key_values);

/// After parsing: the options from the real environment, the profile files and the
/// --storage-option values given (what app::reader_options() puts in ReaderOptions::storage).
io::StorageOptions storage_options_from_environment();

/// `text` with the value of every secret `--storage-option KEY=VALUE` of `argv` (keys naming a
/// secret, token, key, password, SAS or connection string) replaced by "***": for messages that
/// quote the command line, such as CLI11's parse errors. Both `--storage-option K=V` and
/// `--storage-option=K=V` are recognised.
std::string redact_storage_option_secrets(std::string text, int argc, const char* const* argv);

}  // namespace lance::app
