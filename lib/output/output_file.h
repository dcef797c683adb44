// The destination of command output: stdout, or a file that appears only when complete.
#pragma once

#include <string>

namespace lance::output {

/// Standard output, or (`-o FILE`) a temporary file in FILE's directory that is renamed to
/// FILE by `commit()`, so a failed or interrupted run never leaves a partial FILE behind
/// (and an existing FILE is replaced atomically).
///
/// Usage: `OutputFile f(path); OutputSink sink(f.fd()); ...; sink.flush(); f.commit();`
/// Without `commit()` the destructor removes the temporary file.
/// The new file gets the permissions of a newly created file (0666 minus the umask).
class OutputFile {
 public:
  /// `path` empty or "-": standard output. Throws Error(io) when the temporary file cannot
  /// be created (e.g. the directory does not exist or is not writable).
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  int fd() const { return fd_; }
  bool is_stdout() const { return temp_path_.empty(); }

  /// Closes the temporary file and renames it to the target path (no-op for stdout).
  /// Throws Error(io) on failure (the temporary file is then removed).
  void commit();

 private:
  std::string path_;
  std::string temp_path_;
  int fd_ = 1;
};

}  // namespace lance::output
