// completions bash|zsh|fish: a completion script; man (hidden): the man page lance-cli.1. Both
// are generated from the command tree as it is at run time, the one --help describes.
#include <memory>

#include "app/cli_model.h"
#include "app/commands.h"
#include "app/completions.h"
#include "app/man_page.h"
#include "output/sink.h"

namespace lance::app {

namespace {

void write_stdout(const std::string& text) {
  output::OutputSink sink(1);
  sink.write(text);
  sink.flush();
}

}  // namespace

void register_completions(CLI::App& app, CommandRunner& run) {
  auto* cmd = app.add_subcommand("completions", "Print a shell completion script for bash, zsh or fish");
  auto shell = std::make_shared<std::string>();
  cmd->add_option("shell", *shell, "The shell: bash, zsh or fish")
      ->check(CLI::IsMember({"bash", "zsh", "fish"}))
      ->required();
  cmd->footer(
      "Examples:\n  lance-cli completions bash > ~/.local/share/bash-completion/completions/lance-cli\n"
      "  lance-cli completions zsh > ~/.zfunc/_lance-cli      # a directory on $fpath\n"
      "  lance-cli completions fish > ~/.config/fish/completions/lance-cli.fish\n"
      "  source <(lance-cli completions bash)                 # this shell only\n\n"
      "cmake --install puts them where bash-completion, zsh and fish look (see the README).");
  cmd->callback([&app, &run, shell] {
    run.command = [&app, shell] { write_stdout(completion_script(*shell, describe_app(app))); };
  });

  auto* man = app.add_subcommand("man", "Print the man page lance-cli.1 (roff)");
  man->group("");  // hidden: the build runs it to generate lance-cli.1
  man->callback(
      [&app, &run] { run.command = [&app] { write_stdout(man_page(describe_app(app), lance_man_page_extras())); }; });
}

}  // namespace lance::app
