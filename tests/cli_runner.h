// Runs the lance-cli binary from tests and captures its output and exit code.
#pragma once

#include <string>
#include <vector>

namespace lance::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// Runs lance-cli with `args` (no shell), optional stdin text.
CliResult run_cli(const std::vector<std::string>& args, const std::string& stdin_text = "");

/// Absolute path of a file under the source tree, e.g. source_path("data/fixtures").
std::string source_path(const std::string& rel);

/// Whole file as a string.
std::string read_text(const std::string& path);

}  // namespace lance::testing
