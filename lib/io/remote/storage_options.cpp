#include "io/remote/storage_options.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>

#include "common/error.h"
#include "io/remote/uri.h"
#include "io/scheduler.h"

namespace lance::io {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool parse_bool(const std::string& key, const std::string& v) {
  const std::string l = lower(v);
  if (l == "true" || l == "1" || l == "yes" || l == "on") return true;
  if (l == "false" || l == "0" || l == "no" || l == "off") return false;
  throw_usage("storage option {}: expected true or false, got '{}'", key, v);
}

double parse_number(const std::string& key, const std::string& v) {
  double x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size() || !(x >= 0) || !std::isfinite(x))
    throw_usage("storage option {}: expected a non-negative number, got '{}'", key, v);
  return x;
}

/// "30", "30s", "500ms", "2m" → milliseconds (a bare number is seconds, as object_store's durations).
uint64_t parse_duration_ms(const std::string& key, const std::string& v) {
  std::string num = v;
  double scale = 1000;
  auto ends = [&](std::string_view suf) {
    return num.size() > suf.size() && num.compare(num.size() - suf.size(), suf.size(), suf) == 0;
  };
  if (ends("ms")) {
    num.resize(num.size() - 2);
    scale = 1;
  } else if (ends("s")) {
    num.resize(num.size() - 1);
  } else if (ends("m")) {
    num.resize(num.size() - 1);
    scale = 60000;
  }
  return static_cast<uint64_t>(parse_number(key, num) * scale);
}

uint64_t parse_bytes(const std::string& key, const std::string& v) {
  uint64_t x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size())
    throw_usage("storage option {}: expected a byte count, got '{}'", key, v);
  return x;
}

/// A byte count or number in [lo, hi]; Error(usage) naming the range otherwise.
uint64_t parse_in_range(const std::string& key, const std::string& v, uint64_t lo, uint64_t hi) {
  const uint64_t x = parse_bytes(key, v);
  if (x < lo || x > hi) throw_usage("storage option {}: {} is out of range ({} to {})", key, x, lo, hi);
  return x;
}

uint64_t clamp_u64(double x, uint64_t lo, uint64_t hi) {
  if (!(x >= static_cast<double>(lo))) return lo;
  if (x >= static_cast<double>(hi)) return hi;
  return static_cast<uint64_t>(x);
}

/// A SAS token as given (with or without '?', its values percent-encoded or not, as the portal
/// and `az storage … generate-sas` print it), as the query string to append: each value
/// decoded and encoded again, like object_store's split_sas. Throws Error(usage) for a pair
/// without '=' (naming its position, not its text).
std::string normalize_sas(const std::string& raw_key, std::string sas) {
  if (!sas.empty() && sas[0] == '?') sas.erase(0, 1);
  std::string out;
  size_t index = 0;
  for (const auto& p : split_query(sas)) {
    ++index;
    if (!p.has_value || p.name.empty())
      throw_usage("storage option {}: part {} of the SAS token is not NAME=VALUE", raw_key, index);
    out += (out.empty() ? "" : "&") + aws_uri_encode(percent_decode(p.name), false) + "=" +
           aws_uri_encode(percent_decode(p.value), false);
  }
  return out;
}

/// Sets Azure key `key` (lower case) when it is one; false when it is not an Azure key.
/// Aliases: object_store's AzureConfigKey::from_str (arrow-rs-object-store src/azure/builder.rs).
bool set_azure(AzureOptions& a, const std::string& key, const std::string& raw_key, const std::string& value) {
  auto is = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (key == n) return true;
    return false;
  };
  if (is({"azure_storage_account_name", "account_name"}))
    a.account = value;
  else if (is({"azure_storage_account_key", "azure_storage_access_key", "azure_storage_master_key", "account_key",
               "access_key", "master_key"}))
    a.access_key = value;
  else if (is({"azure_storage_sas_key", "azure_storage_sas_token", "sas_key", "sas_token"}))
    a.sas_token = normalize_sas(raw_key, value);
  else if (is({"azure_storage_token", "bearer_token"}))
    a.bearer_token = value;
  else if (is({"azure_storage_use_emulator", "object_store_use_emulator", "use_emulator"}))
    a.use_emulator = parse_bool(raw_key, value);
  else if (is({"azure_storage_endpoint", "azure_endpoint"}))
    a.endpoint = value;
  else if (is({"azure_skip_signature"}))
    a.skip_signature = parse_bool(raw_key, value);
  else if (is({"azure_storage_connection_string", "connection_string"}))
    a.set_connection_string(value);
  else
    return false;
  return true;
}

}  // namespace

void AzureOptions::set_connection_string(const std::string& text) {
  std::string protocol = "https", suffix, blob_endpoint;
  size_t index = 0;
  for (size_t at = 0; at <= text.size(); ++index) {
    size_t semi = text.find(';', at);
    if (semi == std::string::npos) semi = text.size();
    const std::string entry = text.substr(at, semi - at);
    at = semi + 1;
    if (entry.find_first_not_of(" \t") == std::string::npos) continue;
    const auto eq = entry.find('=');
    if (eq == std::string::npos) throw_usage("Azure connection string: entry {} is not Name=Value", index + 1);
    const std::string name = lower(entry.substr(0, eq)), value = entry.substr(eq + 1);
    if (name == "accountname")
      account = value;
    else if (name == "accountkey")
      access_key = value;
    else if (name == "sharedaccesssignature")
      sas_token = normalize_sas("SharedAccessSignature", value);
    else if (name == "blobendpoint")
      blob_endpoint = value;
    else if (name == "defaultendpointsprotocol")
      protocol = value;
    else if (name == "endpointsuffix")
      suffix = value;
    else if (name == "usedevelopmentstorage")
      use_emulator = parse_bool("UseDevelopmentStorage", value);
    // The other services' endpoints: not needed for blobs.
  }
  // BlobEndpoint, else PROTOCOL://ACCOUNT.blob.SUFFIX (another cloud, e.g. core.chinacloudapi.cn).
  if (!blob_endpoint.empty())
    endpoint = blob_endpoint;
  else if (!suffix.empty() && !account.empty())
    endpoint = protocol + "://" + account + ".blob." + suffix;
}

