// Where files live: the local file system, an S3-compatible object store, or a plain HTTP
// server. The dataset and file readers reach files only through this interface.
//
// Paths are what the user typed, joined with io::join_path: "/data/t.lance/_versions",
// "s3://bucket/db/t.lance/data/x.lance", "https://host/f.lance?X-Amz-Signature=…".
//
// Usage:
//   auto store = io::store_for("s3://bucket/t.lance", storage);  // storage: io::StorageOptions
//   for (auto& e : store->list("s3://bucket/t.lance/_versions")) ...   // names in that directory
//   Bytes manifest = store->read_all("s3://bucket/t.lance/_versions/1.manifest");
//   auto file = store->open("s3://bucket/t.lance/data/x.lance");      // one tail GET
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "io/file.h"
#include "io/scheduler.h"
#include "io/storage_options.h"

namespace lance::io {

/// One entry of a directory listing.
struct ListEntry {
  std::string name;   ///< the last path component (no '/')
  uint64_t size = 0;  ///< bytes (0 for directories)
  bool is_dir = false;
};

class ObjectStore {
 public:
  virtual ~ObjectStore() = default;

  /// True for stores behind a network (their requests cost a round trip).
  virtual bool remote() const = 0;

  /// The entries directly inside directory `dir` (for object stores: keys under `dir/`,
  /// one level, common prefixes as directories), in no particular order. Throws Error(io)
  /// naming `dir` when it cannot be listed; an object store lists a missing prefix as empty.
  virtual std::vector<ListEntry> list(const std::string& dir) const = 0;

  /// `list(dir)` when it holds at most `max_entries` entries, else nullopt; object stores
  /// find out with one bounded request (ListObjectsV2 max-keys) instead of listing it all.
  virtual std::optional<std::vector<ListEntry>> list_if_at_most(const std::string& dir, size_t max_entries) const {
    auto all = list(dir);
    if (all.size() > max_entries) return std::nullopt;
    return all;
  }

  /// Whether `path` is a directory (object stores: some key starts with `path/`).
  virtual bool is_directory(const std::string& path) const = 0;

  /// Size of the file, or nullopt when it does not exist. Throws Error(io) on other failures.
  virtual std::optional<uint64_t> size_of(const std::string& path) const = 0;

  /// Opens a file for positional reads. Remote stores fetch the file's tail speculatively
  /// (a suffix-range GET that also yields the size), so opening a Lance file costs one request.
  /// Throws Error(io) naming the path when it does not exist or cannot be read.
  virtual std::shared_ptr<RandomAccessFile> open(const std::string& path) const = 0;

  /// The whole file (manifests, deletion files). Throws Error(io) like `open`.
  virtual Bytes read_all(const std::string& path) const = 0;

  /// Starts fetching files in the background (remote stores; a no-op for local files): a
  /// later `open` of a path in `open_paths`, or `read_all` of one in `read_paths`, takes the
  /// prefetched result (once; errors surface there). Lets a dataset fetch the data-file tails
  /// and deletion files of several fragments in one round trip instead of one after another.
  /// An open's `tail_bytes` (0: the store's tail_read_size) is how much of the file's end the
  /// opening GET fetches; the file's whole size makes the open read all of it, and every later
  /// read of the file is then served from memory.
  struct OpenAhead {
    std::string path;
    uint64_t tail_bytes = 0;
  };
  virtual void prefetch(const std::vector<OpenAhead>& open_paths, const std::vector<std::string>& read_paths) const {}

  /// Scheduler settings for files of this store: `base` with the store's coalescing gap,
  /// largest request and parallelism (remote stores derive them from StorageOptions).
  virtual IoOptions tune(IoOptions base) const { return base; }

  /// Remote stores: the largest file a read that needs all of it fetches when it opens the
  /// file (in concurrent pieces); 0 for local files.
  virtual uint64_t whole_file_limit() const { return 0; }
  /// Remote stores: how much of a file's end the opening GET fetches
  /// (StorageOptions::effective_tail_read_size); 0 for local files.
  virtual uint64_t tail_read_size() const { return 0; }
  /// Remote stores: the coalescing gap (StorageOptions::effective_coalesce_gap); 0 for local files.
  virtual uint64_t coalesce_gap() const { return 0; }
  /// Remote stores: bytes one round trip is worth (StorageOptions::round_trip_bytes); 0 for local files.
  virtual uint64_t round_trip_bytes() const { return 0; }
};

/// The local file system (pread, std::filesystem).
class LocalStore final : public ObjectStore {
 public:
  bool remote() const override { return false; }
  std::vector<ListEntry> list(const std::string& dir) const override;
  bool is_directory(const std::string& path) const override;
  std::optional<uint64_t> size_of(const std::string& path) const override;
  std::shared_ptr<RandomAccessFile> open(const std::string& path) const override;
  Bytes read_all(const std::string& path) const override;
};

/// The store for `path`'s scheme: LocalStore for local paths, an S3 store for s3://, an HTTP
/// store for http(s)://, configured by `options`. Throws Error(usage) for unknown schemes and
/// bad settings (e.g. an http:// endpoint without allow_http).
std::shared_ptr<ObjectStore> store_for(const std::string& path, const StorageOptions& options);
/// Same, with default StorageOptions (AWS, credentials unset: unsigned requests).
std::shared_ptr<ObjectStore> store_for(const std::string& path);

/// `store` itself when given (not owned: the caller keeps it alive), else `store_for(path)` with
/// default options. For functions that take an optional store so that local callers need none.
std::shared_ptr<const ObjectStore> store_or_default(const ObjectStore* store, const std::string& path);

/// Opens one file through its store (default options).
std::shared_ptr<RandomAccessFile> open_file(const std::string& path);

}  // namespace lance::io
