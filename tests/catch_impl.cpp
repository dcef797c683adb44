// Catch2's implementation, once for both test binaries (lance_tests, lance_s3_tests); their
// mains (tests/main.cpp, tests/s3/main.cpp) call run_catch_session after their own setup.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_session.h"

int run_catch_session(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