void StorageOptions::set(const std::string& raw_key, const std::string& value) {
  std::string key = lower(raw_key);
  if (set_azure(azure, key, raw_key, value)) return;
  // Client settings with object_store's azure_ prefix (azure_allow_http, azure_timeout, ...).
  if (key.rfind("azure_", 0) == 0) key = key.substr(6);
  if (key.rfind("aws_", 0) == 0) key = key.substr(4);
  if (key == "endpoint" || key == "endpoint_url")
    endpoint = value;
  else if (key == "region" || key == "default_region")
    region = value;
  else if (key == "access_key_id")
    access_key_id = value;
  else if (key == "secret_access_key")
    secret_access_key = value;
  else if (key == "session_token" || key == "token")
    session_token = value;
  else if (key == "allow_http")
    allow_http = parse_bool(raw_key, value);
  else if (key == "virtual_hosted_style_request")
    virtual_hosted_style = parse_bool(raw_key, value);
  else if (key == "skip_signature" || key == "unsigned")
    skip_signature = parse_bool(raw_key, value);
  else if (key == "connect_timeout")
    connect_timeout_ms = parse_duration_ms(raw_key, value);
  else if (key == "timeout" || key == "request_timeout")
    request_timeout_ms = parse_duration_ms(raw_key, value);
  else if (key == "client_retry_timeout" || key == "retry_timeout")
    retry_timeout_ms = parse_duration_ms(raw_key, value);
  else if (key == "client_max_retries" || key == "max_retries")
    max_retries = static_cast<unsigned>(parse_bytes(raw_key, value));
  else if (key == "overall_timeout")
    overall_timeout_ms = parse_duration_ms(raw_key, value);
  else if (key == "latency_ms") {
    latency_ms = parse_number(raw_key, value);
    latency_set = true;
  } else if (key == "link_bandwidth_mib_s")
    link_bandwidth_mib_s = parse_number(raw_key, value);
  else if (key == "bandwidth_mib_s")
    bandwidth_mib_s = parse_number(raw_key, value);
  else if (key == "io_parallelism")
    parallelism = static_cast<unsigned>(parse_in_range(raw_key, value, 1, kMaxIoThreads));
  else if (key == "coalesce_gap")
    coalesce_gap = parse_bytes(raw_key, value);
  else if (key == "max_request_size")
    max_request_size = parse_in_range(raw_key, value, 64 * 1024, uint64_t{1} << 32);
  else if (key == "tail_read_size")
    tail_read_size = parse_in_range(raw_key, value, 64, 64 * 1024 * 1024);
  else
    throw_usage(
        "unknown storage option '{}' (known: aws_endpoint, aws_region, aws_access_key_id, aws_secret_access_key, "
        "aws_session_token, allow_http, aws_virtual_hosted_style_request, aws_skip_signature, connect_timeout, "
        "timeout, client_retry_timeout, client_max_retries, overall_timeout, latency_ms, bandwidth_mib_s, "
        "link_bandwidth_mib_s, "
        "io_parallelism, coalesce_gap, max_request_size, tail_read_size; Azure: azure_storage_account_name, "
        "azure_storage_account_key, azure_storage_sas_token, azure_storage_token, azure_storage_endpoint, "
        "azure_storage_use_emulator, azure_skip_signature, azure_storage_connection_string)",
        raw_key);
}

uint64_t StorageOptions::effective_coalesce_gap(std::optional<double> observed_latency_ms) const {
  if (coalesce_gap) return *coalesce_gap;
  const double ms = !latency_set && observed_latency_ms ? *observed_latency_ms : latency_ms;
  const double per_slot_mib_s = std::min(bandwidth_mib_s, link_bandwidth_mib_s / std::max(1u, parallelism));
  return clamp_u64(ms / 1000.0 * per_slot_mib_s * 1048576.0, 64 * 1024, 8 * 1024 * 1024);
}

uint64_t StorageOptions::effective_max_request_size() const {
  if (max_request_size) return *max_request_size;
  const double bdp = latency_ms / 1000.0 * bandwidth_mib_s * 1048576.0;
  // Down to a power of two, so that requests and the halves that whole files are fetched in
  // start on power-of-two boundaries, like the stripes and parts object stores keep data in
  // (Ceph RGW: 4 MiB RADOS objects; S3 guidance: 8-16 MB ranged GETs).
  return std::bit_floor(clamp_u64(4 * bdp, 4 * 1024 * 1024, 64 * 1024 * 1024));
}

uint64_t StorageOptions::effective_tail_read_size() const {
  if (tail_read_size) return *tail_read_size;
  const double bdp = latency_ms / 1000.0 * bandwidth_mib_s * 1048576.0;
  return clamp_u64(bdp, 64 * 1024, 1024 * 1024);
}

uint64_t StorageOptions::round_trip_bytes() const {
  const double bdp = latency_ms / 1000.0 * bandwidth_mib_s * 1048576.0;
  return clamp_u64(bdp, 0, uint64_t{1} << 40);
}

}  // namespace lance::io
