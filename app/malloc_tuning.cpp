#include "app/malloc_tuning.h"

#include <gnu/libc-version.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <spdlog/spdlog.h>

namespace lance::app {

namespace {

bool tuning_off() {
  const char* setting = std::getenv("LANCE_CLI_MALLOC_TUNING");
  return setting && std::strcmp(setting, "0") == 0;
}

// glibc.malloc.hugetlb exists from glibc 2.35.
bool libc_has_hugetlb_tunable() {
  int major = 0, minor = 0;
  if (std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) != 2) return false;
  return major > 2 || (major == 2 && minor >= 35);
}

// The kernel's mode is "always [madvise] never" with the active one bracketed.
bool kernel_allows_huge_pages() {
  std::FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!f) return false;
  char text[128] = {};
  const size_t n = std::fread(text, 1, sizeof text - 1, f);
  std::fclose(f);
  text[n] = '\0';
  return std::strstr(text, "[never]") == nullptr && std::strchr(text, '[') != nullptr;
}

}  // namespace

void tune_malloc() {
  if (tuning_off()) return;
  ::mallopt(M_MMAP_MAX, 0);
  ::mallopt(M_TOP_PAD, 64 * 1024 * 1024);
  ::mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
  ::mallopt(M_ARENA_MAX, 1);
}

void reexec_with_huge_pages(char** argv) {
#if defined(__SANITIZE_ADDRESS__)
  (void)argv;
#else
  if (tuning_off()) return;
  const char* current = std::getenv("GLIBC_TUNABLES");
  if (current && std::strstr(current, "glibc.malloc.hugetlb")) return;
  if (!libc_has_hugetlb_tunable() || !kernel_allows_huge_pages()) return;
  std::string tunables = current && *current ? std::string(current) + ":" : std::string();
  tunables += "glibc.malloc.hugetlb=1";
  if (::setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  // Still here: no /proc, or the exec was refused. Go on without huge pages.
  if (current)
    ::setenv("GLIBC_TUNABLES", current, 1);
  else
    ::unsetenv("GLIBC_TUNABLES");
#endif
}

void log_malloc_tuning() {
  if (tuning_off()) {
    spdlog::debug("malloc: glibc defaults (LANCE_CLI_MALLOC_TUNING=0)");
    return;
  }
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  const bool huge = tunables && std::strstr(tunables, "glibc.malloc.hugetlb=1");
  spdlog::debug("malloc: one heap for all threads, freed memory kept; transparent huge pages {}", huge ? "on" : "off");
}

}  // namespace lance::app
