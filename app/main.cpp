// lance-cli: command-line front-end. Parsing, logging and exit codes only; the work is in lib/.
#include <csignal>
#include <cstdio>
#include <iostream>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <google/protobuf/stubs/logging.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "app/commands.h"
#include "common/cancel.h"
#include "common/error.h"
#include "output/sink.h"

namespace {

int exit_code(lance::ErrorKind kind) { return static_cast<int>(kind); }

/// SIGINT/SIGTERM: the first asks the command to stop (it unwinds, removing a temporary
/// -o file, and exits 128 + signal); a second one ends the process at once.
void on_stop_signal(int sig) {
  if (lance::cancel_signal() != 0) _exit(128 + sig);
  lance::request_cancel(sig);
}

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocked write returns EINTR and sees the request
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe becomes EPIPE, handled as a quiet stop
  install_stop_handlers();
  // libprotobuf logs parse problems (e.g. invalid UTF-8) to stderr; a corrupt file is
  // reported once, as our own error line.
  google::protobuf::SetLogHandler(nullptr);
  auto logger = spdlog::stderr_color_mt("lance-cli");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%^%l%$: %v");
  spdlog::set_level(spdlog::level::warn);

  CLI::App app{"lance-cli — read Lance columnar files and datasets"};
  app.set_version_flag("--version", std::string("lance-cli ") + LANCE_CLI_VERSION +
                                        " (reads Lance file formats 2.1, 2.2, 2.3)");
  app.require_subcommand(1);
  int verbosity = 0;
  app.add_flag("-v,--verbose", verbosity, "More log output on stderr (repeatable)");
  app.footer("Exit codes: 0 ok, 1 I/O error, 2 usage, 3 unsupported, 4 corrupt file.");

  lance::app::CommandRunner run;
  lance::app::register_scan(app, run);
  lance::app::register_take(app, run);
  lance::app::register_inspect(app, run);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (verbosity == 1) spdlog::set_level(spdlog::level::info);
  if (verbosity >= 2) spdlog::set_level(spdlog::level::debug);

  try {
    run.command();
    return 0;
  } catch (const lance::OutputClosed&) {
    return 0;
  } catch (const lance::Cancelled& c) {
    return 128 + c.signal();
  } catch (const lance::Error& e) {
    std::fprintf(stderr, "lance-cli: %s\n", e.what());
    return exit_code(e.kind());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "lance-cli: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lance-cli: internal error: %s\n", e.what());
    return 1;
  }
}
