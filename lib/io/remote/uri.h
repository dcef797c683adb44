// Locations the reader accepts: local paths, `s3://bucket/key`, `http(s)://host/path?query`.
#pragma once

#include <string>

namespace lance::io {

enum class Scheme { local, s3, http };

/// A parsed location. For s3: `bucket` and `key` (no leading '/', may be empty or end in '/').
/// For http(s): the whole `url` as given.
struct Location {
  Scheme scheme = Scheme::local;
  std::string bucket;
  std::string key;
  std::string url;  ///< http(s): as given; local: the path
};

/// Parses `path`. Throws Error(usage) for `s3://` without a bucket and for unknown schemes
/// (`gs://`, `az://`, ...). Anything without "scheme://" is a local path.
Location parse_location(const std::string& path);

/// The local path a `file://` URI names (RFC 8089: `file:///abs/path` or
/// `file://localhost/abs/path`, %XX escapes decoded), or `path` unchanged when it is not one.
/// Throws Error(usage) for another host (`file://server/share`) or a bad %-escape.
std::string local_path_of_file_uri(const std::string& path);

/// True for s3:// and http(s):// locations.
bool is_remote(const std::string& path);

/// `base` + "/" + `rel` for URIs (one slash between), std::filesystem join for local paths.
std::string join_path(const std::string& base, const std::string& rel);

/// The location as it may appear in messages: http(s) URLs lose their query string
/// (a presigned URL carries its signature there) and any user:password@.
std::string display_location(const std::string& path);
/// `text` with every http(s) URL in it shown as display_location shows it (no query string,
/// no user info): the last guard that keeps presigned signatures out of messages.
std::string redact_locations(const std::string& text);

/// AWS URI-encoding (RFC 3986 unreserved characters kept; '/' kept when `keep_slash`).
std::string aws_uri_encode(const std::string& s, bool keep_slash);

}  // namespace lance::io
