// The command model (app/cli_model.h) and the generators on top of it (app/completions.h,
// app/man_page.h), on small CLI11 trees of the tests' own: what they take from the definitions.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "app/cli_model.h"
#include "app/completions.h"
#include "app/man_page.h"

using namespace lance::app;

namespace {

/// A program "tool" with a global --color, a command "run" (PATH positional, -f with a fixed
/// set, -o FILE, a flag) and a command "sub" with two subcommands, one of them hidden.
struct Tree {
  CLI::App app{"tool \u2014 does things", "tool"};
  std::string color = "auto", path, format, out, shell;
  bool flag = false;
  std::vector<std::string> kv;
  Tree() {
    app.add_option("--color", color, "Colour")->check(CLI::IsMember({"auto", "never"}));
    auto* run = app.add_subcommand("run", "Run it");
    run->add_option("path", path, "The input")->required();
    run->add_option("-f,--format", format, "Format")->check(CLI::IsMember({"csv", "json"}))->capture_default_str();
    run->add_option("-o,--output", out, "Output file")->type_name("FILE");
    run->add_flag("--dry-run", flag, "Do nothing");
    run->add_option("--kv", kv, "Pairs, repeatable");
    run->footer("Examples:\n  tool run x.lance\n\nA note.");
    auto* sub = app.add_subcommand("sub", "Has subcommands");
    sub->add_subcommand("one", "The first")
        ->add_option("shell", shell, "A shell")
        ->check(CLI::IsMember({"bash", "zsh"}));
    sub->add_subcommand("secret", "Hidden")->group("");
  }
};

const OptionModel& option(const CommandModel& cmd, const std::string& long_name) {
  for (const OptionModel& o : cmd.options)
    if (!o.long_names.empty() && o.long_names.front() == long_name) return o;
  FAIL("no option --" << long_name);
  throw;
}

}  // namespace

TEST_CASE("command model: options, choices, file arguments and hidden commands", "[completions]") {
  Tree t;
  const CommandModel root = describe_app(t.app);
  CHECK(root.program == "tool");
  REQUIRE(root.subcommands.size() == 2);
  const CommandModel& run = root.subcommands[0];
  CHECK(run.key() == "run");
  CHECK(run.full_name() == "tool run");
  CHECK(option(run, "format").choices == std::vector<std::string>{"csv", "json"});
  CHECK(option(run, "format").spellings() == std::vector<std::string>{"-f", "--format"});
  CHECK(option(run, "output").completes_files);
  CHECK_FALSE(option(run, "dry-run").takes_value);
  CHECK(option(run, "kv").repeatable);
  REQUIRE(run.positionals.size() == 1);
  CHECK(run.positionals[0].completes_files);
  CHECK(run.positionals[0].required);
  const CommandModel& sub = root.subcommands[1];
  REQUIRE(sub.subcommands.size() == 1);  // "secret" is hidden
  CHECK(sub.subcommands[0].full_name() == "tool sub one");
  CHECK(sub.subcommands[0].positionals[0].choices == std::vector<std::string>{"bash", "zsh"});
  CHECK(all_commands(root).size() == 4);
  // The global --color is offered at every command; -h is the command's own.
  const auto eff = effective_options(root, run);
  CHECK(std::count_if(eff.begin(), eff.end(), [](const OptionModel& o) { return o.spellings().back() == "--color"; }) ==
        1);
  CHECK(std::count_if(eff.begin(), eff.end(), [](const OptionModel& o) { return o.spellings().back() == "--help"; }) ==
        1);
}

TEST_CASE("command model: the set of a CLI11 type name", "[completions]") {
  CHECK(choices_of_type_name("TEXT:{auto,always,never}") == std::vector<std::string>{"auto", "always", "never"});
  CHECK(choices_of_type_name("UINT:UINT in [1 - 16]").empty());
  CHECK(choices_of_type_name("TEXT").empty());
}

TEST_CASE("completion scripts carry the tree's commands, options and values", "[completions]") {
  Tree t;
  const CommandModel root = describe_app(t.app);
  const std::string bash = completion_script("bash", root);
  CHECK(bash.find("'run|-f') echo 'words csv json'") != std::string::npos);
  CHECK(bash.find("'run|--output') echo 'files'") != std::string::npos);
  CHECK(bash.find("'sub') echo 'one'") != std::string::npos);
  CHECK(bash.find("secret") == std::string::npos);
  CHECK(bash.find("complete -F _tool tool") != std::string::npos);
  const std::string zsh = completion_script("zsh", root);
  CHECK(zsh.rfind("#compdef tool\n", 0) == 0);
  CHECK(zsh.find("'(-f --format)'{-f+,--format=}'[Format]:format:(csv json)'") != std::string::npos);
  CHECK(zsh.find("':path:_files'") != std::string::npos);
  const std::string fish = completion_script("fish", root);
  CHECK(fish.find("complete -c tool -n \"__tool_at 'run'\" -s f -l format -x -a 'csv json' -d 'Format'") !=
        std::string::npos);
  CHECK(fish.find("-l output -r -F") != std::string::npos);
  CHECK_THROWS_AS(completion_script("tcsh", root), std::invalid_argument);
}

TEST_CASE("shell and roff escaping", "[completions][man]") {
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_identifier("lance-cli") == "lance_cli");
  CHECK(roff_escape("a-b \\ c") == "a\\-b \\e c");
  CHECK(roff_escape(".x\n'y") == "\\&.x\n\\&'y");
  CHECK(roff_escape("\u2014 \u2026") == "\\[u2014] \\[u2026]");
  CHECK(roff_escape(std::string("\xff", 1)) == "\\[uFFFD]");
}

TEST_CASE("man page: sections, one subsection per command, options and footers", "[man]") {
  Tree t;
  ManPageExtras extras;
  extras.version = "9.9";
  extras.exit_status = {{"2", "usage"}};
  extras.environment = {{"TOOL_X", "a knob"}};
  extras.see_also = {"elsewhere"};
  const std::string page = man_page(describe_app(t.app), extras);
  for (const char* section :
       {".SH NAME\ntool \\- does things", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS", ".SH COMMANDS",
        ".SH EXIT STATUS", ".SH ENVIRONMENT\n.TP\n\\fBTOOL_X\\fR", ".SH EXAMPLES", ".SH SEE ALSO\nelsewhere"})
    CHECK(page.find(section) != std::string::npos);
  CHECK(page.find(".TH TOOL 1 \"\" \"tool 9.9\"") != std::string::npos);
  CHECK(page.find(".SS \"tool run\"") != std::string::npos);
  CHECK(page.find(".SS \"tool sub one\"") != std::string::npos);
  CHECK(page.find("secret") == std::string::npos);
  CHECK(page.find("\\fB\\-f\\fR, \\fB\\-\\-format\\fR \\fITEXT\\fR\nFormat (one of: csv, json)") != std::string::npos);
  CHECK(page.find(".nf\ntool run x.lance\n.fi") != std::string::npos);
  CHECK(page.find(".PP\nA note.") != std::string::npos);
}
