#include "app/malloc_tuning.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "app/input_size.h"

namespace lance::app {

namespace {

/// Inputs smaller than this do not pay for the second exec: loading the shared libraries
/// again costs ~15 ms of CPU, more than a small scan's page faults.
constexpr uint64_t kReexecMinBytes = kLargeInputBytes;

/// Whether the command line reads at least `limit` bytes, judged from its arguments before
/// they are parsed: a local .lance file counts its size, a local dataset directory the files
/// of its data/; stdin, or no local input recognised, counts as large.
bool large_input(int argc, char** argv, int first, uint64_t limit) {
  uint64_t total = 0;
  bool found = false;
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-") return true;
    if (a.empty() || a[0] == '-') continue;
    const auto bytes = local_input_bytes(a, limit);
    if (!bytes) continue;
    found = true;
    total += *bytes;
    if (total >= limit) return true;
  }
  return !found;  // no local input recognised: keep the tuning
}

}  // namespace

void tune_malloc(int argc, char** argv) {
  // Only scans stream page after page; for everything else the second exec (~1 ms bare,
  // tens of ms on a loaded VM) costs more than it saves.
  int sub = 0;
  for (int i = 1; i < argc && !sub; ++i)
    if (std::strcmp(argv[i], "scan") == 0 || std::strcmp(argv[i], "head") == 0) sub = i;
  if (!sub) return;
  const char* setting = std::getenv("LANCE_CLI_MALLOC_TUNING");
  if (setting && std::strcmp(setting, "0") == 0) return;
  if (std::getenv("LANCE_CLI_REEXEC")) return;  // this is the re-executed process
  // Behind a network the second exec (tens of ms on a loaded VM) is not won back: round trips
  // dominate. The thresholds mallopt accepts keep most of the benefit.
  bool remote = false;
  for (int i = sub + 1; i < argc; ++i)
    remote = remote || std::strncmp(argv[i], "s3://", 5) == 0 || std::strncmp(argv[i], "http://", 7) == 0 ||
             std::strncmp(argv[i], "https://", 8) == 0;
  const bool forced = setting && std::strcmp(setting, "1") == 0;
  if (!remote && (forced || large_input(argc, argv, sub + 1, kReexecMinBytes))) {
    std::string tunables;
    if (const char* cur = std::getenv("GLIBC_TUNABLES"); cur && *cur) tunables = std::string(cur) + ":";
    tunables +=
        "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=1073741824:glibc.malloc.trim_threshold=1073741824";
    ::setenv("LANCE_CLI_REEXEC", "1", 1);
    ::setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
    ::execv("/proc/self/exe", argv);
  }
  // A small or remote input, or no re-exec (no /proc, say): keep what the running allocator accepts.
  ::mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  ::mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
}

}  // namespace lance::app
