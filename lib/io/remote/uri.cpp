#include "io/remote/uri.h"

#include <cctype>
#include <filesystem>
#include <string_view>

#include "common/error.h"

namespace lance::io {

Location parse_location(const std::string& path) {
  Location loc;
  const auto sep = path.find("://");
  if (sep == std::string::npos || sep == 0 || path.find('/') < sep) {
    loc.url = path;
    return loc;
  }
  std::string scheme = path.substr(0, sep);
  for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string rest = path.substr(sep + 3);
  if (scheme == "s3" || scheme == "s3a") {
    loc.scheme = Scheme::s3;
    const auto slash = rest.find('/');
    loc.bucket = rest.substr(0, slash);
    loc.key = slash == std::string::npos ? "" : rest.substr(slash + 1);
    if (loc.bucket.empty()) throw_usage("{}: no bucket in the S3 URI (expected s3://BUCKET/KEY)", path);
    loc.url = path;
    return loc;
  }
  if (scheme == "http" || scheme == "https") {
    loc.scheme = Scheme::http;
    loc.url = path;
    return loc;
  }
  if (scheme == "file") {
    loc.url = rest;
    return loc;
  }
  throw_usage("{}: unsupported location scheme '{}://' (this build reads local paths, s3:// and http(s)://)",
              display_location(path), scheme);
}

std::string local_path_of_file_uri(const std::string& path) {
  constexpr std::string_view kScheme = "file://";
  if (path.size() < kScheme.size()) return path;
  for (size_t i = 0; i < kScheme.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(path[i])) != kScheme[i]) return path;
  std::string rest = path.substr(kScheme.size());
  const auto slash = rest.find('/');
  const std::string host = rest.substr(0, slash);
  if (slash == std::string::npos || (!host.empty() && host != "localhost"))
    throw_usage("{}: a file:// URI names a local path: file:///ABSOLUTE/PATH (host '{}' is not this machine)", path,
                host);
  std::string out;
  for (size_t i = slash; i < rest.size(); ++i) {
    if (rest[i] != '%') {
      out += rest[i];
      continue;
    }
    auto hex = [&](size_t at) -> int {
      if (at >= rest.size() || !std::isxdigit(static_cast<unsigned char>(rest[at]))) return -1;
      const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(rest[at])));
      return c <= '9' ? c - '0' : c - 'a' + 10;
    };
    const int hi = hex(i + 1), lo = hex(i + 2);
    if (hi < 0 || lo < 0) throw_usage("{}: bad %-escape at byte {} of the file:// URI", path, kScheme.size() + i);
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

bool is_remote(const std::string& path) { return parse_location(path).scheme != Scheme::local; }

std::string join_path(const std::string& base, const std::string& rel) {
  if (base.find("://") == std::string::npos) return (std::filesystem::path(base) / rel).string();
  std::string out = base;
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out + "/" + rel;
}

std::string display_location(const std::string& path) {
  const auto sep = path.find("://");
  if (sep == std::string::npos) return path;
  std::string out = path;
  if (auto q = out.find('?'); q != std::string::npos) out = out.substr(0, q) + "?…";
  const auto host_start = sep + 3;
  const auto host_end = out.find('/', host_start);
  const auto at = out.find('@', host_start);
  if (at != std::string::npos && (host_end == std::string::npos || at < host_end))
    out.erase(host_start, at + 1 - host_start);
  return out;
}

std::string redact_locations(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const size_t start = std::min(text.find("http://", i), text.find("https://", i));
    if (start == std::string::npos) break;
    // A URL runs to the next space (messages put one after a location, or ": ").
    size_t end = text.find_first_of(" \t\n\"'", start);
    if (end == std::string::npos) end = text.size();
    std::string url = text.substr(start, end - start);
    std::string tail;
    if (url.size() >= 1 && url.back() == ':') {  // "URL: message"
      url.pop_back();
      tail = ":";
    }
    out += text.substr(i, start - i) + display_location(url) + tail;
    i = end;
  }
  return out + text.substr(std::min(i, text.size()));
}

std::string aws_uri_encode(const std::string& s, bool keep_slash) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size() * 3);
  for (unsigned char c : s) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~' || (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace lance::io
