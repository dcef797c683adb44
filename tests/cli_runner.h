// Runs the lance-cli binary from tests and captures its output and exit code.
#pragma once

#include <string>
#include <vector>

namespace lance::testing {

struct CliResult {
  int exit_code = -1;  ///< exit status, or 128 + signal number when killed by a signal
  std::string out;
  std::string err;
  int term_signal = 0;     ///< the signal that ended the process (0: it exited)
  bool timed_out = false;  ///< killed by run_cli_limited after its time bound
};

/// Bounds for run_cli_limited.
struct RunLimits {
  int timeout_ms = 10000;            ///< SIGKILL after this long (then `timed_out`)
  uint64_t address_space_bytes = 0;  ///< RLIMIT_AS of the child (0: unlimited)
  bool keep_stdout = true;           ///< false: stdout is read and dropped
  std::vector<std::string> env;      ///< extra NAME=VALUE entries for the child (replacing inherited ones)
};

/// Runs lance-cli with `args` (no shell), optional stdin text.
CliResult run_cli(const std::vector<std::string>& args, const std::string& stdin_text = "");

/// Runs lance-cli like run_cli, with a time bound and optionally a memory bound (no stdin).
CliResult run_cli_limited(const std::vector<std::string>& args, const RunLimits& limits);

/// True when this test binary (and so lance-cli) is built with AddressSanitizer, where
/// address-space limits cannot be used and everything runs slower.
bool sanitizer_build();

/// Absolute path of a file under the source tree, e.g. source_path("data/fixtures").
std::string source_path(const std::string& rel);

/// Whole file as a string.
std::string read_text(const std::string& path);

}  // namespace lance::testing
