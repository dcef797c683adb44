// The command tree of a CLI::App as plain data: what the completion scripts (app/completions.h)
// and the man page (app/man_page.h) are generated from, so they describe exactly the commands,
// options and choices that --help describes.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace lance::app {

/// One option, flag or positional argument of a command.
struct OptionModel {
  std::vector<std::string> short_names;  ///< without the dash: {"f"}
  std::vector<std::string> long_names;   ///< without the dashes: {"format"}
  std::string positional_name;           ///< a positional's name ("path"); empty for an option
  std::string type;  ///< CLI11's type name before any ':' ("TEXT", "UINT", "FILE"); empty for a flag
  std::string description;
  std::string default_value;         ///< the default --help shows (capture_default_str), else empty
  std::vector<std::string> choices;  ///< the fixed set of values (a CLI::IsMember check), else empty
  bool takes_value = false;          ///< false for a flag
  bool required = false;
  bool repeatable = false;       ///< may be given more than once, or takes several values
  bool completes_files = false;  ///< a PATH positional (named "path") or an option of type FILE/PATH

  bool positional() const { return !positional_name.empty(); }
  /// Every spelling, dashes included: {"-f", "--format"}; for a positional its name.
  std::vector<std::string> spellings() const;
};

/// One command: the program itself or a (sub)subcommand.
struct CommandModel {
  std::vector<std::string> path;  ///< names from the program down: {} for the program, {"inspect", "pages"}
  std::string program;            ///< the program's name ("lance-cli")
  std::string description;
  std::string footer;                    ///< the --help footer (examples, notes)
  std::vector<OptionModel> options;      ///< its own options and flags, in --help order
  std::vector<OptionModel> positionals;  ///< in order
  std::vector<CommandModel> subcommands;

  /// "lance-cli inspect pages".
  std::string full_name() const;
  /// `path` joined by spaces: "" for the program, "inspect pages".
  std::string key() const;
};

/// The model of `app` and all its subcommands. Hidden subcommands and options (empty group) are
/// left out. `app`'s own options are the global ones; see `effective_options`.
CommandModel describe_app(const CLI::App& app);

/// The options a user may give at `cmd`: its own, then those of `root` (the global options,
/// which every command accepts) that share no spelling with one of its own. For `root` itself,
/// its options.
std::vector<OptionModel> effective_options(const CommandModel& root, const CommandModel& cmd);

/// Every command of the tree, the program first, depth first in --help order.
std::vector<const CommandModel*> all_commands(const CommandModel& root);

/// The values of a CLI11 type name's "{a,b,c}" part ("TEXT:{auto,always,never}" -> auto,
/// always, never); empty when it has none.
std::vector<std::string> choices_of_type_name(const std::string& type_name);

/// `words` joined by `separator`.
std::string join_words(const std::vector<std::string>& words, const std::string& separator = " ");

}  // namespace lance::app
