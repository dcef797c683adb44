// How lance-cli authorizes its requests to Azure Blob Storage (io/remote/azure_store.h):
// Shared Key (an HMAC-SHA256 of the request under the account key), a SAS token in the query
// string, an OAuth bearer token, or nothing (a public container).
//
// Spec: Azure Storage REST API, "Authorize with Shared Key" (string-to-sign of the Blob
// service, version 2015-02-21 and later) and "Versioning for the Azure Storage services"
// (x-ms-version); object_store's client (arrow-rs-object-store src/azure/credential.rs) signs
// the same way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/remote/http_client.h"
#include "io/remote/storage_options.h"

namespace lance::io {

/// The REST API version every request asks for (x-ms-version).
inline constexpr const char* kAzureApiVersion = "2021-08-06";

/// The Shared Key string-to-sign of a GET or HEAD (`verb`) of `url` with the given "Name:
/// value" `headers` (Range and x-ms-* among them; other standard headers are empty): the
/// verb, eleven standard header lines, the canonicalized x-ms-* headers (lower-cased names,
/// sorted, "name:value\n"), and the canonicalized resource "/ACCOUNT/PATH" (PATH as encoded in
/// the URL) with each query parameter as "\nname:value[,value]" (names lower-cased and
/// sorted, values decoded).
std::string azure_string_to_sign(const std::string& verb, const std::string& url, const std::string& account,
                                 const std::vector<std::string>& headers);

/// `Authorization: SharedKey ACCOUNT:SIGNATURE` for `string_to_sign` under the decoded account key.
std::string azure_shared_key_header(const std::string& account, const std::string& key,
                                    const std::string& string_to_sign);

/// The HttpService of an Azure account: adds x-ms-version and x-ms-date to every attempt, and
/// the Authorization header the credentials call for. SAS tokens are not headers: the store
/// appends them to every URL (`sas_query()`).
class AzureAuth final : public HttpService {
 public:
  enum class Kind { shared_key, sas, bearer, anonymous };

  /// From the options: a bearer token, else an account key (Shared Key), else a SAS token,
  /// else anonymous (object_store's order; the emulator without credentials uses its
  /// well-known key). Throws Error(usage) when the key is not base64 (never showing it), or
  /// when `account` is empty for Shared Key.
  AzureAuth(const AzureOptions& options, std::string account);

  void authorize(const HttpRequest& req, std::vector<std::string>& headers) const override;
  bool suffix_ranges() const override { return false; }
  std::string access_denied_hint() const override;
  std::string not_found_hint() const override;

  Kind kind() const { return kind_; }
  /// The SAS token as a query string ("sv=…&sig=…"), or "" when the requests are not SAS-signed.
  const std::string& sas_query() const { return sas_; }

 private:
  Kind kind_ = Kind::anonymous;
  std::string account_;
  std::string key_;  ///< decoded account key (Shared Key)
  std::string sas_;
  std::string bearer_;
};

/// The emulator's (Azurite's) well-known account and its key (Microsoft's documentation "Use
/// the Azurite emulator": well-known storage account and key).
inline constexpr const char* kAzuriteAccount = "devstoreaccount1";
extern const char* const kAzuriteKey;

}  // namespace lance::io
