#include "output/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "common/error.h"

namespace lance::output {

namespace {

/// The directory part of `path` ("." when there is none) and the file name.
std::pair<std::string, std::string> split_path(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

}  // namespace

OutputFile::OutputFile(const std::string& path) : path_(path) {
  if (path.empty() || path == "-") return;
  auto [dir, name] = split_path(path);
  if (name.empty()) throw_usage("{}: output path names a directory", path);
  std::string templ = (dir == "/" ? "" : dir) + "/." + name + ".tmp.XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  const int fd = ::mkstemp(buf.data());
  if (fd < 0) throw_io("{}: cannot create the output file: {}", path, std::strerror(errno));
  fd_ = fd;
  temp_path_ = buf.data();
  // mkstemp creates 0600; give the file the mode open(O_CREAT, 0666) would.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
}

OutputFile::~OutputFile() {
  if (temp_path_.empty()) return;
  if (fd_ >= 0) ::close(fd_);
  ::unlink(temp_path_.c_str());
}

void OutputFile::commit() {
  if (temp_path_.empty()) return;
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw_io("{}: cannot write the output file: {}", path_, std::strerror(errno));
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0)
    throw_io("{}: cannot write the output file: {}", path_, std::strerror(errno));
  temp_path_.clear();
}

}  // namespace lance::output
