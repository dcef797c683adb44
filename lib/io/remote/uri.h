// Locations the reader accepts: local paths, `s3://bucket/key`, Azure Blob Storage
// (`az://container/key` and the other forms of parse_location), `http(s)://host/path?query`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lance::io {

enum class Scheme { local, s3, azure, http };

/// A parsed location. For s3: `bucket` and `key` (no leading '/', may be empty or end in '/').
/// For azure: `bucket` is the container, `key` the blob name (or prefix), `account` the storage
/// account when the URI names one (else empty: the configured account). For http(s): the whole
/// `url` as given.
struct Location {
  Scheme scheme = Scheme::local;
  std::string bucket;
  std::string key;
  std::string account;  ///< azure: from `CONTAINER@ACCOUNT.dfs.core.windows.net` or the https host
  std::string url;      ///< http(s), s3, azure: as given; local: the path
};

/// Parses `path`. Azure Blob Storage, the forms object_store's MicrosoftAzureBuilder::with_url
/// takes (arrow-rs-object-store src/azure/builder.rs): `az://CONTAINER/KEY`, `azure://…`,
/// `abfs[s]://CONTAINER/KEY`, `abfs[s]://CONTAINER@ACCOUNT.dfs.core.windows.net/KEY` (also
/// `.blob.core.windows.net`, and az:// with an account), and
/// `https://ACCOUNT.blob.core.windows.net/CONTAINER/KEY` (also `.dfs.`) without a query string
/// (with one, e.g. a blob's SAS URL, it stays a plain https URL). Throws Error(usage) for
/// `s3://` without a bucket, an Azure URI without a container (or with a '.' in it, or another
/// host after '@'), and unknown schemes (`gs://`, ...). Anything without "scheme://" is a local path.
Location parse_location(const std::string& path);

/// The local path a `file://` URI names (RFC 8089: `file:///abs/path` or
/// `file://localhost/abs/path`, %XX escapes decoded), or `path` unchanged when it is not one.
/// Throws Error(usage) for another host (`file://server/share`) or a bad %-escape.
std::string local_path_of_file_uri(const std::string& path);

/// True for s3://, Azure and http(s):// locations.
bool is_remote(const std::string& path);

/// `base` + "/" + `rel` for URIs (one slash between), std::filesystem join for local paths.
std::string join_path(const std::string& base, const std::string& rel);

/// The location as it may appear in messages: http(s) URLs lose their query string
/// (a presigned URL carries its signature there) and any user:password@.
std::string display_location(const std::string& path);
/// `text` with every http(s) URL in it shown as display_location shows it (no query string,
/// no user info), and the value of every SAS signature (`sig=`) and connection-string key
/// (`AccountKey=`, `SharedAccessSignature=`) left in it as "***": the last guard that keeps
/// presigned signatures and Azure keys out of messages.
std::string redact_locations(const std::string& text);

/// The NAME=VALUE pairs of query string `query` ("a=1&b=&c"; no leading '?'), in order, as
/// written (not decoded); a pair without '=' has `has_value` false. Empty pairs are skipped.
struct QueryPair {
  std::string name, value;
  bool has_value = true;
};
std::vector<QueryPair> split_query(std::string_view query);

/// `s` with its %XX escapes decoded (a malformed escape is kept as it is; '+' stays '+').
std::string percent_decode(std::string_view s);

/// AWS URI-encoding (RFC 3986 unreserved characters kept; '/' kept when `keep_slash`).
std::string aws_uri_encode(const std::string& s, bool keep_slash);

}  // namespace lance::io
