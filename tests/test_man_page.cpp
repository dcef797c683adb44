// The man page (`lance-cli man`, built into build/lance-cli.1 and installed by cmake --install):
// it names every command and every option of every command's --help, it lints clean under
// groff -ww, it names every environment variable the README documents, and the build's copy
// is current.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "cli_env.h"
#include "cli_runner.h"
#include "missing_component.h"

using lance::testing::cli_binary;
using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;

namespace {

std::string man_text() {
  auto r = run_cli({"man"});
  REQUIRE(r.exit_code == 0);
  return r.out;
}

/// `text` as the man page writes it (roff: '-' is \-).
std::string roff(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

/// The words of the "Subcommands:" section and the option names of the "Options:" section of a --help text.
void parse_help(const std::string& help, std::vector<std::string>& subcommands, std::vector<std::string>& options) {
  std::istringstream in(help);
  std::string section;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != ' ') {
      section = line;
      continue;
    }
    std::istringstream words(line);
    std::string first;
    if (!(words >> first)) continue;
    if (section == "Subcommands:" && line.rfind("  ", 0) == 0 && line[2] != ' ') subcommands.push_back(first);
    if (section == "Options:" && first[0] == '-') {
      first = first.substr(0, first.find('{'));  // --stats{text}
      for (size_t at = 0; at < first.size();) {  // -c,--columns
        const size_t comma = std::min(first.find(',', at), first.size());
        options.push_back(first.substr(at, comma - at));
        at = comma + 1;
      }
    }
  }
}

/// Runs `command` through the shell; its stdout and stderr together, and the exit status.
std::pair<std::string, int> shell(const std::string& command) {
  FILE* f = ::popen((command + " 2>&1").c_str(), "r");
  REQUIRE(f != nullptr);
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
  return {out, ::pclose(f)};
}

}  // namespace

TEST_CASE("man page names every command and every option of its --help", "[man][help]") {
  const std::string page = man_text();
  std::vector<std::string> commands = {""};
  size_t options_checked = 0;
  for (size_t i = 0; i < commands.size(); ++i) {
    std::vector<std::string> args;
    std::istringstream words(commands[i]);
    for (std::string w; words >> w;) args.push_back(w);
    args.push_back("--help");
    auto r = run_cli(args);
    REQUIRE(r.exit_code == 0);
    std::vector<std::string> subs, options;
    parse_help(r.out, subs, options);
    for (const std::string& s : subs) commands.push_back(commands[i].empty() ? s : commands[i] + " " + s);
    const std::string name = "lance-cli" + (commands[i].empty() ? "" : " " + commands[i]);
    INFO(name);
    if (!commands[i].empty()) CHECK(page.find(".SS \"" + roff(name) + "\"\n") != std::string::npos);
    // The subsection of the command (or, for the program, the OPTIONS section) names each option.
    const size_t from = commands[i].empty() ? page.find(".SH OPTIONS") : page.find(".SS \"" + roff(name) + "\"\n");
    REQUIRE(from != std::string::npos);
    const size_t to = std::min(page.find(".SS ", from + 1), page.find(".SH EXIT STATUS"));
    const std::string part = page.substr(from, to - from);
    for (const std::string& o : options) {
      INFO(o);
      CHECK(part.find("\\fB" + roff(o) + "\\fR") != std::string::npos);
      ++options_checked;
    }
  }
  CHECK(commands.size() >= 15);  // the program, 10 commands, inspect's 4
  CHECK(options_checked > 80);
}

TEST_CASE("man page lints clean under groff -ww and names its sections", "[man]") {
  const std::string page = man_text();
  for (const char* section : {".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS", ".SH COMMANDS",
                              ".SH EXIT STATUS", ".SH ENVIRONMENT", ".SH EXAMPLES", ".SH SEE ALSO"})
    CHECK(page.find(std::string(section) + "\n") != std::string::npos);
  if (shell("command -v groff").second != 0) LANCE_MISSING_COMPONENT("groff (Debian package groff-base)");
  const std::string path =
      (std::filesystem::temp_directory_path() / ("lance_test_man_page_" + std::to_string(::getpid()) + ".1")).string();
  std::ofstream(path) << page;
  const auto [out, status] = shell("groff -man -ww -z " + path);
  std::remove(path.c_str());
  INFO(out);
  CHECK(status == 0);
  CHECK(out.empty());
}

TEST_CASE("man page names every environment variable the README documents", "[man]") {
  const std::string page = man_text();
  const std::string readme = read_text(source_path("README.md"));
  const std::regex variable(R"(\b(LANCE_CLI|AWS)_[A-Z0-9_]+)");
  std::set<std::string> names;
  for (auto it = std::sregex_iterator(readme.begin(), readme.end(), variable); it != std::sregex_iterator(); ++it)
    names.insert(it->str());
  CHECK(names.size() >= 20);
  for (const std::string& name : names) {
    INFO(name << " is in the README but not in the man page's ENVIRONMENT (app/man_extras.cpp)");
    CHECK(page.find(name) > page.find(".SH ENVIRONMENT"));
    CHECK(page.find(name) != std::string::npos);
  }
}

TEST_CASE("the build's lance-cli.1 and completion scripts are what the binary prints", "[man][completions]") {
  const std::string dir = cli_binary().substr(0, cli_binary().rfind('/'));
  CHECK(read_text(dir + "/lance-cli.1") == man_text());
  for (const auto& [shell_name, file] : {std::pair<std::string, std::string>{"bash", "completions/lance-cli"},
                                         {"zsh", "completions/_lance-cli"},
                                         {"fish", "completions/lance-cli.fish"}}) {
    INFO(file);
    auto r = run_cli({"completions", shell_name});
    REQUIRE(r.exit_code == 0);
    CHECK(read_text(dir + "/" + file) == r.out);
  }
}

TEST_CASE("completions: an unknown shell is a usage error, man is hidden from --help", "[completions][cli]") {
  auto r = run_cli({"completions", "tcsh"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("tcsh") != std::string::npos);
  CHECK(r.out.empty());
  auto help = run_cli({"--help"});
  CHECK(help.out.find("completions") != std::string::npos);
  CHECK(help.out.find(" man ") == std::string::npos);
}
