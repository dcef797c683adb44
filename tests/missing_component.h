// A test whose component (a program, a generated fixture) is missing: it skips with a warning
// on a developer's machine and fails under CI=true, where scripts/setup.sh installs everything
// and the fixtures are committed. The shell tests' counterpart is tests/missing_component.sh.
#pragma once

#include <cstdlib>
#include <cstring>

namespace lance::testing {
inline bool under_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::strcmp(ci, "true") == 0;
}
}  // namespace lance::testing

/// Ends the current test case: FAIL under CI=true, else WARN and return. `what` is a string literal.
#define LANCE_MISSING_COMPONENT(what)                                         \
  do {                                                                        \
    if (::lance::testing::under_ci()) FAIL(what " (required under CI=true)"); \
    WARN(what ": skipped");                                                   \
    return;                                                                   \
  } while (0)
