#include "app/global_options.h"

#include <unistd.h>

#include <atomic>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "app/terminal.h"

namespace lance::app {

namespace {

std::atomic<bool> g_quiet{false};

}  // namespace

std::string version_text() {
  return std::string("lance-cli ") + LANCE_CLI_VERSION + " (reads Lance file formats 2.0, 2.1, 2.2, 2.3)";
}

void register_global_options(CLI::App& app, GlobalOptions& o) {
  app.set_version_flag("--version", version_text(), "Print the version of lance-cli and the Lance formats it reads");
  app.add_flag("-v,--verbose", o.verbosity, "More log output on stderr: -v info, -vv debug");
  app.add_flag("-q,--quiet", o.quiet, "No progress line on stderr");
  app.add_option("--color", o.color, "Colour on a terminal: auto, always, never (NO_COLOR is honoured by auto)")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.fallthrough();
}

void note_global_options(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    sub->footer(sub->get_footer() +
                "\n\nGlobal options, here too: -v/-vv (log level), -q (no progress line), --color=auto|always|never");
    note_global_options(*sub);
  }
}

void apply_global_options(const GlobalOptions& o) {
  if (o.verbosity == 1) spdlog::set_level(spdlog::level::info);
  if (o.verbosity >= 2) spdlog::set_level(spdlog::level::debug);
  g_quiet = o.quiet;
  set_color_mode(parse_color_mode(o.color));
  const bool color = use_color(STDERR_FILENO);
  if (auto logger = spdlog::default_logger()) {
    for (auto& sink : logger->sinks())
      if (auto s = std::dynamic_pointer_cast<spdlog::sinks::stderr_color_sink_mt>(sink))
        s->set_color_mode(color ? spdlog::color_mode::always : spdlog::color_mode::never);
  }
}

bool quiet() { return g_quiet; }

}  // namespace lance::app
