// The destination of command output: stdout, or a file that appears only when complete.
#pragma once

#include <string>

namespace lance::output {

/// Standard output, or the file of `-o FILE`:
/// - FILE missing or a regular file (also through symbolic links): output goes to a temporary
///   file in the directory of the file FILE resolves to, renamed over it by `commit()`, so a
///   failed or interrupted run never leaves a partial FILE behind and an existing FILE is
///   replaced atomically. The new file keeps an existing file's permission bits (else 0666
///   minus the umask); a link stays a link. Hard links to the old file keep the old content.
/// - FILE a device, FIFO or socket (e.g. /dev/null, a named pipe), any path under /dev/ or
///   /proc/ (/dev/stdout, /proc/self/fd/N), or a link to a file not there yet: output is
///   written to it directly; nothing is replaced.
///
/// Usage: `OutputFile f(path); OutputSink sink(f.fd()); ...; sink.flush(); f.commit();`
/// Without `commit()` the destructor removes the temporary file.
/// Async-signal-safe: removes the temporary file of the OutputFile being written, if any. For
/// a signal handler about to `_exit` (a second SIGINT), so no partial output is left behind.
void remove_temporary_output() noexcept;

class OutputFile {
 public:
  /// `path` empty or "-": standard output. Throws Error(usage) when FILE is a directory,
  /// Error(io) when the file cannot be created or opened (e.g. the directory does not exist
  /// or is not writable).
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  int fd() const { return fd_; }
  /// Output goes to the process's standard output (progress reports are then off).
  bool is_stdout() const { return path_.empty(); }

  /// Closes the file; renames a temporary file to the target (no-op for stdout).
  /// Throws Error(io) on failure (the temporary file is then removed).
  void commit();

 private:
  std::string path_;       ///< as given; empty for stdout
  std::string target_;     ///< the regular file the temporary file replaces
  std::string temp_path_;  ///< empty unless writing through a temporary file
  int fd_ = 1;
};

}  // namespace lance::output
