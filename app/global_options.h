// Options every command takes (before or after the command name): -v/--verbose, -q/--quiet,
// --color, and the program's --version.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace lance::app {

/// "lance-cli X.Y.Z (reads Lance file formats 2.0, 2.1, 2.2, 2.3)".
std::string version_text();

struct GlobalOptions {
  int verbosity = 0;           ///< -v: info, -vv: debug (default: warnings only)
  bool quiet = false;          ///< -q: no progress line
  std::string color = "auto";  ///< --color=auto|always|never
};

/// Adds the global options to `app`. Call before adding subcommands: they inherit
/// `fallthrough`, so `lance-cli scan t.lance -q` works like `lance-cli -q scan t.lance`.
void register_global_options(CLI::App& app, GlobalOptions& options);

/// Appends a line about the global options to the help footer of every subcommand of `app`
/// (call after adding them).
void note_global_options(CLI::App& app);

/// After parsing: sets the log level, the colour policy (also for log messages) and quiet.
void apply_global_options(const GlobalOptions& options);

/// Whether -q/--quiet was given.
bool quiet();

}  // namespace lance::app
