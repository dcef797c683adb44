// Main of the Azure tests: they need the Azurite the CTest fixture "azstore" starts
// (scripts/azure-fixture.sh writes its endpoint to LANCE_AZURE_ENV). Without it they skip
// (exit 77), except under CI=true, where a missing store is a failure.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "catch_session.h"

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--list", 6) == 0) listing = true;
  if (!listing && !std::filesystem::exists(LANCE_AZURE_ENV)) {
    const char* ci = std::getenv("CI");
    if (ci && std::strcmp(ci, "true") == 0) {
      std::fprintf(stderr, "FAILED: no Azure store (%s missing): the fixture azure_store_start did not start Azurite\n",
                   LANCE_AZURE_ENV);
      return 1;
    }
    std::fprintf(stderr, "skipped: no Azure store (%s missing; see azure_store_start's output)\n", LANCE_AZURE_ENV);
    return 77;
  }
  return run_catch_session(argc, argv);
}
