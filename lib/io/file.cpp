#include "io/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
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

void RandomAccessFile::read_extents(uint64_t offset, uint64_t length, std::span<const ReadExtent> extents) const {
  Bytes buf(length);
  read_at(offset, length, buf.data());
  size_t cursor = 0;
  copy_into_extents(extents, offset, buf.data(), length, cursor);
}

void LocalFile::read_at(uint64_t offset, uint64_t length, uint8_t* out) const {
  check_corrupt(offset <= size_ && length <= size_ - offset, "read of [{}, +{}) passes the end of the file ({} bytes)",
                offset, length, size_);
  uint64_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(fd_, out + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_io("{}: read at {}: {}", path_, offset + done, std::strerror(errno));
    }
    if (n == 0) throw_io("{}: unexpected end of file at {} (file shrank while reading?)", path_, offset + done);
    done += static_cast<uint64_t>(n);
  }
}

bool LocalFile::read_at_if_cached(uint64_t offset, uint64_t length, uint8_t* out) const {
  check_corrupt(offset <= size_ && length <= size_ - offset, "read of [{}, +{}) passes the end of the file ({} bytes)",
                offset, length, size_);
  uint64_t done = 0;
  while (done < length) {
    if (nowait_unsupported_.load(std::memory_order_relaxed)) {
      read_at(offset + done, length - done, out + done);
      return true;
    }
    iovec io{out + done, static_cast<size_t>(length - done)};
    ssize_t n = ::preadv2(fd_, &io, 1, static_cast<off_t>(offset + done), RWF_NOWAIT);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) return false;  // not (all) in the page cache: a read that would wait
      if (errno == EOPNOTSUPP || errno == EINVAL || errno == ENOSYS) {
        nowait_unsupported_.store(true, std::memory_order_relaxed);
        continue;
      }
      throw_io("{}: read at {}: {}", path_, offset + done, std::strerror(errno));
    }
    if (n == 0) throw_io("{}: unexpected end of file at {} (file shrank while reading?)", path_, offset + done);
    done += static_cast<uint64_t>(n);
  }
  return true;
}

void MemoryFile::read_at(uint64_t offset, uint64_t length, uint8_t* out) const {
  check_corrupt(offset <= data_.size() && length <= data_.size() - offset,
                "read of [{}, +{}) passes the end of the file ({} bytes)", offset, length, data_.size());
  if (length) std::memcpy(out, data_.data() + offset, length);
}

}  // namespace lance::io
