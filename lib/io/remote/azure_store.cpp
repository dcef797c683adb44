#include "io/remote/azure_store.h"

#include <spdlog/spdlog.h>

#include "io/remote/azure_auth.h"
#include "io/remote/http_store.h"
#include "io/remote/xml_text.h"

namespace lance::io {

namespace {

/// The account the store signs as: the URI's, else the configured one, else the emulator's.
std::string account_of(const AzureOptions& o, const std::string& uri_account) {
  if (!uri_account.empty()) return uri_account;
  if (!o.account.empty()) return o.account;
  return o.use_emulator ? kAzuriteAccount : "";
}

/// The account's Blob service URL, without a trailing '/'. Throws Error(usage) when there is none.
std::string service_url(const StorageOptions& options, const std::string& account) {
  const AzureOptions& o = options.azure;
  std::string url;
  if (o.use_emulator)
    url = o.emulator_url + (o.emulator_url.ends_with('/') ? "" : "/") + account;
  else if (!o.endpoint.empty())
    url = o.endpoint;
  else if (!account.empty())
    url = "https://" + account + ".blob.core.windows.net";
  else
    throw_usage(
        "no Azure storage account: set AZURE_STORAGE_ACCOUNT_NAME (or --storage-option "
        "azure_storage_account_name=NAME), give it in the URI (abfss://CONTAINER@ACCOUNT.dfs.core.windows.net/PATH), "
        "or set azure_storage_endpoint / azure_storage_use_emulator=true");
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (url.rfind("http://", 0) == 0 && !options.allow_http && !o.use_emulator)
    throw_usage("the Azure endpoint {} is plain http: set --storage-option allow_http=true (or AZURE_ALLOW_HTTP=true)",
                display_location(url));
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
    throw_usage("the Azure endpoint '{}' must start with http:// or https://", display_location(url));
  return url;
}

class AzureStore final : public ListingHttpStore {
 public:
  AzureStore(const StorageOptions& options, std::shared_ptr<const AzureAuth> auth, std::string service,
             std::shared_ptr<ReadStats> stats)
      : ListingHttpStore(options, std::make_shared<HttpClient>(options, auth, std::move(stats))),
        auth_(std::move(auth)),
        service_(std::move(service)) {
    if (auth_->kind() == AzureAuth::Kind::anonymous && !options.azure.skip_signature)
      spdlog::debug("no Azure credentials configured: requests are anonymous");
  }

 protected:
  std::vector<ListEntry> list_now(const std::string& dir, size_t max_keys = 0,
                                  bool* truncated = nullptr) const override {
    const Location loc = parse_location(dir);
    const std::string prefix = prefix_of(loc);
    std::vector<ListEntry> out;
    std::string marker;
    for (;;) {
      std::string query = "restype=container&comp=list&delimiter=%2F";
      if (!prefix.empty()) query += "&prefix=" + aws_uri_encode(prefix, false);
      if (!marker.empty()) query += "&marker=" + aws_uri_encode(marker, false);
      if (max_keys > 0) query += "&maxresults=" + std::to_string(max_keys);
      HttpRequest req;
      req.url = with_sas(container_url(loc.bucket) + "?" + query);
      req.display = display_location(dir);
      HttpResponse resp = client_->perform(req);
      if (resp.status != 200) client_->fail(req, resp);
      std::string_view xml(reinterpret_cast<const char*>(resp.body.data()), resp.body.size());
      add_entries(xml, prefix, out);
      marker = xml_one(xml, "NextMarker");
      if (marker.empty()) break;
      if (max_keys > 0) {
        if (truncated) *truncated = true;
        break;
      }
    }
    return out;
  }

  std::string url_of(const std::string& path) const override {
    const Location loc = parse_location(path);
    if (loc.key.empty() || loc.key.back() == '/')
      throw_usage("{} names {}, not a blob (give az://CONTAINER/PATH of a .lance file, or the prefix of a dataset)",
                  display_location(path), loc.key.empty() ? "a container" : "a prefix");
    return with_sas(container_url(loc.bucket) + "/" + aws_uri_encode(loc.key, true));
  }

 private:
  /// The blobs and prefixes of one List Blobs page (`<Blob>`, `<BlobPrefix>`) under `prefix`.
  static void add_entries(std::string_view xml, const std::string& prefix, std::vector<ListEntry>& out) {
    for (auto blob : xml_all(xml, "Blob"))
      if (xml_one(blob, "ResourceType") != "directory")  // ADLS Gen2: a directory is listed as a prefix too
        add_entry(xml_one(blob, "Name"), prefix, false,
                  std::strtoull(xml_one(blob, "Content-Length").c_str(), nullptr, 10), out);
    for (auto p : xml_all(xml, "BlobPrefix")) add_entry(xml_one(p, "Name"), prefix, true, 0, out);
  }

  std::string container_url(const std::string& container) const {
    return service_ + "/" + aws_uri_encode(container, false);
  }
  /// `url` with the SAS token appended to its query string (none: unchanged).
  std::string with_sas(const std::string& url) const {
    const std::string& sas = auth_->sas_query();
    if (sas.empty()) return url;
    return url + (url.find('?') == std::string::npos ? "?" : "&") + sas;
  }

  std::shared_ptr<const AzureAuth> auth_;
  std::string service_;
};

}  // namespace

std::shared_ptr<ObjectStore> make_azure_store(const StorageOptions& options, const std::string& uri_account,
                                              std::shared_ptr<ReadStats> stats) {
  const std::string account = account_of(options.azure, uri_account);
  std::string service = service_url(options, account);
  auto auth = std::make_shared<const AzureAuth>(options.azure, account);
  return std::make_shared<AzureStore>(options, std::move(auth), std::move(service), std::move(stats));
}

}  // namespace lance::io
