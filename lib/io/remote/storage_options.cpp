#include "io/remote/storage_options.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>

#include "common/error.h"
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

}  // namespace

void StorageOptions::set(const std::string& raw_key, const std::string& value) {
  std::string key = lower(raw_key);
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
  else if (key == "latency_ms")
    latency_ms = parse_number(raw_key, value);
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
        "io_parallelism, coalesce_gap, max_request_size, tail_read_size)",
        raw_key);
}

uint64_t StorageOptions::effective_coalesce_gap() const {
  if (coalesce_gap) return *coalesce_gap;
  const double bdp = latency_ms / 1000.0 * bandwidth_mib_s * 1048576.0;
  return clamp_u64(bdp / std::max(1u, parallelism), 64 * 1024, 8 * 1024 * 1024);
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
