// Subcommands of lance-cli. Each register_* adds a CLI11 subcommand whose callback
// stores the work to run in `CommandRunner::command` (run after parsing succeeds).
#pragma once

#include <functional>

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/error.h"
#include "io/remote/uri.h"

namespace lance::app {

struct CommandRunner {
  std::function<void()> command;
};

void register_scan(CLI::App& app, CommandRunner& run);
void register_take(CLI::App& app, CommandRunner& run);
void register_inspect(CLI::App& app, CommandRunner& run);
void register_schema(CLI::App& app, CommandRunner& run);  // shorthand for `inspect schema`
void register_count(CLI::App& app, CommandRunner& run);
void register_head(CLI::App& app, CommandRunner& run);
void register_verify(CLI::App& app, CommandRunner& run);
void register_help(CLI::App& app, CommandRunner& run);  // help [COMMAND]: that command's --help
void register_plan(CLI::App& app, CommandRunner& run);
void register_search(CLI::App& app, CommandRunner& run);
void register_completions(CLI::App& app, CommandRunner& run);  // completions SHELL, and the hidden `man`

/// Drops the leading zeros of a decimal number ("010" -> "10"), so CLI11, which reads a
/// leading 0 as octal and 0x as hex, converts what the user meant. Other text is left alone.
inline void strip_leading_zeros(std::string& v) {
  if (v.size() > 1 && v.find_first_not_of("0123456789") == std::string::npos) {
    const size_t nz = v.find_first_not_of('0');
    v.erase(0, nz == std::string::npos ? v.size() - 1 : nz);
  }
}

/// The transform of every numeric option: decimal digits only ("010" is ten, "0x10" and
/// "1e3" are usage errors naming the value). No description: the help text is unchanged.
inline CLI::Validator decimal_number() {
  CLI::Validator v(
      [](std::string& s) -> std::string {
        const std::string digits = s.size() > 1 && s[0] == '-' ? s.substr(1) : s;  // a sign: the option's own error
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
          return "takes a decimal number, got '" + s + "'";
        strip_leading_zeros(s);
        return "";
      },
      "");
  return v;
}

/// The transform of every PATH argument: a `file://` URI becomes the local path it names
/// (io::local_path_of_file_uri); other paths and URIs pass unchanged. No description.
inline CLI::Validator path_argument() {
  CLI::Validator v(
      [](std::string& s) -> std::string {
        try {
          s = io::local_path_of_file_uri(s);
        } catch (const Error& e) {
          return e.message();
        }
        return "";
      },
      "");
  return v;
}

/// The check of every --version option: a decimal version number below 2^63 (no sign, no
/// wrap-around), so a bad value is a usage error that repeats it. Leading zeros are dropped
/// ("010" is version 10).
inline CLI::Validator version_number() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        const bool digits = !v.empty() && v.find_first_not_of("0123456789") == std::string::npos;
        if (digits) strip_leading_zeros(v);
        if (digits && v.size() <= 19 && std::stoull(v) <= static_cast<unsigned long long>(INT64_MAX)) return "";
        return "takes a dataset version number (0, 1, 2, …), got '" + v + "'";
      },
      "VERSION");
}

/// -c naming a column twice would give JSON objects with a repeated key: a usage error.
inline void check_distinct_columns(const std::vector<std::string>& columns) {
  for (size_t i = 0; i < columns.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (columns[i] == columns[j])
        throw CLI::ValidationError("--columns", "column '" + columns[i] + "' is named twice");
}

}  // namespace lance::app
