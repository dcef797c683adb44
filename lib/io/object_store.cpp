#include "io/object_store.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <system_error>

#include "io/s3_store.h"
#include "io/uri.h"

namespace lance::io {

namespace fs = std::filesystem;

std::vector<ListEntry> LocalStore::list(const std::string& dir) const {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) throw_io("{}: cannot list: {}", dir, ec.message());
  std::vector<ListEntry> out;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    ListEntry e;
    e.name = it->path().filename().string();
    std::error_code ec2;
    e.is_dir = it->is_directory(ec2);
    if (!e.is_dir) {
      auto s = it->file_size(ec2);
      e.size = ec2 ? 0 : s;
    }
    out.push_back(std::move(e));
  }
  if (ec) throw_io("{}: cannot list: {}", dir, ec.message());
  return out;
}

bool LocalStore::is_directory(const std::string& path) const {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

std::optional<uint64_t> LocalStore::size_of(const std::string& path) const {
  std::error_code ec;
  auto st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return std::nullopt;
  auto s = fs::file_size(path, ec);
  if (ec) throw_io("{}: {}", path, ec.message());
  return s;
}

std::shared_ptr<RandomAccessFile> LocalStore::open(const std::string& path) const { return LocalFile::open(path); }

Bytes LocalStore::read_all(const std::string& path) const {
  auto file = LocalFile::open(path);
  Bytes data(file->size());
  if (!data.empty()) file->read_at(0, data.size(), data.data());
  return data;
}

namespace {

/// Every setting of `o`, for finding a store made with the same options (never printed).
std::string fingerprint(const StorageOptions& o) {
  return fmt::format("{}\n{}\n{}\n{}\n{}\n{}{}{}\n{} {} {} {} {} {} {}\n{} {} {} {} {} {}", o.endpoint, o.region,
                     o.access_key_id, o.secret_access_key, o.session_token, o.allow_http, o.virtual_hosted_style,
                     o.skip_signature, o.connect_timeout_ms, o.request_timeout_ms, o.retry_timeout_ms, o.max_retries,
                     o.retry_base_ms, o.retry_cap_ms, o.overall_timeout_ms, o.latency_ms, o.bandwidth_mib_s,
                     o.parallelism, o.coalesce_gap.value_or(0), o.max_request_size.value_or(0),
                     o.tail_read_size.value_or(0));
}

}  // namespace

std::shared_ptr<ObjectStore> store_for(const std::string& path, const StorageOptions& options) {
  static const auto local = std::make_shared<LocalStore>();
  const Location loc = parse_location(path);
  if (loc.scheme == Scheme::local) return local;
  // One remote store per scheme and settings for the process: its listings and prefetches
  // are shared by everything that reads through it (e.g. the dataset check and the dataset).
  static std::mutex mutex;
  static auto& stores =
      *new std::map<std::string, std::shared_ptr<ObjectStore>>();  // never destroyed: no waiting at exit
  const std::string key = (loc.scheme == Scheme::s3 ? "s3\n" : "http\n") + fingerprint(options);
  std::lock_guard lock(mutex);
  auto& slot = stores[key];
  if (!slot) slot = loc.scheme == Scheme::s3 ? make_s3_store(options) : make_http_store(options);
  return slot;
}

std::shared_ptr<ObjectStore> store_for(const std::string& path) { return store_for(path, StorageOptions{}); }

std::shared_ptr<const ObjectStore> store_or_default(const ObjectStore* store, const std::string& path) {
  if (store) return std::shared_ptr<const ObjectStore>(std::shared_ptr<const ObjectStore>{}, store);
  return store_for(path);
}

std::shared_ptr<RandomAccessFile> open_file(const std::string& path) { return store_for(path)->open(path); }

}  // namespace lance::io
