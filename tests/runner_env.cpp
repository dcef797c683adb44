// The environment every test (and every lance-cli the tests start) runs in, set before
// Catch's main: tests must not depend on the caller's environment.
#include <cstdlib>

namespace {

const bool kEnvironmentSet = [] {
  // lance-cli re-executes `scan`/`head` once with glibc malloc tunables (app/malloc_tuning.cpp):
  // a second exec per CLI run costs the suite time and hides the process the test started.
  ::setenv("LANCE_CLI_MALLOC_TUNING", "0", 1);
  return true;
}();

}  // namespace
