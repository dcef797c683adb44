// Where files live: the local file system, an S3-compatible object store, or a plain HTTP
// server. The dataset and file readers reach files only through this interface.
//
// Paths are what the user typed, joined with io::join_path: "/data/t.lance/_versions",
// "s3://bucket/db/t.lance/data/x.lance", "https://host/f.lance?X-Amz-Signature=…".
//
// Usage:
//   auto store = io::store_for("s3://bucket/t.lance", storage, stats);  // io/remote/stores.h
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

namespace lance::io {

/// One entry of a directory listing.
struct ListEntry {
  std::string name;   ///< the last path component (no '/')
  uint64_t size = 0;  ///< bytes (0 for directories)
  bool is_dir = false;
};

/// The costs of a store's requests, as the read-ahead decisions (lib/read/read_ahead.h) need
/// them; like Arrow's io::CacheOptions::MakeFromNetworkMetrics, from the store's settings
/// (StorageOptions). All zero for the local file system: nothing is read ahead.
struct NetworkModel {
  bool remote = false;              ///< requests cost a round trip (an object store, a web server)
  uint64_t round_trip_bytes = 0;    ///< bytes a transfer moves in the time of one round trip
  uint64_t tail_read_size = 0;      ///< bytes of a file's end its opening GET fetches
  uint64_t whole_file_limit = 0;    ///< largest file an open may fetch whole (in concurrent pieces)
  uint64_t coalesce_gap = 0;        ///< holes up to this many bytes are read rather than split into two requests
  unsigned requests_in_flight = 0;  ///< concurrent requests the store's I/O pool runs
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
    /// The file's size (from a listing) when the read needs its first bytes too and the file
    /// is too large to fetch whole (a full scan): the opening then also fetches the file's
    /// first read-ahead cells, at the same time as its tail. 0: the tail only.
    uint64_t head_of = 0;
  };
  virtual void prefetch(const std::vector<OpenAhead>& open_paths, const std::vector<std::string>& read_paths) const {}

  /// Scheduler settings for files of this store: `base` with the store's coalescing gap,
  /// largest request and parallelism (remote stores derive them from StorageOptions).
  virtual IoOptions tune(IoOptions base) const { return base; }

  /// What a request to this store costs and how it fetches (read::read_ahead decides from it
  /// what to fetch before it is needed). The local store's model is all zeros: nothing ahead.
  virtual NetworkModel network_model() const { return {}; }
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

/// The process's one LocalStore (for callers that read local files only: tests, tools).
const LocalStore& local_store();

}  // namespace lance::io
