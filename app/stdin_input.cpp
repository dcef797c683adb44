#include "app/stdin_input.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/cancel.h"
#include "common/error.h"

namespace lance::app {

namespace {

constexpr size_t kSpoolBufferBytes = 1 << 20;

/// Writes all of `n` bytes, retrying short writes and EINTR.
void write_all(int fd, const char* data, size_t n, const std::string& name) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) {
        check_cancelled();
        continue;
      }
      throw_io("-: cannot spool standard input to {}: {}", name, std::strerror(errno));
    }
    data += w;
    n -= static_cast<size_t>(w);
  }
}

int spool_stdin() {
  if (::isatty(STDIN_FILENO)) throw_usage("-: standard input is a terminal; pipe or redirect a .lance file into it");
  const char* tmp = std::getenv("TMPDIR");
  std::string name = std::string(tmp && *tmp ? tmp : "/tmp") + "/lance-cli-stdin-XXXXXX";
  std::vector<char> templ(name.begin(), name.end());
  templ.push_back('\0');
  const int fd = ::mkstemp(templ.data());
  if (fd < 0) throw_io("-: cannot create a temporary file in {}: {}", name, std::strerror(errno));
  name = templ.data();
  ::unlink(name.c_str());  // the open descriptor keeps the data; nothing is left at exit
  std::vector<char> buf(kSpoolBufferBytes);
  for (;;) {
    const ssize_t r = ::read(STDIN_FILENO, buf.data(), buf.size());
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) {
        check_cancelled();
        continue;
      }
      throw_io("-: cannot read standard input: {}", std::strerror(errno));
    }
    write_all(fd, buf.data(), static_cast<size_t>(r), name);
  }
  return fd;
}

}  // namespace

namespace {
std::string g_spool_path;  // set once, by the first input_path("-")
}

std::string input_path(const std::string& path) {
  if (path != "-") return path;
  static const int fd = spool_stdin();
  g_spool_path = "/dev/fd/" + std::to_string(fd);
  return g_spool_path;
}

std::string name_stdin_as_dash(std::string message) {
  if (g_spool_path.empty()) return message;
  for (size_t at = message.find(g_spool_path); at != std::string::npos; at = message.find(g_spool_path, at + 1)) {
    const size_t end = at + g_spool_path.size();
    if (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end]))) continue;  // /dev/fd/31 vs 3
    message.replace(at, g_spool_path.size(), "-");
  }
  return message;
}

}  // namespace lance::app
