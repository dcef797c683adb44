// `-` as PATH (a data file on standard input) and `lance-cli help [COMMAND]`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>

#include "cli_runner.h"
#include "fixtures.h"

using namespace lance::testing;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("PATH - reads a data file from standard input, like the file itself", "[cli][stdin]") {
  const std::string file = source_path("data/sample/products.lance");
  const std::string bytes = read_text(file);
  for (const std::vector<std::string>& command : {std::vector<std::string>{"scan", "-f", "csv"},
                                                  {"take", "--rows", "5,0,1999"},
                                                  {"count"},
                                                  {"head", "-n", "3"},
                                                  {"schema", "--json"},
                                                  {"inspect", "meta", "--json"},
                                                  {"inspect", "pages", "-c", "name"}}) {
    // The path goes after the command words (after `inspect meta`).
    const size_t at = command[0] == "inspect" ? 2 : 1;
    std::vector<std::string> with_file = command, with_stdin = command;
    with_file.insert(with_file.begin() + at, file);
    with_stdin.insert(with_stdin.begin() + at, "-");
    DYNAMIC_SECTION(command[0] << (command.size() > 1 ? " " + command[1] : "")) {
      auto want = run_cli(with_file);
      REQUIRE(want.exit_code == 0);
      auto got = run_cli(with_stdin, bytes);
      INFO(got.err);
      REQUIRE(got.exit_code == 0);
      // inspect and schema name the file they read: here the spool, /dev/fd/N.
      const std::string got_text = std::regex_replace(got.out, std::regex("/dev/fd/[0-9]+"), "FILE");
      std::string want_text = want.out;
      for (size_t p = want_text.find(file); p != std::string::npos; p = want_text.find(file, p))
        want_text.replace(p, file.size(), "FILE");
      CHECK(got_text == want_text);
    }
  }
}

TEST_CASE("PATH -: empty or damaged input is an error, the rows file cannot be stdin too", "[cli][stdin]") {
  auto empty = run_cli({"scan", "-"});
  CHECK(empty.exit_code == 4);  // zero bytes: too small for a footer
  CHECK(std::count(empty.err.begin(), empty.err.end(), '\n') == 1);
  auto junk = run_cli({"scan", "-"}, std::string(1000, 'x'));
  CHECK(junk.exit_code == 4);
  auto both = run_cli({"take", "-", "--rows-file", "-"}, "0\n");
  CHECK(both.exit_code == 2);
  CHECK(contains(both.err, "standard input"));
}

TEST_CASE("help COMMAND prints that command's --help", "[cli][help]") {
  for (const std::vector<std::string>& words :
       {std::vector<std::string>{"scan"}, {"take"}, {"inspect"}, {"inspect", "pages"}, {"count"}}) {
    std::vector<std::string> help{"help"}, flag = words;
    help.insert(help.end(), words.begin(), words.end());
    flag.push_back("--help");
    auto a = run_cli(help), b = run_cli(flag);
    INFO(words[0]);
    CHECK(a.exit_code == 0);
    CHECK(b.exit_code == 0);
    CHECK(a.out == b.out);
    CHECK(contains(a.out, "Examples:"));
  }
  auto top = run_cli({"help"});
  CHECK(top.exit_code == 0);
  CHECK(top.out == run_cli({"--help"}).out);
  auto bad = run_cli({"help", "scna"});
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.err, "scna"));
  CHECK(contains(bad.err, "scan"));
}

TEST_CASE("help help describes help, and a word after a command without subcommands says so", "[cli][help]") {
  auto self = run_cli({"help", "help"});
  CHECK(self.exit_code == 0);
  CHECK(self.out == run_cli({"help", "--help"}).out);
  CHECK(contains(self.out, "lance-cli help inspect pages"));
  auto extra = run_cli({"help", "scan", "extra"});
  INFO(extra.err);
  CHECK(extra.exit_code == 2);
  CHECK(contains(extra.err, "lance-cli scan has no subcommands"));
  CHECK(contains(extra.err, "'extra'"));
  CHECK(!contains(extra.err, "(commands: )"));
}
