// help [COMMAND [SUBCOMMAND]]: the --help text of the program or of one command.
#include <memory>

#include <fmt/format.h>

#include "app/commands.h"
#include "common/error.h"
#include "output/sink.h"

namespace lance::app {

namespace {

/// Names of the subcommands of `app` (except `help` itself), comma-separated; empty when it has none.
std::string command_names(CLI::App& app) {
  std::string names;
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->get_name() == "help" || sub->get_group().empty()) continue;  // and the hidden ones
    if (!names.empty()) names += ", ";
    names += sub->get_name();
  }
  return names;
}

}  // namespace

void register_help(CLI::App& app, CommandRunner& run) {
  auto* cmd = app.add_subcommand("help", "Show the help of the program or of a command (same as COMMAND --help)");
  auto names = std::make_shared<std::vector<std::string>>();
  cmd->add_option("command", *names, "A command, and for inspect its subcommand (e.g. inspect pages)");
  cmd->footer("Examples:\n  lance-cli help scan\n  lance-cli help inspect pages");
  cmd->callback([&app, &run, names] {
    run.command = [&app, names] {
      CLI::App* target = &app;
      std::string path = app.get_name();
      for (const std::string& name : *names) {
        CLI::App* next = nullptr;
        try {
          next = target->get_subcommand(name);
        } catch (const CLI::OptionNotFound&) {
        }
        const std::string names_here = command_names(*target);
        if (next == nullptr && names_here.empty())
          throw_usage("help: {} has no subcommands, so '{}' names nothing (see {} --help)", path, name, path);
        if (next == nullptr) throw_usage("help: {} has no command '{}' (commands: {})", path, name, names_here);
        target = next;
        path += " " + name;
      }
      output::OutputSink sink(1);
      // The formatter directly: App::help() would describe the selected command, `help`.
      sink.write(target->get_formatter()->make_help(target, path, CLI::AppFormatMode::Normal));
      sink.flush();
    };
  });
}

}  // namespace lance::app
