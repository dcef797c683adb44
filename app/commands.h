// Subcommands of lance-cli. Each register_* adds a CLI11 subcommand whose callback
// stores the work to run in `CommandRunner::command` (run after parsing succeeds).
#pragma once

#include <functional>

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

}  // namespace lance::app
