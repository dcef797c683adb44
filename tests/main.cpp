// The test runner's main: Catch2's, after fixing the environment the lance-cli processes
// started by the tests inherit, so that no test depends on the caller's terminal or settings.

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "catch_session.h"

extern char** environ;

namespace {

/// A known terminal type, no colour or width overrides, none of lance-cli's own tuning
/// variables or AWS settings (a test sets any of these itself, in a scope), and no
/// GLIBC_TUNABLES: each lance-cli a test starts tunes malloc as a user's does
/// (app/malloc_tuning.h).
void normalize_environment() {
  std::vector<std::string> drop;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    if (name.rfind("LANCE_CLI_", 0) == 0 || name.rfind("AWS_", 0) == 0) drop.push_back(name);
  }
  for (const std::string& name : drop) ::unsetenv(name.c_str());
  for (const char* name : {"NO_COLOR", "COLUMNS", "LINES", "CLICOLOR", "CLICOLOR_FORCE", "GLIBC_TUNABLES"})
    ::unsetenv(name);
  ::setenv("TERM", "xterm-256color", 1);
}

}  // namespace

int main(int argc, char* argv[]) {
  normalize_environment();
  return run_catch_session(argc, argv);
}
