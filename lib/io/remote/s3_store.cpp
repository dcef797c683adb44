#include "io/remote/s3_store.h"

#include <algorithm>
#include <future>
#include <map>
#include <mutex>

#include <spdlog/spdlog.h>

#include "io/remote/remote_file.h"
#include "io/remote/uri.h"

namespace lance::io {

namespace {

std::string xml_unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    auto semi = s.find(';', i);
    if (semi == std::string_view::npos) {
      out += s[i];
      continue;
    }
    std::string_view ent = s.substr(i + 1, semi - i - 1);
    if (ent == "amp")
      out += '&';
    else if (ent == "lt")
      out += '<';
    else if (ent == "gt")
      out += '>';
    else if (ent == "quot")
      out += '"';
    else if (ent == "apos")
      out += '\'';
    else if (!ent.empty() && ent[0] == '#') {
      unsigned long cp = ent.size() > 1 && (ent[1] == 'x' || ent[1] == 'X')
                             ? std::strtoul(std::string(ent.substr(2)).c_str(), nullptr, 16)
                             : std::strtoul(std::string(ent.substr(1)).c_str(), nullptr, 10);
      if (cp < 0x80)
        out += static_cast<char>(cp);
      else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
      }
    } else {
      out += s.substr(i, semi - i + 1);
    }
    i = semi;
  }
  return out;
}

/// Every `<tag>…</tag>` inside `s`, in order.
std::vector<std::string_view> xml_all(std::string_view s, std::string_view tag) {
  std::vector<std::string_view> out;
  const std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  size_t pos = 0;
  while ((pos = s.find(open, pos)) != std::string_view::npos) {
    pos += open.size();
    auto end = s.find(close, pos);
    if (end == std::string_view::npos) break;
    out.push_back(s.substr(pos, end - pos));
    pos = end + close.size();
  }
  return out;
}

std::string xml_one(std::string_view s, std::string_view tag) {
  auto all = xml_all(s, tag);
  return all.empty() ? std::string() : xml_unescape(all.front());
}

/// Shared by both stores: open, size and whole-object reads of one URL.
class HttpStoreBase : public ObjectStore {
 public:
  HttpStoreBase(const StorageOptions& options, bool sign, bool s3, std::shared_ptr<ReadStats> stats)
      : options_(options), client_(std::make_shared<HttpClient>(options, sign, s3, std::move(stats))) {}

  bool remote() const override { return true; }

  IoOptions tune(IoOptions base) const override {
    base.block_size = options_.effective_coalesce_gap();
    base.max_iop_size = options_.effective_max_request_size();
    base.io_threads = options_.parallelism;
    base.inline_read_bytes = 0;  // a request waits a round trip: always on the pool
    base.remote = true;
    return base;
  }

  std::optional<uint64_t> size_of(const std::string& path) const override {
    HttpRequest req;
    req.head = true;
    req.url = url_of(path);
    req.display = display_location(path);
    HttpResponse resp = client_->perform(req);
    if (resp.status == 404) return std::nullopt;
    if (resp.status != 200) client_->fail(req, resp);
    return resp.content_length.value_or(0);
  }

  std::shared_ptr<RandomAccessFile> open(const std::string& path) const override {
    {
      std::unique_lock lock(mutex_);
      if (auto it = opens_.find(path); it != opens_.end()) {
        auto f = std::move(it->second.file);
        opens_.erase(it);
        lock.unlock();
        return f.get();
      }
    }
    return open_now(url_of(path), display_location(path));
  }

  Bytes read_all(const std::string& path) const override {
    if (auto f = take_prefetched(reads_, path)) return f->get();
    return read_now(url_of(path), display_location(path));
  }

  /// Whole files up to 32 MiB (or the largest request, if larger) are fetched at once, in
  /// concurrent pieces of the largest request.
  NetworkModel network_model() const override {
    NetworkModel m;
    m.remote = true;
    m.round_trip_bytes = options_.round_trip_bytes();
    m.tail_read_size = options_.effective_tail_read_size();
    m.whole_file_limit = std::max<uint64_t>(32 << 20, options_.effective_max_request_size());
    m.coalesce_gap = options_.effective_coalesce_gap();
    m.requests_in_flight = options_.parallelism;
    return m;
  }
  uint64_t whole_file_part() const { return options_.effective_max_request_size(); }

  void prefetch(const std::vector<OpenAhead>& open_paths, const std::vector<std::string>& read_paths) const override {
    std::lock_guard lock(mutex_);
    for (const auto& [p, tail] : open_paths) {
      const uint64_t want = tail ? tail : options_.effective_tail_read_size();
      auto it = opens_.find(p);
      if (it != opens_.end()) {
        if (it->second.tail_bytes >= want) continue;
        // A speculative open (the default tail) overtaken by a read that wants more, the
        // whole file: that GET goes out now; the other one finishes unused.
        unused_opens_.push_back(std::move(it->second.file));
        opens_.erase(it);
      }
      opens_.emplace(p,
                     PendingOpen{want, std::async(std::launch::async, [this, u = url_of(p), d = display_location(p),
                                                                       tail = tail] { return open_now(u, d, tail); })});
    }
    for (const auto& p : read_paths)
      if (!reads_.count(p))
        reads_.emplace(p, std::async(std::launch::async,
                                     [this, u = url_of(p), d = display_location(p)] { return read_now(u, d); }));
  }

