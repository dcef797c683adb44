// Test helpers for CLI behaviour that depends on the environment: environment variables set
// for one scope, temporary directories, and running lance-cli under a pseudo-terminal.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lance::testing {

/// Sets (or with nullopt unsets) an environment variable until the end of the scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

/// A fresh empty directory under the system temp dir, removed with its contents at the end.
class TempDir {
 public:
  explicit TempDir(const std::string& tag);
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  /// Names of the entries in the directory, sorted.
  std::vector<std::string> entries() const;

 private:
  std::filesystem::path path_;
};

/// Writes `bytes` to `p`, replacing what was there. Throws std::runtime_error when the file
/// cannot be written.
void write_file(const std::filesystem::path& p, const std::string& bytes);

/// Quotes `s` for sh.
std::string shell_quote(const std::string& s);

/// Whether util-linux `script` is available to give a command a pseudo-terminal.
bool have_script();

struct PtyResult {
  int exit_code = -1;
  std::string tty;  ///< everything the command wrote to the terminal (stdout and stderr)
};

/// Runs `sh -c shell_command` under `script` (stdin, stdout and stderr a pseudo-terminal
/// unless the command redirects them). `LANCE_CLI` in the command is the binary's path.
PtyResult run_in_pty(const std::string& shell_command);

/// The lance-cli binary under test.
std::string cli_binary();

}  // namespace lance::testing
