#include "app/malloc_tuning.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
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

/// The heap stretch advised for huge pages up front (virtual until touched).
constexpr size_t kAdvisedHeapBytes = size_t{256} << 20;
constexpr size_t kHeapTopPad = size_t{64} << 20;
constexpr uintptr_t kHugePage = uintptr_t{2} << 20;

bool heap_advised = false;

/// Grows the heap once by kAdvisedHeapBytes (a block larger than the heap's free top, freed
/// again at once: M_TRIM_THRESHOLD keeps the space) and advises that stretch for transparent
/// huge pages, as glibc.malloc.hugetlb=1 would (which needs the tunable at program start, so
/// a second exec). Growth beyond the stretch gets ordinary pages.
[[maybe_unused]] void advise_heap_huge_pages() {  // not called under AddressSanitizer
  if (!kernel_allows_huge_pages()) return;
  ::mallopt(M_TOP_PAD, kAdvisedHeapBytes);
  auto* before = static_cast<char*>(::sbrk(0));
  void* grow = std::malloc(kHugePage);
  asm volatile("" : : "r"(grow) : "memory");  // the compiler must not drop the malloc/free pair
  auto* after = static_cast<char*>(::sbrk(0));
  std::free(grow);
  ::mallopt(M_TOP_PAD, kHeapTopPad);
  if (before == reinterpret_cast<char*>(-1) || after == reinterpret_cast<char*>(-1) || after <= before) return;
  const uintptr_t lo = (reinterpret_cast<uintptr_t>(before) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t hi = reinterpret_cast<uintptr_t>(after) & ~(kHugePage - 1);
  if (hi > lo) heap_advised = ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE) == 0;
}

}  // namespace

void tune_malloc() {
  if (tuning_off()) return;
  ::mallopt(M_MMAP_MAX, 0);
  ::mallopt(M_TOP_PAD, kHeapTopPad);
  ::mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
  ::mallopt(M_ARENA_MAX, 1);
#if !defined(__SANITIZE_ADDRESS__)
  advise_heap_huge_pages();
#endif
}

void log_malloc_tuning() {
  if (tuning_off()) {
    spdlog::debug("malloc: glibc defaults (LANCE_CLI_MALLOC_TUNING=0)");
    return;
  }
  spdlog::debug("malloc: one heap for all threads, freed memory kept; transparent huge pages for its first {} MiB {}",
                kAdvisedHeapBytes >> 20, heap_advised ? "on" : "off");
}

}  // namespace lance::app
