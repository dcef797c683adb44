#include "app/malloc_tuning.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace lance::app {

void tune_malloc(int argc, char** argv) {
  // Only scans stream page after page; for everything else the second exec (~1 ms bare,
  // tens of ms on a loaded VM) costs more than it saves.
  bool scan = false;
  for (int i = 1; i < argc; ++i) scan = scan || std::strcmp(argv[i], "scan") == 0 || std::strcmp(argv[i], "head") == 0;
  if (!scan) return;
  // Behind a network the second exec (tens of ms on a loaded VM) is not won back: round trips
  // dominate. The thresholds mallopt accepts keep most of the benefit.
  bool remote = false;
  for (int i = 1; i < argc; ++i)
    remote = remote || std::strncmp(argv[i], "s3://", 5) == 0 || std::strncmp(argv[i], "http://", 7) == 0 ||
             std::strncmp(argv[i], "https://", 8) == 0;
  if (remote) {
    ::mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    ::mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
    return;
  }
  const char* setting = std::getenv("LANCE_CLI_MALLOC_TUNING");
  if (setting && std::strcmp(setting, "0") == 0) return;
  if (std::getenv("LANCE_CLI_REEXEC")) return;  // this is the re-executed process
  std::string tunables;
  if (const char* cur = std::getenv("GLIBC_TUNABLES"); cur && *cur) tunables = std::string(cur) + ":";
  tunables +=
      "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=1073741824:glibc.malloc.trim_threshold=1073741824";
  ::setenv("LANCE_CLI_REEXEC", "1", 1);
  ::setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
  ::execv("/proc/self/exe", argv);
  // No re-exec (no /proc, say): keep what the running allocator accepts.
  ::mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  ::mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
}

}  // namespace lance::app
