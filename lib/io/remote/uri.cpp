#include "io/remote/uri.h"

#include <cctype>
#include <filesystem>
#include <string_view>

#include "common/error.h"

namespace lance::io {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// The account of an Azure host `ACCOUNT.blob.core.windows.net` / `ACCOUNT.dfs.core.windows.net`, else "".
std::string azure_account_of_host(std::string_view host) {
  for (std::string_view suffix : {".blob.core.windows.net", ".dfs.core.windows.net"})
    if (ends_with(host, suffix) && host.size() > suffix.size()) {
      const std::string_view account = host.substr(0, host.size() - suffix.size());
      if (account.find('.') == std::string_view::npos) return std::string(account);
    }
  return "";
}

/// `rest` of an Azure URI ("CONTAINER[@HOST]/KEY" after "az://", "abfss://", ...).
Location parse_azure(const std::string& path, const std::string& rest) {
  Location loc;
  loc.scheme = Scheme::azure;
  loc.url = path;
  const auto slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  loc.key = slash == std::string::npos ? "" : rest.substr(slash + 1);
  if (const auto at = authority.find('@'); at != std::string::npos) {
    const std::string host = authority.substr(at + 1);
    loc.account = azure_account_of_host(host);
    if (loc.account.empty())
      throw_usage("{}: '{}' is not an Azure storage host (expected CONTAINER@ACCOUNT.dfs.core.windows.net)", path,
                  host);
    authority.resize(at);
  }
  loc.bucket = authority;
  if (loc.bucket.empty() || loc.bucket.find('.') != std::string::npos)
    throw_usage(
        "{}: no container in the Azure URI (expected az://CONTAINER/PATH or "
        "abfss://CONTAINER@ACCOUNT.dfs.core.windows.net/PATH)",
        path);
  return loc;
}

}  // namespace

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
  if (scheme == "az" || scheme == "azure" || scheme == "abfs" || scheme == "abfss") return parse_azure(path, rest);
  if (scheme == "https" && path.find('?') == std::string::npos) {
    // https://ACCOUNT.blob.core.windows.net/CONTAINER/KEY: the account's Blob service.
    const auto slash = rest.find('/');
    const std::string account = azure_account_of_host(rest.substr(0, slash));
    if (!account.empty() && slash != std::string::npos && slash + 1 < rest.size()) {
      loc = parse_azure(path, rest.substr(slash + 1));
      loc.account = account;
      return loc;
    }
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
  throw_usage(
      "{}: unsupported location scheme '{}://' (this build reads local paths, s3://, az:// (Azure Blob Storage) and "
      "http(s)://)",
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
  if (path.compare(0, 4, "http") != 0) return out;  // abfss://CONTAINER@ACCOUNT…: no user info, a container
  const auto host_start = sep + 3;
  const auto host_end = out.find('/', host_start);
  const auto at = out.find('@', host_start);
  if (at != std::string::npos && (host_end == std::string::npos || at < host_end))
    out.erase(host_start, at + 1 - host_start);
  return out;
}

namespace {

/// `text` with the value after every `sig=` (a SAS signature, to the next '&', ';', quote or
/// space) and every `AccountKey=` / `SharedAccessSignature=` (a connection string's, to the
/// next ';' or space) replaced by "***".
std::string redact_azure_secrets(std::string text) {
  struct Marker {
    std::string_view name;
    std::string_view stops;
  };
  for (const Marker m : {Marker{"sig=", "&; \t\n\"'"}, Marker{"AccountKey=", "; \t\n\"'"},
                         Marker{"SharedAccessSignature=", "; \t\n\"'"}}) {
    for (size_t at = text.find(m.name); at != std::string::npos; at = text.find(m.name, at + 1)) {
      const size_t from = at + m.name.size();
      size_t to = text.find_first_of(m.stops, from);
      if (to == std::string::npos) to = text.size();
      if (to > from) text.replace(from, to - from, "***");
    }
  }
  return text;
}

}  // namespace

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
  return redact_azure_secrets(out + text.substr(std::min(i, text.size())));
}

std::vector<QueryPair> split_query(std::string_view query) {
  std::vector<QueryPair> out;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    if (eq == std::string_view::npos)
      out.push_back({std::string(pair), "", false});
    else
      out.push_back({std::string(pair.substr(0, eq)), std::string(pair.substr(eq + 1))});
  }
  return out;
}

std::string percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
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
