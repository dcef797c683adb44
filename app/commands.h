// Subcommands of lance-cli. Each register_* adds a CLI11 subcommand whose callback
// stores the work to run in `CommandRunner::command` (run after parsing succeeds).
#pragma once

#include <functional>

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

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

/// The check of every --version option: a decimal version number below 2^63 (no sign, no
/// wrap-around), so a bad value is a usage error that repeats it.
inline CLI::Validator version_number() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        const bool digits = !v.empty() && v.size() <= 19 && v.find_first_not_of("0123456789") == std::string::npos;
        if (digits && std::stoull(v) <= static_cast<unsigned long long>(INT64_MAX)) return "";
        return "takes a dataset version number (0, 1, 2, …), got '" + v + "'";
      },
      "VERSION");
}

}  // namespace lance::app
