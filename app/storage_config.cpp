#include "app/storage_config.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string_view>

#include "common/error.h"

namespace lance::app {

namespace {

std::vector<std::string>& given_options() {
  static std::vector<std::string> kvs;
  return kvs;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

/// The `key = value` lines of section `section` of an INI file in the AWS CLI's dialect: a key
/// with no value followed by indented lines (`s3 =` / `  endpoint_url = ...`) is a nested block,
/// whose keys come back as "s3.endpoint_url". nullopt when the file or the section is missing.
std::optional<std::map<std::string, std::string>> read_section(const std::string& path, const std::string& section) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::optional<std::map<std::string, std::string>> out;
  bool inside = false;
  std::string block;  // the nested block the indented lines belong to ("" outside one)
  std::string line;
  while (std::getline(in, line)) {
    const bool indented = !line.empty() && (line[0] == ' ' || line[0] == '\t');
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#' || t[0] == ';') continue;
    if (t.front() == '[' && t.back() == ']') {
      inside = trim(t.substr(1, t.size() - 2)) == section;
      if (inside && !out) out.emplace();
      block.clear();
      continue;
    }
    const auto eq = t.find('=');
    if (!inside || eq == std::string::npos) continue;
    const std::string key = trim(t.substr(0, eq)), value = trim(t.substr(eq + 1));
    if (!indented) block = value.empty() ? key : "";
    if (value.empty()) continue;
    if (!indented)
      (*out)[key] = value;
    else if (!block.empty())
      (*out)[block + "." + key] = value;
  }
  return out;
}

bool is_true(const std::optional<std::string>& v) {
  if (!v) return false;
  std::string s = *v;
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s == "true" || s == "1";
}

/// Azure settings from the variables object_store's MicrosoftAzureBuilder::from_env reads
/// (AZURE_* named like the option keys), the connection string first (the Azure SDKs' variable;
/// the specific variables override its parts), and Azurite's URL (AZURITE_BLOB_STORAGE_URL).
template <typename Get>
void set_azure_from(const Get& get, io::StorageOptions& o) {
  if (auto v = get("AZURE_STORAGE_CONNECTION_STRING")) o.azure.set_connection_string(*v);
  for (const char* name : {"AZURE_STORAGE_ACCOUNT_NAME", "AZURE_STORAGE_ACCOUNT_KEY", "AZURE_STORAGE_ACCESS_KEY",
                           "AZURE_STORAGE_MASTER_KEY", "AZURE_STORAGE_SAS_TOKEN", "AZURE_STORAGE_SAS_KEY",
                           "AZURE_STORAGE_TOKEN", "AZURE_STORAGE_ENDPOINT", "AZURE_ENDPOINT",
                           "AZURE_STORAGE_USE_EMULATOR", "AZURE_SKIP_SIGNATURE", "AZURE_ALLOW_HTTP"})
    if (auto v = get(name)) o.set(name, *v);
  if (auto v = get("AZURITE_BLOB_STORAGE_URL")) o.azure.emulator_url = *v;
}

}  // namespace

void add_storage_option(CLI::App* cmd) {
  cmd->add_option("--storage-option", given_options(),
                  "Object-store setting KEY=VALUE for s3://, az:// and http(s):// paths, repeatable (LanceDB keys: "
                  "aws_endpoint, aws_region, aws_access_key_id, aws_secret_access_key, aws_session_token, allow_http, "
                  "aws_virtual_hosted_style_request, aws_skip_signature, azure_storage_account_name, "
                  "azure_storage_account_key, azure_storage_sas_token, azure_storage_endpoint, "
                  "azure_storage_use_emulator; see the README)")
      ->type_name("KEY=VALUE");
}

io::StorageOptions storage_options_from(const EnvLookup& env, const std::vector<std::string>& key_values) {
  io::StorageOptions o;
  auto get = [&](const char* name) {
    auto v = env(name);
    return v && !v->empty() ? v : std::nullopt;
  };

  // 1. The profile.
  // AWS_PROFILE, else the older AWS_DEFAULT_PROFILE (AWS CLI v1, still honoured by v2 and botocore).
  const char* profile_variable = get("AWS_PROFILE") ? "AWS_PROFILE" : "AWS_DEFAULT_PROFILE";
  const auto explicit_profile = get(profile_variable);
  const std::string profile = explicit_profile.value_or("default");
  const auto home = get("HOME");
  const std::string cred_file = get("AWS_SHARED_CREDENTIALS_FILE").value_or(home ? *home + "/.aws/credentials" : "");
  const std::string config_file = get("AWS_CONFIG_FILE").value_or(home ? *home + "/.aws/config" : "");
  auto config = config_file.empty()
                    ? std::nullopt
                    : read_section(config_file, profile == "default" ? "default" : "profile " + profile);
  auto creds = cred_file.empty() ? std::nullopt : read_section(cred_file, profile);
  if (explicit_profile && !config && !creds)
    throw_usage("{}={}: no such profile in {} or {}", profile_variable, profile,
                cred_file.empty() ? "(no credentials file: HOME and AWS_SHARED_CREDENTIALS_FILE unset)" : cred_file,
                config_file.empty() ? "(no config file: HOME and AWS_CONFIG_FILE unset)" : config_file);
  for (const auto* section : {&config, &creds}) {
    if (!*section) continue;
    for (const auto& [k, v] : **section) {
      if (k == "aws_access_key_id")
        o.access_key_id = v;
      else if (k == "aws_secret_access_key")
        o.secret_access_key = v;
      else if (k == "aws_session_token")
        o.session_token = v;
      else if (k == "region")
        o.region = v;
      else if (k == "endpoint_url")
        o.endpoint = v;
      else if (k == "s3.addressing_style" && (v == "virtual" || v == "path"))
        o.set("virtual_hosted_style_request", v == "virtual" ? "true" : "false");
    }
  }
  // The AWS CLI v2 service-specific endpoint: `services = NAME` in the profile names a
  // `[services NAME]` section whose `s3 =` block may set endpoint_url (above the profile's own).
  const auto lookup = [&](const std::string& key) -> std::optional<std::string> {
    if (!config) return std::nullopt;
    auto it = config->find(key);
    return it == config->end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  if (auto services = lookup("services")) {
    auto block = read_section(config_file, "services " + *services);
    if (!block)
      throw_usage("profile {}: services = {}: no [services {}] section in {}", profile, *services, *services,
                  config_file);
    if (auto it = block->find("s3.endpoint_url"); it != block->end()) o.endpoint = it->second;
  }
  // AWS_IGNORE_CONFIGURED_ENDPOINT_URLS (or the profile's ignore_configured_endpoint_urls) drops
  // every configured endpoint: the files' and the environment's.
  const bool ignore_endpoints = get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")
                                    ? is_true(get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"))
                                    : is_true(lookup("ignore_configured_endpoint_urls"));
  if (ignore_endpoints) o.endpoint.clear();

  // 2. Environment variables.
  const auto key = get("AWS_ACCESS_KEY_ID");
  const auto secret = get("AWS_SECRET_ACCESS_KEY");
  if (key || secret) {  // half a pair in the environment is an error (S3Store), not a fallback to the profile
    o.access_key_id = key.value_or("");
    o.secret_access_key = secret.value_or("");
    o.session_token = get("AWS_SESSION_TOKEN").value_or("");
  }
  if (auto r = get("AWS_DEFAULT_REGION")) o.region = *r;
  if (auto r = get("AWS_REGION")) o.region = *r;
  if (!ignore_endpoints) {
    if (auto e = get("AWS_ENDPOINT_URL")) o.endpoint = *e;
    if (auto e = get("AWS_ENDPOINT_URL_S3")) o.endpoint = *e;
  }
  if (auto v = get("AWS_ALLOW_HTTP")) o.set("allow_http", *v);
  if (auto v = get("AWS_SKIP_SIGNATURE")) o.set("skip_signature", *v);
  if (auto v = get("AWS_VIRTUAL_HOSTED_STYLE_REQUEST")) o.set("virtual_hosted_style_request", *v);
  set_azure_from(get, o);

  // 3. --storage-option.
  for (const auto& kv : key_values) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw_usage("--storage-option takes KEY=VALUE (got an argument without a key and '=')");
    o.set(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return o;
}

io::StorageOptions storage_options_from_environment() {
  auto env = [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  return storage_options_from(env, given_options());
}

namespace {
bool names_secret(std::string key) {
  for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* word : {"secret", "token", "key", "password", "sas", "connection_string"})
    if (key.find(word) != std::string::npos) return true;
  return false;
}
}  // namespace

std::string redact_storage_option_secrets(std::string text, int argc, const char* const* argv) {
  static constexpr std::string_view kFlag = "--storage-option";
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string_view kv;
    if (arg == kFlag && i + 1 < argc)
      kv = argv[i + 1];
    else if (arg.size() > kFlag.size() && arg.substr(0, kFlag.size()) == kFlag && arg[kFlag.size()] == '=')
      kv = arg.substr(kFlag.size() + 1);
    const auto eq = kv.find('=');
    if (eq == std::string_view::npos || eq + 1 == kv.size() || !names_secret(std::string(kv.substr(0, eq)))) continue;
    const std::string value(kv.substr(eq + 1));
    for (auto at = text.find(value); at != std::string::npos; at = text.find(value, at + 3))
      text.replace(at, value.size(), "***");
  }
  return text;
}

}  // namespace lance::app
