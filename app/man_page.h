// The man page lance-cli.1 (roff, man(7) macros), generated from the command tree
// (app/cli_model.h) at build time, so it describes exactly the commands and options of --help.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "app/cli_model.h"

namespace lance::app {

/// What the command tree does not hold: one (term, text) pair per entry of a section.
struct ManPageExtras {
  std::string version;                                           ///< shown in the page footer: "0.1.0"
  std::vector<std::pair<std::string, std::string>> exit_status;  ///< ("2", "usage: …")
  std::vector<std::pair<std::string, std::string>> environment;  ///< ("AWS_PROFILE", "…")
  std::vector<std::string> see_also;                             ///< "lance-cli" README, URLs…: plain text lines
};

/// The page: NAME, SYNOPSIS (one line per command), DESCRIPTION (the program's description and
/// the non-example paragraphs of its --help footer), OPTIONS (the global ones), COMMANDS (one
/// subsection per command and subcommand: usage, description, positionals, options with their
/// values and defaults, its footer), EXIT STATUS, ENVIRONMENT, EXAMPLES (the program's
/// examples), SEE ALSO.
std::string man_page(const CommandModel& root, const ManPageExtras& extras);

/// `text` as roff input text: backslashes as \e, '-' as \-, non-ASCII characters as \[uXXXX]
/// (UTF-8 decoded; an invalid byte becomes \[uFFFD]), and a leading '.' or '\'' made literal.
/// Lines stay lines.
std::string roff_escape(const std::string& text);

/// The sections the command tree cannot hold, for lance-cli (app/man_extras.cpp): exit codes
/// from lib/common/exit_status.h, the LANCE_CLI_* and AWS_* variables of the README.
ManPageExtras lance_man_page_extras();

}  // namespace lance::app
