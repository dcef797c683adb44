#include "io/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>

namespace lance::io {

std::shared_ptr<LocalFile> LocalFile::open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below); reads of
  // regular files ignore the flag.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw_io("{}: {}", path, std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    throw_io("{}: {}", path, std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw_io("{}: is a directory", path);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw_io("{}: not a regular file (reading needs random access; use - for standard input)", path);
  }
  return std::shared_ptr<LocalFile>(new LocalFile(path, fd, static_cast<uint64_t>(st.st_size)));
}

LocalFile::~LocalFile() { ::close(fd_); }

namespace {

/// The range through a temporary buffer, then its extents copied out; false when `read` is.
template <typename Read>
bool read_through_buffer(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents, Read read) {
  Bytes buf(length);
  if (!read(buf.data())) return false;
  size_t cursor = 0;
  copy_into_extents(extents, offset, buf.data(), length, cursor);
  return true;
}

}  // namespace

void RandomAccessFile::read_extents(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents) const {
  read_through_buffer(offset, length, extents, [&](uint8_t* out) {
    read_at(offset, length, out);
    return true;
  });
}

bool RandomAccessFile::read_extents_if_cached(uint64_t offset, uint64_t length,
                                              std::span<const ReadExtent> extents) const {
  return read_through_buffer(offset, length, extents,
                             [&](uint8_t* out) { return read_at_if_cached(offset, length, out); });
}

void LocalFile::check_range(uint64_t offset, uint64_t length) const {
  check_corrupt(offset <= size_ && length <= size_ - offset, "read of [{}, +{}) passes the end of the file ({} bytes)",
                offset, length, size_);
}

void LocalFile::read_at(uint64_t offset, uint64_t length, uint8_t* out) const {
  check_range(offset, length);
  std::vector<iovec> iov = {{out, static_cast<size_t>(length)}};
  readv_all(iov, offset, /*nowait=*/false);
}

bool LocalFile::read_at_if_cached(uint64_t offset, uint64_t length, uint8_t* out) const {
  check_range(offset, length);
  std::vector<iovec> iov = {{out, static_cast<size_t>(length)}};
  return readv_all(iov, offset, /*nowait=*/true);
}

namespace {
/// The most iovecs one preadv(2) takes (IOV_MAX on Linux).
constexpr size_t kMaxIovecs = 1024;
}  // namespace

bool LocalFile::readv_all(std::vector<iovec>& iov, uint64_t offset, bool nowait) const {
  size_t first = 0;
  while (first < iov.size() && iov[first].iov_len == 0) ++first;
  while (first < iov.size()) {
    const int count = static_cast<int>(std::min(iov.size() - first, kMaxIovecs));
    ssize_t n = 0;
    if (nowait && !nowait_unsupported_.load(std::memory_order_relaxed)) {
      n = ::preadv2(fd_, iov.data() + first, count, static_cast<off_t>(offset), RWF_NOWAIT);
      if (n < 0 && errno == EAGAIN) return false;
      if (n < 0 && (errno == EOPNOTSUPP || errno == EINVAL || errno == ENOSYS)) {
        nowait_unsupported_.store(true, std::memory_order_relaxed);
        continue;
      }
    } else {
      n = ::preadv(fd_, iov.data() + first, count, static_cast<off_t>(offset));
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_io("{}: read at {}: {}", path_, offset, std::strerror(errno));
    }
    if (n == 0) throw_io("{}: unexpected end of file at {} (file shrank while reading?)", path_, offset);
    offset += static_cast<uint64_t>(n);
    // Past the iovecs this read filled; a short read resumes inside one.
    auto left = static_cast<size_t>(n);
    while (left > 0) {
      iovec& v = iov[first];
      const size_t step = std::min(left, v.iov_len);
      v.iov_base = static_cast<uint8_t*>(v.iov_base) + step;
      v.iov_len -= step;
      left -= step;
      if (v.iov_len == 0) ++first;
    }
    while (first < iov.size() && iov[first].iov_len == 0) ++first;
  }
  return true;
}

bool LocalFile::scatter_read(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents, bool nowait) const {
  check_range(offset, length);
  // Sorted, disjoint extents inside the range are read in place; anything else through a buffer.
  uint64_t pos = 0, max_hole = 0;
  bool started = false, in_place = true;
  for (const ReadExtent& e : extents) {
    if (e.length == 0) continue;
    if (e.offset < offset || e.end() > offset + length || (started && e.offset < pos)) {
      in_place = false;
      break;
    }
    if (started) max_hole = std::max(max_hole, e.offset - pos);
    started = true;
    pos = e.end();
  }
  if (!in_place) {
    if (nowait) return RandomAccessFile::read_extents_if_cached(offset, length, extents);
    RandomAccessFile::read_extents(offset, length, extents);
    return true;
  }
  if (!started) return true;
  // The bytes before the first extent and after the last are not read at all; those between
  // extents go to one scratch buffer, never looked at (uninitialised: nothing zeroes it).
  std::unique_ptr<uint8_t[]> scratch(max_hole ? new uint8_t[max_hole] : nullptr);
  std::vector<iovec> iov;
  iov.reserve(extents.size() * 2);
  uint64_t first = 0;
  started = false;
  for (const ReadExtent& e : extents) {
    if (e.length == 0) continue;
    if (!started) first = e.offset;
    if (started && e.offset > pos) iov.push_back({scratch.get(), static_cast<size_t>(e.offset - pos)});
    iov.push_back({e.out, static_cast<size_t>(e.length)});
    started = true;
    pos = e.end();
  }
  return readv_all(iov, first, nowait);
}

void LocalFile::read_extents(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents) const {
  scatter_read(offset, length, extents, /*nowait=*/false);
}

bool LocalFile::read_extents_if_cached(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents) const {
  return scatter_read(offset, length, extents, /*nowait=*/true);
}

void MemoryFile::read_at(uint64_t offset, uint64_t length, uint8_t* out) const {
  check_corrupt(offset <= data_.size() && length <= data_.size() - offset,
                "read of [{}, +{}) passes the end of the file ({} bytes)", offset, length, data_.size());
  if (length) std::memcpy(out, data_.data() + offset, length);
}

}  // namespace lance::io
