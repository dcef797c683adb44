// HMAC-SHA256 and base64 for request signing that libcurl has no scheme for (Azure Shared Key,
// io/remote/azure_auth.h). OpenSSL's libcrypto does the work; like libcurl
// (io/remote/curl_runtime.cpp) it is opened with dlopen on first use, so local reads never map
// it. libcurl4 (OpenSSL flavour) already loads it into the process for TLS.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lance::io {

/// HMAC-SHA256 (RFC 2104, FIPS 180-4) of `message` under `key`: 32 raw bytes. Throws Error(io)
/// when libcrypto (libcrypto.so.3, Debian package libssl3) cannot be loaded.
std::string hmac_sha256(std::string_view key, std::string_view message);

/// Standard base64 (RFC 4648 §4, '=' padding) of `bytes`.
std::string base64_encode(std::string_view bytes);

/// The bytes `text` encodes in standard base64 (a multiple of 4 characters, '=' padded, no
/// whitespace), or nullopt when it is not that.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace lance::io