  ~HttpStoreBase() override {
    // Prefetches not taken must finish before the store goes (their futures block in their destructors).
    std::lock_guard lock(mutex_);
    opens_.clear();
    unused_opens_.clear();
    reads_.clear();
  }

 private:
  template <typename T>
  std::optional<std::future<T>> take_prefetched(std::map<std::string, std::future<T>>& m,
                                                const std::string& path) const {
    std::lock_guard lock(mutex_);
    auto it = m.find(path);
    if (it == m.end()) return std::nullopt;
    std::future<T> f = std::move(it->second);
    m.erase(it);
    return f;
  }

  // Prefetch threads call these: they must not touch the derived class (it may be going away).
  std::shared_ptr<RandomAccessFile> open_now(const std::string& url, const std::string& display,
                                             uint64_t tail = 0) const {
    // Units a scan announces are fetched at once up to 4 of the largest requests (in pieces of
    // at most one), neighbours within the coalescing gap sharing a GET.
    const RemoteFile::ReadAhead ahead{options_.effective_max_request_size(), 16, options_.effective_coalesce_gap(),
                                      4 * options_.effective_max_request_size()};
    if (tail > options_.effective_tail_read_size())  // the whole file: in pieces, concurrently
      return RemoteFile::open_whole(client_, url, display, tail, whole_file_part(), ahead);
    return RemoteFile::open(client_, url, display, options_.effective_tail_read_size(), ahead);
  }

  Bytes read_now(const std::string& url, const std::string& display) const {
    HttpRequest req;
    req.url = url;
    req.display = display;
    req.max_body = uint64_t{1} << 31;
    HttpResponse resp = client_->perform(req);
    if (resp.status != 200) client_->fail(req, resp);
    return std::move(resp.body);
  }

  mutable std::mutex mutex_;
  struct PendingOpen {
    uint64_t tail_bytes = 0;  ///< how much of the file's end it fetches
    std::future<std::shared_ptr<RandomAccessFile>> file;
  };
  mutable std::map<std::string, PendingOpen> opens_;
  mutable std::vector<std::future<std::shared_ptr<RandomAccessFile>>> unused_opens_;
  mutable std::map<std::string, std::future<Bytes>> reads_;

 protected:
  virtual std::string url_of(const std::string& path) const = 0;
  StorageOptions options_;
  std::shared_ptr<HttpClient> client_;
};

class S3Store final : public HttpStoreBase {
 public:
  S3Store(const StorageOptions& options, std::shared_ptr<ReadStats> stats)
      : HttpStoreBase(options, options.has_credentials() && !options.skip_signature, true, std::move(stats)) {
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

  std::vector<ListEntry> list(const std::string& dir) const override {
    // One command reads one snapshot: a prefix is listed once (the dataset check and the
    // manifest search share the listing of _versions/).
    {
      std::lock_guard lock(list_mutex_);
      if (auto it = listings_.find(dir); it != listings_.end()) return it->second;
    }
    auto out = list_now(dir);
    std::lock_guard lock(list_mutex_);
    listings_[dir] = out;
    return out;
  }

  bool is_directory(const std::string& path) const override { return !list(path).empty(); }

  std::optional<std::vector<ListEntry>> list_if_at_most(const std::string& dir, size_t max_entries) const override {
    bool truncated = false;
    auto out = list_now(dir, max_entries + 1, &truncated);
    if (truncated || out.size() > max_entries) return std::nullopt;
    return out;
  }

 private:
  /// `max_keys` > 0: one request of at most that many entries; `*truncated` tells whether
  /// the store holds more.
  std::vector<ListEntry> list_now(const std::string& dir, size_t max_keys = 0, bool* truncated = nullptr) const {
    const Location loc = parse_location(dir);
    std::string prefix = loc.key;
    if (!prefix.empty() && prefix.back() != '/') prefix += '/';
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
      for (auto contents : xml_all(xml, "Contents")) {
        std::string key = xml_one(contents, "Key");
        if (key.size() <= prefix.size() || key.compare(0, prefix.size(), prefix) != 0) continue;
        ListEntry e;
        e.name = key.substr(prefix.size());
        e.size = std::strtoull(xml_one(contents, "Size").c_str(), nullptr, 10);
        out.push_back(std::move(e));
      }
      for (auto cp : xml_all(xml, "CommonPrefixes")) {
        std::string p = xml_one(cp, "Prefix");
        if (p.size() <= prefix.size() || p.compare(0, prefix.size(), prefix) != 0) continue;
        ListEntry e;
        e.name = p.substr(prefix.size());
        while (!e.name.empty() && e.name.back() == '/') e.name.pop_back();
        e.is_dir = true;
        out.push_back(std::move(e));
      }
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
  mutable std::mutex list_mutex_;
  mutable std::map<std::string, std::vector<ListEntry>> listings_;
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
