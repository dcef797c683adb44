#include "cli_env.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace lance::testing {

ScopedEnv::ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
  if (const char* old = std::getenv(name)) old_ = old;
  if (value)
    ::setenv(name, value->c_str(), 1);
  else
    ::unsetenv(name);
}

ScopedEnv::~ScopedEnv() {
  if (old_)
    ::setenv(name_.c_str(), old_->c_str(), 1);
  else
    ::unsetenv(name_.c_str());
}

TempDir::TempDir(const std::string& tag) {
  static int counter = 0;
  path_ = std::filesystem::temp_directory_path() /
          ("lance-cli-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<std::string> TempDir::entries() const {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(path_)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

void write_file(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string cli_binary() { return LANCE_CLI_BINARY; }

bool have_script() { return std::system("command -v script >/dev/null 2>&1") == 0; }

PtyResult run_in_pty(const std::string& shell_command) {
  std::string cmd = shell_command;
  for (size_t p = cmd.find("LANCE_CLI"); p != std::string::npos; p = cmd.find("LANCE_CLI", p)) {
    // only the bare word, not LANCE_CLI_* variables
    if (p + 9 < cmd.size() && cmd[p + 9] == '_') {
      p += 9;
      continue;
    }
    cmd.replace(p, 9, shell_quote(cli_binary()));
    p += cli_binary().size();
  }
  const std::string full = "script -q -e -c " + shell_quote(cmd) + " /dev/null </dev/null";
  FILE* f = ::popen(full.c_str(), "r");
  if (!f) throw std::runtime_error("popen failed");
  PtyResult r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) r.tty.append(buf, n);
  const int status = ::pclose(f);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace lance::testing
