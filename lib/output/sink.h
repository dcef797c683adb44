// Buffered output to a file descriptor (stdout by default) for the text and Arrow writers.
#pragma once

#include <cstddef>
#include <exception>
#include <memory>
#include <string>
#include <string_view>

namespace lance::output {

/// The reader of our output went away (a write failed with EPIPE, e.g. `scan ... | head`).
/// Not an `Error`: the CLI ends quietly with exit code 0.
class OutputClosed : public std::exception {
 public:
  const char* what() const noexcept override { return "output closed"; }
};

/// Collects writes in one large block and writes it to `fd` when full or on `flush()`.
///
/// Usage: `OutputSink sink;` (stdout) or `OutputSink sink(fd);`, then `sink.write(text)`
/// any number of times and `sink.flush()` at the end. A write larger than the block
/// bypasses it. Writes resume after EINTR and partial writes and wait on a non-blocking
/// descriptor that is full. EPIPE throws `OutputClosed`; any other failure (ENOSPC, EIO,
/// ...) throws `Error` of kind io with the errno text. After a failure the sink drops its
/// buffer and every later write or flush is a no-op, so unwinding never writes twice.
/// The destructor flushes what is left but swallows errors: call `flush()` to see them.
/// The descriptor is not closed.
class OutputSink {
 public:
  /// 1 MiB: few system calls per megabyte of output, small enough to stay in cache.
  static constexpr size_t kDefaultBlockSize = size_t{1} << 20;

  explicit OutputSink(int fd = 1, size_t block_size = kDefaultBlockSize);
  ~OutputSink();
  OutputSink(const OutputSink&) = delete;
  OutputSink& operator=(const OutputSink&) = delete;

  void write(std::string_view data);
  /// Writes everything buffered to the descriptor.
  void flush();

  int fd() const { return fd_; }
  /// Names the destination in error messages (e.g. the -o path).
  void set_name(std::string name) { name_ = std::move(name); }
  /// Bytes handed to the descriptor so far.
  size_t bytes_written() const { return bytes_written_; }

 private:
  void write_fully(const char* data, size_t size);

  int fd_;
  size_t block_size_;
  std::unique_ptr<char[]> buffer_;  ///< not zero-filled: a page is touched only once written to
  size_t used_ = 0;
  size_t bytes_written_ = 0;
  bool failed_ = false;
  std::string name_;
};

}  // namespace lance::output
