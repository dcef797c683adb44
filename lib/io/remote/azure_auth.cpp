#include "io/remote/azure_auth.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <map>

#include "common/error.h"
#include "io/remote/crypto.h"
#include "io/remote/uri.h"

namespace lance::io {

const char* const kAzuriteKey =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

/// An RFC 1123 date in GMT ("Thu, 03 Dec 2026 19:06:31 GMT"), as x-ms-date takes it.
std::string http_date_now() {
  static const char* days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  return fmt::format("{}, {:02} {} {} {:02}:{:02}:{:02} GMT", days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
                     tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/// The canonicalized resource of `url` for `account`: "/ACCOUNT" + the URL's path, then each
/// query parameter (lower-cased name, sorted) as "\nname:v1,v2".
std::string canonical_resource(const std::string& url, const std::string& account) {
  const auto scheme_end = url.find("://");
  const auto path_start = url.find('/', scheme_end == std::string::npos ? 0 : scheme_end + 3);
  const auto q = url.find('?');
  std::string path = path_start == std::string::npos ? "/" : url.substr(path_start, q - path_start);
  std::string out = "/" + account + path;
  if (q == std::string::npos) return out;
  std::map<std::string, std::vector<std::string>> params;
  for (const auto& p : split_query(std::string_view(url).substr(q + 1)))
    params[lower(percent_decode(p.name))].push_back(percent_decode(p.value));
  for (auto& [name, values] : params) {
    std::sort(values.begin(), values.end());
    out += "\n" + name + ":";
    for (size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + values[i];
  }
  return out;
}

}  // namespace

std::string azure_string_to_sign(const std::string& verb, const std::string& url, const std::string& account,
                                 const std::vector<std::string>& headers) {
  static const char* standard[] = {
      "content-encoding",  "content-language", "content-length", "content-md5",         "content-type", "date",
      "if-modified-since", "if-match",         "if-none-match",  "if-unmodified-since", "range"};
  std::map<std::string, std::string> by_name;  // lower-cased name -> trimmed value
  for (const auto& h : headers) {
    const auto colon = h.find(':');
    if (colon == std::string::npos) continue;
    by_name[lower(trim(h.substr(0, colon)))] = trim(h.substr(colon + 1));
  }
  std::string out = verb + "\n";
  for (const char* name : standard) {
    auto it = by_name.find(name);
    const bool empty_length = std::string_view(name) == "content-length" && it != by_name.end() && it->second == "0";
    out += (it == by_name.end() || empty_length ? std::string() : it->second) + "\n";
  }
  for (const auto& [name, value] : by_name)  // std::map: sorted by name
    if (name.rfind("x-ms-", 0) == 0) out += name + ":" + value + "\n";
  return out + canonical_resource(url, account);
}

std::string azure_shared_key_header(const std::string& account, const std::string& key,
                                    const std::string& string_to_sign) {
  return "Authorization: SharedKey " + account + ":" + base64_encode(hmac_sha256(key, string_to_sign));
}

AzureAuth::AzureAuth(const AzureOptions& o, std::string account) : account_(std::move(account)) {
  std::string key = o.access_key;
  if (o.use_emulator && key.empty() && o.bearer_token.empty() && o.sas_token.empty() && !o.skip_signature)
    key = kAzuriteKey;
  if (o.skip_signature) {
    kind_ = Kind::anonymous;
  } else if (!o.bearer_token.empty()) {
    kind_ = Kind::bearer;
    bearer_ = o.bearer_token;
  } else if (!key.empty()) {
    kind_ = Kind::shared_key;
    auto decoded = base64_decode(key);
    if (!decoded || decoded->empty())
      throw_usage("the Azure account key (azure_storage_account_key / AZURE_STORAGE_ACCOUNT_KEY) is not base64");
    key_ = std::move(*decoded);
    if (account_.empty())
      throw_usage(
          "an Azure account key needs the account's name: set AZURE_STORAGE_ACCOUNT_NAME or "
          "--storage-option azure_storage_account_name=NAME");
  } else if (!o.sas_token.empty()) {
    kind_ = Kind::sas;
    sas_ = o.sas_token;
  }
}

void AzureAuth::authorize(const HttpRequest& req, std::vector<std::string>& headers) const {
  headers.push_back(std::string("x-ms-version: ") + kAzureApiVersion);
  headers.push_back("x-ms-date: " + http_date_now());
  if (kind_ == Kind::bearer) headers.push_back("Authorization: Bearer " + bearer_);
  if (kind_ != Kind::shared_key) return;
  headers.push_back(azure_shared_key_header(
      account_, key_, azure_string_to_sign(req.head ? "HEAD" : "GET", req.url, account_, headers)));
}

std::string AzureAuth::not_found_hint() const {
  return kind_ == Kind::anonymous
             ? "Azure answers anonymous requests to a private container with 404: " + access_denied_hint()
             : "";
}

std::string AzureAuth::access_denied_hint() const {
  switch (kind_) {
    case Kind::shared_key:
      return "check the account name and key (AZURE_STORAGE_ACCOUNT_NAME, AZURE_STORAGE_ACCOUNT_KEY or "
             "--storage-option azure_storage_account_name / azure_storage_account_key)";
    case Kind::sas:
      return "check the SAS token: its permissions (read and list), expiry and container "
             "(AZURE_STORAGE_SAS_TOKEN or --storage-option azure_storage_sas_token)";
    case Kind::bearer:
      return "check the bearer token (azure_storage_token) and its role on the container";
    case Kind::anonymous:
      break;
  }
  return "the request was anonymous: no credentials are configured (AZURE_STORAGE_ACCOUNT_KEY, "
         "AZURE_STORAGE_SAS_TOKEN, AZURE_STORAGE_CONNECTION_STRING or --storage-option azure_storage_account_key=…) "
         "or azure_skip_signature is set";
}

}  // namespace lance::io
