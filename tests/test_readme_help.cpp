// The command reference (docs/commands.md) is the --help text of every command: this test fails
// when they differ (scripts/update-readme-help.sh rewrites docs/commands.md from --help), and
// when a command listed by --help has no block in docs/commands.md.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>

#include "cli_runner.h"

using lance::testing::read_text;
using lance::testing::run_cli;
using lance::testing::source_path;

namespace {

/// The docs/commands.md blocks: "inspect pages" → text between "```text\n" and "```\n".
std::map<std::string, std::string> readme_blocks() {
  const std::string readme = read_text(source_path("docs/commands.md"));
  std::map<std::string, std::string> out;
  const std::string open = "<!-- help: ", close = "<!-- /help -->";
  for (size_t p = readme.find(open); p != std::string::npos; p = readme.find(open, p + 1)) {
    const size_t name_end = readme.find(" -->\n", p);
    REQUIRE(name_end != std::string::npos);
    const std::string name = readme.substr(p + open.size(), name_end - p - open.size());
    const size_t body = name_end + 5;
    const size_t end = readme.find(close, body);
    REQUIRE(end != std::string::npos);
    std::string block = readme.substr(body, end - body);
    const std::string fence_open = "```text\n", fence_close = "```\n";
    REQUIRE(block.rfind(fence_open, 0) == 0);
    REQUIRE(block.size() >= fence_open.size() + fence_close.size());
    REQUIRE(block.substr(block.size() - fence_close.size()) == fence_close);
    out[name] = block.substr(fence_open.size(), block.size() - fence_open.size() - fence_close.size());
  }
  return out;
}

std::vector<std::string> split_words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

/// The subcommands a --help text lists (the first word of each line under SUBCOMMANDS:).
std::vector<std::string> subcommands_in(const std::string& help) {
  std::vector<std::string> out;
  std::istringstream in(help);
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "SUBCOMMANDS:" || line == "Subcommands:") {
      in_section = true;
      continue;
    }
    if (!in_section) continue;
    if (line.empty() || line[0] != ' ') break;
    out.push_back(split_words(line).at(0));
  }
  return out;
}

}  // namespace

TEST_CASE("README command reference matches --help", "[cli][help]") {
  const auto blocks = readme_blocks();
  // Every command, found through the --help texts themselves.
  std::vector<std::string> commands = {"lance-cli"};
  std::set<std::string> seen;
  for (size_t i = 0; i < commands.size(); ++i) {
    const std::string name = commands[i];
    std::vector<std::string> args = name == "lance-cli" ? std::vector<std::string>{} : split_words(name);
    args.push_back("--help");
    auto r = run_cli(args);
    INFO(name << ": " << r.err);
    REQUIRE(r.exit_code == 0);
    seen.insert(name);
    // Every command's help has a short description and at least one example.
    CHECK(!r.out.empty());
    CHECK(r.out.find("Examples:\n  lance-cli ") != std::string::npos);
    auto it = blocks.find(name);
    if (it == blocks.end()) {
      FAIL_CHECK("docs/commands.md has no <!-- help: " << name << " --> block: run scripts/update-readme-help.sh");
    } else {
      CHECK(it->second == r.out);
    }
    for (const auto& sub : subcommands_in(r.out)) commands.push_back(name == "lance-cli" ? sub : name + " " + sub);
  }
  CHECK(seen.size() >= 10);  // lance-cli, scan, take, head, count, schema, inspect + meta/schema/pages
  for (const auto& [name, text] : blocks) {
    INFO("docs/commands.md block for a command that does not exist: " << name);
    CHECK(seen.count(name) == 1);
  }
}
