#include "output/sink.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

#include <cstring>
#include "common/cancel.h"

#include "common/error.h"

namespace lance::output {

OutputSink::OutputSink(int fd, size_t block_size)
    : fd_(fd), block_size_(block_size == 0 ? 1 : block_size), buffer_(new char[block_size_]) {}

OutputSink::~OutputSink() {
  try {
    flush();
  } catch (...) {  // NOLINT: a destructor must not throw; flush() explicitly to see errors
  }
}

void OutputSink::write(std::string_view data) {
  if (failed_) return;
  if (data.size() <= block_size_ - used_) {
    std::memcpy(buffer_.get() + used_, data.data(), data.size());
    used_ += data.size();
    return;
  }
  flush();
  if (data.size() >= block_size_) {
    write_fully(data.data(), data.size());
  } else {
    std::memcpy(buffer_.get(), data.data(), data.size());
    used_ = data.size();
  }
}

void OutputSink::flush() {
  if (failed_ || used_ == 0) return;
  const size_t n = used_;
  used_ = 0;
  write_fully(buffer_.get(), n);
}

void OutputSink::write_fully(const char* data, size_t size) {
  while (size > 0) {
    if (cancel_signal()) {  // a signal interrupted a blocked write (EINTR or a short write): stop
      failed_ = true;
      used_ = 0;
      check_cancelled();
    }
    const ssize_t n = ::write(fd_, data, size);
    if (n > 0) {
      data += n;
      size -= static_cast<size_t>(n);
      bytes_written_ += static_cast<size_t>(n);
      continue;
    }
    const int err = n < 0 ? errno : EIO;  // a zero-byte write of a non-empty buffer: give up
    if (err == EINTR) continue;
    if (err == EAGAIN || err == EWOULDBLOCK) {
      pollfd p{fd_, POLLOUT, 0};
      if (::poll(&p, 1, -1) >= 0 || errno == EINTR) continue;
    }
    failed_ = true;
    used_ = 0;
    if (err == EPIPE) throw OutputClosed();
    if (!name_.empty()) throw_io("{}: cannot write output: {}", name_, std::strerror(err));
    throw_io("cannot write output: {}", std::strerror(err));
  }
}

}  // namespace lance::output
