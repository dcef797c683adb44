// What the HTTP object stores share (io/remote/s3_store.h, io/remote/azure_store.h): opening,
// sizing and reading objects by URL with prefetches (HttpStoreBase), and listings cached for
// the life of the store (ListingHttpStore).
#pragma once

#include <algorithm>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "io/object_store.h"
#include "io/remote/http_client.h"
#include "io/remote/remote_file.h"
#include "io/remote/storage_options.h"
#include "io/remote/uri.h"

namespace lance::io {

/// Open, size and whole-object reads of one URL, and prefetches of them: what every HTTP store
/// shares. A store gives the URL of a path (`url_of`) and its listings.
class HttpStoreBase : public ObjectStore {
 public:
  HttpStoreBase(const StorageOptions& options, bool sign, bool s3, std::shared_ptr<ReadStats> stats)
      : options_(options), client_(std::make_shared<HttpClient>(options, sign, s3, std::move(stats))) {}
  HttpStoreBase(const StorageOptions& options, std::shared_ptr<HttpClient> client)
      : options_(options), client_(std::move(client)) {}

  bool remote() const override { return true; }

  IoOptions tune(IoOptions base) const override {
    base.block_size = options_.effective_coalesce_gap(client_->observed_latency_ms());
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
    m.coalesce_gap = options_.effective_coalesce_gap(client_->observed_latency_ms());
    m.requests_in_flight = options_.parallelism;
    return m;
  }
  uint64_t whole_file_part() const { return options_.effective_max_request_size(); }

  void prefetch(const std::vector<OpenAhead>& open_paths, const std::vector<std::string>& read_paths) const override {
    std::lock_guard lock(mutex_);
    for (const auto& [p, tail, head_of] : open_paths) {
      const uint64_t want = tail ? tail : options_.effective_tail_read_size();
      auto it = opens_.find(p);
      if (it != opens_.end()) {
        if (it->second.tail_bytes >= want) continue;
        // A speculative open (the default tail) overtaken by a read that wants more, the
        // whole file: that GET goes out now; the other one finishes unused.
        unused_opens_.push_back(std::move(it->second.file));
        opens_.erase(it);
      }
      opens_.emplace(p, PendingOpen{want, std::async(std::launch::async,
                                                     [this, u = url_of(p), d = display_location(p), tail = tail,
                                                      head_of = head_of] { return open_now(u, d, tail, head_of); })});
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
  std::shared_ptr<RandomAccessFile> open_now(const std::string& url, const std::string& display, uint64_t tail = 0,
                                             uint64_t head_of = 0) const {
    // Units a scan announces are fetched at once up to 4 of the largest requests (in pieces of
    // at most two), neighbours within the coalescing gap sharing a GET. A page larger than two
    // requests is fetched in cells of that size: the 153 MB vectors scan then costs 17 GETs
    // (Lance: 19) where 8 MiB cells cost 26, in the same time.
    const RemoteFile::ReadAhead ahead{2 * options_.effective_max_request_size(), 32, options_.effective_coalesce_gap(),
                                      4 * options_.effective_max_request_size()};
    if (tail > options_.effective_tail_read_size())  // the whole file: in pieces, concurrently
      return RemoteFile::open_whole(client_, url, display, tail, whole_file_part(), ahead);
    // A file a full scan reads, too large to fetch whole: its first cells travel with its tail
    // (the scan's first data one round trip sooner), within the read-ahead budget.
    return RemoteFile::open(client_, url, display, options_.effective_tail_read_size(), ahead,
                            std::min(head_of, ahead.ahead_bytes));
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

/// A store whose directories are listed with a request (S3 ListObjectsV2, Azure List Blobs):
/// one command reads one snapshot, so a prefix is listed once (the dataset check and the
/// manifest search share the listing of _versions/).
class ListingHttpStore : public HttpStoreBase {
 public:
  using HttpStoreBase::HttpStoreBase;

  std::vector<ListEntry> list(const std::string& dir) const override {
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

 protected:
  /// The key prefix a listing of directory `loc` asks for: its key ending in '/' (or "" for the
  /// bucket / container itself).
  static std::string prefix_of(const Location& loc) {
    std::string prefix = loc.key;
    if (!prefix.empty() && prefix.back() != '/') prefix += '/';
    return prefix;
  }
  /// Adds the entry of `name` (a listed key, or a common prefix when `is_dir`) to `out` when it
  /// lies below `prefix`: named by its rest without '/' at the end.
  static void add_entry(const std::string& name, const std::string& prefix, bool is_dir, uint64_t size,
                        std::vector<ListEntry>& out) {
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return;
    ListEntry e;
    e.name = name.substr(prefix.size());
    while (is_dir && !e.name.empty() && e.name.back() == '/') e.name.pop_back();
    e.is_dir = is_dir;
    e.size = size;
    out.push_back(std::move(e));
  }

  /// The entries directly inside `dir`, with requests of the store's listing API. `max_keys`
  /// > 0: one request of at most that many entries; `*truncated` tells whether the store holds
  /// more. Throws Error(io) naming `dir` when a request fails.
  virtual std::vector<ListEntry> list_now(const std::string& dir, size_t max_keys = 0,
                                          bool* truncated = nullptr) const = 0;

 private:
  mutable std::mutex list_mutex_;
  mutable std::map<std::string, std::vector<ListEntry>> listings_;
};

}  // namespace lance::io
