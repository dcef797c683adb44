#include "io/remote/s3_store.h"

#include <spdlog/spdlog.h>

#include "io/remote/http_store.h"
#include "io/remote/xml_text.h"

namespace lance::io {

namespace {

class S3Store final : public ListingHttpStore {
 public:
  S3Store(const StorageOptions& options, std::shared_ptr<ReadStats> stats)
      : ListingHttpStore(options, options.has_credentials() && !options.skip_signature, true, std::move(stats)) {
    const std::string region = options.region.empty() ? "us-east-1" : options.region;
    endpoint_ = options.endpoint.empty() ? "https://s3." + region + ".amazonaws.com" : options.endpoint;
    while (!endpoint_.empty() && endpoint_.back() == '/') endpoint_.pop_back();
    if (endpoint_.rfind("http://", 0) == 0 && !options.allow_http)
      throw_usage("the S3 endpoint {} is plain http: set --storage-option allow_http=true (or AWS_ALLOW_HTTP=true)",
                  display_location(endpoint_));
    if (endpoint_.rfind("http://", 0) != 0 && endpoint_.rfind("https://", 0) != 0)
      throw_usage("the S3 endpoint '{}' must start with http:// or https://", display_location(endpoint_));
    if (!options.skip_signature && options.access_key_id.empty() != options.secret_access_key.empty())
      throw_usage(
          "incomplete AWS credentials: aws_{} is set but aws_{} is not (from AWS_ACCESS_KEY_ID / "
          "AWS_SECRET_ACCESS_KEY, the AWS profile or --storage-option)",
          options.access_key_id.empty() ? "secret_access_key" : "access_key_id",
          options.access_key_id.empty() ? "access_key_id" : "secret_access_key");
    if (!options.has_credentials() && !options.skip_signature)
      spdlog::debug("no AWS credentials configured: S3 requests are unsigned");
  }

 protected:
  std::vector<ListEntry> list_now(const std::string& dir, size_t max_keys = 0,
                                  bool* truncated = nullptr) const override {
    const Location loc = parse_location(dir);
    const std::string prefix = prefix_of(loc);
    std::vector<ListEntry> out;
    std::string token;
    for (int page = 0;; ++page) {
      // Parameters sorted by name and AWS-encoded: they are signed exactly as sent.
      std::string query;
      if (!token.empty()) query += "continuation-token=" + aws_uri_encode(token, false) + "&";
      query += "delimiter=%2F&list-type=2";
      if (max_keys > 0) query += "&max-keys=" + std::to_string(max_keys);
      if (!prefix.empty()) query += "&prefix=" + aws_uri_encode(prefix, false);
      HttpRequest req;
      req.url = bucket_url(loc.bucket) + "?" + query;
      req.display = display_location(dir);
      HttpResponse resp = client_->perform(req);
      if (resp.status != 200) client_->fail(req, resp);
      std::string_view xml(reinterpret_cast<const char*>(resp.body.data()), resp.body.size());
      for (auto contents : xml_all(xml, "Contents"))
        add_entry(xml_one(contents, "Key"), prefix, false,
                  std::strtoull(xml_one(contents, "Size").c_str(), nullptr, 10), out);
      for (auto cp : xml_all(xml, "CommonPrefixes")) add_entry(xml_one(cp, "Prefix"), prefix, true, 0, out);
      if (xml_one(xml, "IsTruncated") != "true") break;
      if (max_keys > 0) {
        if (truncated) *truncated = true;
        break;
      }
      token = xml_one(xml, "NextContinuationToken");
      if (token.empty()) throw_io("{}: listing is truncated but has no continuation token", display_location(dir));
    }
    return out;
  }

 protected:
  std::string url_of(const std::string& path) const override {
    const Location loc = parse_location(path);
    if (loc.key.empty() || loc.key.back() == '/')
      throw_usage("{} names {}, not an object (give s3://BUCKET/KEY of a .lance file, or the prefix of a dataset)",
                  display_location(path), loc.key.empty() ? "a bucket" : "a prefix");
    return bucket_url(loc.bucket) + "/" + aws_uri_encode(loc.key, true);
  }

 private:
  std::string bucket_url(const std::string& bucket) const {
    if (options_.virtual_hosted_style) {
      const auto sep = endpoint_.find("://") + 3;
      return endpoint_.substr(0, sep) + bucket + "." + endpoint_.substr(sep);
    }
    return endpoint_ + "/" + aws_uri_encode(bucket, false);
  }
  std::string endpoint_;
};

class HttpStore final : public HttpStoreBase {
 public:
  HttpStore(const StorageOptions& options, std::shared_ptr<ReadStats> stats)
      : HttpStoreBase(options, false, false, std::move(stats)) {}
  std::vector<ListEntry> list(const std::string& dir) const override {
    throw_unsupported("{}: an http(s) URL cannot be listed; read datasets through s3://", display_location(dir));
  }
  bool is_directory(const std::string&) const override { return false; }

 protected:
  std::string url_of(const std::string& path) const override { return path; }
};

}  // namespace

std::shared_ptr<ObjectStore> make_s3_store(const StorageOptions& options, std::shared_ptr<ReadStats> stats) {
  return std::make_shared<S3Store>(options, std::move(stats));
}
std::shared_ptr<ObjectStore> make_http_store(const StorageOptions& options, std::shared_ptr<ReadStats> stats) {
  return std::make_shared<HttpStore>(options, std::move(stats));
}

}  // namespace lance::io
