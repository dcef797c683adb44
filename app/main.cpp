// lance-cli: command-line front-end. Parsing, logging and exit codes only; the work is in lib/.
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string_view>

#include <unistd.h>

#include <fmt/format.h>
#include <google/protobuf/stubs/logging.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "app/commands.h"
#include "app/global_options.h"
#include "app/malloc_tuning.h"
#include "app/stdin_input.h"
#include "app/storage_config.h"
#include "app/terminal.h"
#include "common/cancel.h"
#include "common/error.h"
#include "common/exit_status.h"
#include "io/remote/uri.h"
#include "output/output_file.h"
#include "output/sink.h"

namespace {

/// SIGINT/SIGTERM/SIGHUP: the first asks the command to stop (it unwinds, removing a
/// temporary -o file, and exits 128 + signal); a second one ends the process at once.
void on_stop_signal(int sig) {
  if (lance::cancel_signal() != 0) {
    lance::output::remove_temporary_output();
    _exit(128 + sig);
  }
  lance::request_cancel(sig);
}

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocked write returns EINTR and sees the request
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    // A signal the parent set to be ignored (nohup, a background job's SIGINT) stays ignored.
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

}  // namespace

namespace {

using Register = void (*)(CLI::App&, lance::app::CommandRunner&);

/// The commands, in --help's order, each with the names it adds.
struct CommandEntry {
  std::string_view names[2];
  Register add;
};
constexpr CommandEntry kCommands[] = {
    {{"scan"}, lance::app::register_scan},     {{"take"}, lance::app::register_take},
    {{"head"}, lance::app::register_head},     {{"count"}, lance::app::register_count},
    {{"search"}, lance::app::register_search}, {{"plan"}, lance::app::register_plan},
    {{"schema"}, lance::app::register_schema}, {{"inspect"}, lance::app::register_inspect},
    {{"verify"}, lance::app::register_verify}, {{"completions", "man"}, lance::app::register_completions},
    {{"help"}, lance::app::register_help},
};

/// The first word of argv that is not a global option (nor --color's value): the command
/// the user named, or empty. CLI11 reads `--color=` with nothing after the `=` as `--color`,
/// its value the next word.
std::string_view command_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--color" || word == "--color=") {
      ++i;
      continue;
    }
    if (word.empty() || word.front() == '-') {
      if (word == "--") return {};
      continue;
    }
    return word;
  }
  return {};
}

/// Adds only the named command when it is one of the data commands: building every command's
/// options was a third of a small command's own start-up (0.3-0.5 ms of a 4 ms take). help,
/// completions, man, an unknown or missing command get them all (they list or suggest them).
void register_commands(CLI::App& app, lance::app::CommandRunner& run, std::string_view word) {
  const bool lists_commands = word.empty() || word == "help" || word == "completions" || word == "man";
  for (const CommandEntry& c : kCommands)
    if (!lists_commands && (c.names[0] == word || c.names[1] == word)) {
      c.add(app, run);
      return;
    }
  for (const CommandEntry& c : kCommands) c.add(app, run);
}

int run_cli(int argc, char** argv) {
  lance::app::tune_malloc();
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe becomes EPIPE, handled as a quiet stop
  std::signal(SIGXFSZ, SIG_IGN);  // past RLIMIT_FSIZE a write fails with EFBIG: an I/O error (exit 1)
  install_stop_handlers();
  // libprotobuf logs parse problems (e.g. invalid UTF-8) to stderr; a corrupt file is
  // reported once, as our own error line.
  google::protobuf::SetLogHandler(nullptr);
  auto logger = spdlog::stderr_color_mt("lance-cli");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%^%l%$: %v");
  spdlog::set_level(spdlog::level::warn);

  CLI::App app{"lance-cli — read Lance columnar files and datasets", "lance-cli"};
  app.require_subcommand(1);
  lance::app::GlobalOptions global;
  lance::app::register_global_options(app, global);
  app.footer(
      "Examples:\n  lance-cli head data/sample/products.lance\n"
      "  lance-cli scan data/sample/products.lance -c id,name -f csv -o products.csv\n\n"
      "Exit codes: 0 ok, 1 I/O error, 2 usage, 3 unsupported, 4 corrupt file.");

  lance::app::CommandRunner run;
  register_commands(app, run, command_word(argc, argv));
  lance::app::note_global_options(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    // One line, like every other error: what is wrong, and where the help is.
    std::string where = "lance-cli";
    for (const CLI::App* sub = &app; sub && !sub->get_subcommands().empty();) {
      sub = sub->get_subcommands().front();
      where += " " + sub->get_name();
    }
    std::string what = e.what();
    const auto commands = app.get_subcommands([](CLI::App* sub) { return !sub->get_group().empty(); });
    // No command matched and a word is left over: it was meant as a command.
    if (app.get_subcommands().empty() && !app.remaining().empty()) {
      std::string names;
      for (CLI::App* sub : commands)
        if (!sub->get_name().empty()) names += (names.empty() ? "" : ", ") + sub->get_name();
      what = fmt::format("unknown command '{}' (commands: {})", app.remaining().front(), names);
    }
    // Storage options belong to the commands; given before the command's name, CLI11 quotes them back.
    auto is_command = [&](std::string_view word) {
      return std::any_of(commands.begin(), commands.end(), [&](CLI::App* sub) { return sub->get_name() == word; });
    };
    for (int i = 1; i < argc && !is_command(argv[i]); ++i)
      if (std::string_view(argv[i]).substr(0, 16) == "--storage-option") {
        what += " (--storage-option goes after the command: lance-cli scan PATH --storage-option KEY=VALUE)";
        break;
      }
    what = lance::app::redact_storage_option_secrets(std::move(what), argc, argv);
    std::fprintf(stderr, "%s %s (see %s --help)\n", lance::app::error_prefix().c_str(),
                 lance::app::escape_controls(what).c_str(), where.c_str());
    return 2;
  }
  lance::app::apply_global_options(global);
  lance::app::log_malloc_tuning();

  try {
    run.command();
    return 0;
  } catch (const lance::output::OutputClosed&) {
    return 0;
  } catch (const lance::Cancelled& c) {
    return 128 + c.signal();
  } catch (const lance::Error& e) {
    const char* internal = e.kind() == lance::ErrorKind::internal ? "internal error: " : "";
    std::fprintf(
        stderr, "%s %s%s\n", lance::app::error_prefix().c_str(), internal,
        lance::app::escape_controls(lance::app::name_stdin_as_dash(lance::io::redact_locations(e.message()))).c_str());
    return lance::exit_status(e.kind());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s out of memory\n", lance::app::error_prefix().c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s internal error: %s\n", lance::app::error_prefix().c_str(),
                 lance::app::escape_controls(e.what()).c_str());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int rc = run_cli(argc, argv);
  // Read-ahead of remote files runs on detached threads that may still be fetching: the
  // process ends here, without running static destructors (HTTP handle pool, loggers)
  // under them. Everything written is flushed first.
  spdlog::apply_all([](const std::shared_ptr<spdlog::logger>& l) { l->flush(); });
  std::cout.flush();
  std::fflush(nullptr);
#if defined(__SANITIZE_ADDRESS__)
  __lsan_do_leak_check();  // _exit skips LeakSanitizer's own check at exit
#endif
  _exit(rc);
}
