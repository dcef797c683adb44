// Files with positional reads: the only place the library touches the file system.
#pragma once

#include <sys/uio.h>

#include <atomic>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "io/coalesce.h"

namespace lance::io {

/// A read-only file addressed by absolute byte offsets. Thread-safe.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual const std::string& path() const = 0;
  virtual uint64_t size() const = 0;
  /// Reads exactly `length` bytes at `offset` into `out`.
  /// Throws Error(io) on an OS error, Error(corrupt) when the range passes the end of file.
  virtual void read_at(uint64_t offset, uint64_t length, uint8_t* out) const = 0;
  /// Like read_at, but only when the bytes can be had without waiting for a device: returns
  /// false (with `out` partly written, perhaps) when some are not in memory. The default reads
  /// and returns true. The I/O scheduler reads small ranges on the asking thread this way, and
  /// hands those that would wait to its pool, where they wait in parallel.
  virtual bool read_at_if_cached(uint64_t offset, uint64_t length, uint8_t* out) const {
    read_at(offset, length, out);
    return true;
  }
  /// Reads bytes [offset, offset + length) but keeps only `extents` (inside that range, sorted
  /// by offset, possibly overlapping), each copied to its `out`: a coalesced read that spans
  /// holes. The default reads the range into a temporary buffer; a remote file drops the holes'
  /// bytes as they arrive, so they never take memory. Throws like read_at.
  virtual void read_extents(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents) const;
  /// read_extents under read_at_if_cached's rule: false (extents partly written, perhaps) when
  /// some bytes are not in memory. The default reads through a temporary buffer.
  virtual bool read_extents_if_cached(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents) const;
  /// Advice (a no-op for local files): a scan will read parts of each of `units` (e.g. the
  /// buffers of the pages it reads), front to back. A remote file then fetches a unit whole,
  /// in one request, when a read first touches it, and serves the unit's later reads from
  /// memory: the batches of a page cost one round trip instead of one each.
  virtual void will_read(const std::vector<ByteRange>& units) const {}
  /// Whether every byte is already in memory (a remote file fetched whole): reads are then
  /// copies, and the I/O scheduler reads exactly the ranges asked for, on the asking thread.
  virtual bool in_memory() const { return false; }
};

/// A local file read with pread(2).
class LocalFile final : public RandomAccessFile {
 public:
  /// Opens `path` for reading; throws Error(io) naming the path and the OS reason.
  static std::shared_ptr<LocalFile> open(const std::string& path);
  ~LocalFile() override;
  const std::string& path() const override { return path_; }
  uint64_t size() const override { return size_; }
  void read_at(uint64_t offset, uint64_t length, uint8_t* out) const override;
  /// preadv2(2) with RWF_NOWAIT: false as soon as the page cache lacks a byte (EAGAIN). A
  /// kernel or file system without the flag for buffered reads reads as read_at does.
  bool read_at_if_cached(uint64_t offset, uint64_t length, uint8_t* out) const override;
  /// preadv(2) straight into the extents' buffers; the holes between them land in a scratch
  /// buffer. Overlapping extents go through a temporary buffer, as the default does.
  void read_extents(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents) const override;
  /// The same with RWF_NOWAIT (preadv2(2)).
  bool read_extents_if_cached(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents) const override;

 private:
  LocalFile(std::string path, int fd, uint64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}
  std::string path_;
  int fd_;
  uint64_t size_;
  mutable std::atomic<bool> nowait_unsupported_{false};
  /// Throws Error(corrupt) when [offset, offset + length) passes the end of the file.
  void check_range(uint64_t offset, uint64_t length) const;
  /// Reads `iov` (consecutive file bytes from `offset`) whole, resuming after short reads and
  /// EINTR; with `nowait` (RWF_NOWAIT, plain reads where unsupported), false as soon as the
  /// page cache lacks a byte.
  bool readv_all(std::vector<iovec>& iov, uint64_t offset, bool nowait) const;
  bool scatter_read(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents, bool nowait) const;
};

/// An in-memory file, for tests and fuzzing.
class MemoryFile final : public RandomAccessFile {
 public:
  MemoryFile(std::string name, Bytes data) : name_(std::move(name)), data_(std::move(data)) {}
  const std::string& path() const override { return name_; }
  uint64_t size() const override { return data_.size(); }
  void read_at(uint64_t offset, uint64_t length, uint8_t* out) const override;
  bool in_memory() const override { return true; }

 private:
  std::string name_;
  Bytes data_;
};

}  // namespace lance::io
