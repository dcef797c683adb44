// Shell completion scripts generated from the command tree (app/cli_model.h), so they offer
// exactly the commands, options and option values --help describes.
#pragma once

#include <string>

#include "app/cli_model.h"

namespace lance::app {

/// A bash script defining `_<program>` (dashes as underscores) and `complete -F` for the
/// program: subcommands, options of the command at the cursor (its own and the global ones),
/// an option's fixed values, and files for PATH/FILE arguments. Source it or install it as
/// share/bash-completion/completions/<program>.
std::string bash_completion(const CommandModel& root);

/// A zsh completion function (`#compdef <program>`, one `_arguments` per command, with the
/// descriptions of --help); install it as share/zsh/site-functions/_<program>.
std::string zsh_completion(const CommandModel& root);

/// fish `complete` lines, one per subcommand and option, conditioned on the command at the
/// cursor; install as share/fish/vendor_completions.d/<program>.fish.
std::string fish_completion(const CommandModel& root);

/// The script for `shell` ("bash", "zsh" or "fish"); throws std::invalid_argument otherwise.
std::string completion_script(const std::string& shell, const CommandModel& root);

/// `text` with every character but letters and digits replaced by '_' ("lance-cli" -> "lance_cli").
std::string shell_identifier(const std::string& text);

/// `text` as one single-quoted POSIX shell word ('it'\''s').
std::string shell_quote(const std::string& text);

}  // namespace lance::app
