#include "output/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/cancel.h"
#include "common/error.h"

namespace lance::output {

namespace {

/// The directory part of `path` ("." when there is none) and the file name.
std::pair<std::string, std::string> split_path(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

/// The file a symbolic link at `path` finally names (the path itself when it is not a link);
/// empty when a link in the chain dangles.
std::string resolve_links(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf) == nullptr) return {};
  return buf;
}

/// The temporary file being written (a copy of its path that lives as long as it does), for
/// remove_temporary_output; null when there is none.
std::atomic<const char*> g_temp_path{nullptr};

}  // namespace

void remove_temporary_output() noexcept {
  if (const char* p = g_temp_path.exchange(nullptr)) ::unlink(p);
}

OutputFile::OutputFile(const std::string& path) {
  if (path.empty() || path == "-") return;
  path_ = path;
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw_usage("{}: output path is a directory", path);
  // Paths under /dev and /proc (e.g. /dev/stdout, /proc/self/fd/1) name open files or
  // devices: written in place even when they resolve to a regular file.
  const bool special = path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
  std::string target = special ? std::string() : resolve_links(path);
  if ((exists && !S_ISREG(st.st_mode)) || target.empty()) {
    // A device, FIFO or socket (or a link to a file not yet there): write to it in place.
    int fd = -1;
    while ((fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)) < 0 && errno == EINTR)
      check_cancelled();  // a FIFO without a reader blocks here until a signal
    if (fd < 0) throw_io("{}: cannot open the output file: {}", path, std::strerror(errno));
    fd_ = fd;
    return;
  }
  auto [dir, name] = split_path(target);
  if (name.empty()) throw_usage("{}: output path names a directory", path);
  std::string templ = (dir == "/" ? "" : dir) + "/." + name + ".tmp.XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  const int fd = ::mkstemp(buf.data());
  if (fd < 0) throw_io("{}: cannot create the output file: {}", path, std::strerror(errno));
  fd_ = fd;
  temp_path_ = buf.data();
  g_temp_path.store(temp_path_.c_str());
  target_ = target;
  // mkstemp creates 0600; keep an existing file's mode, else the one open(O_CREAT, 0666) gives.
  mode_t mode = 0;
  if (exists) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  ::fchmod(fd_, mode);
}

OutputFile::~OutputFile() {
  if (path_.empty()) return;
  if (fd_ >= 0) ::close(fd_);
  if (!temp_path_.empty()) {
    g_temp_path.store(nullptr);
    ::unlink(temp_path_.c_str());
  }
}

void OutputFile::commit() {
  if (path_.empty() || fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw_io("{}: cannot write the output file: {}", path_, std::strerror(errno));
  if (temp_path_.empty()) return;
  g_temp_path.store(nullptr);  // from here on the file is the output, not a leftover
  if (::rename(temp_path_.c_str(), target_.c_str()) != 0)
    throw_io("{}: cannot write the output file: {}", path_, std::strerror(errno));
  temp_path_.clear();
}

}  // namespace lance::output
