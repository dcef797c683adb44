#include "app/malloc_tuning.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

#include <cstdlib>
#include <cstring>

namespace lance::app {

void tune_malloc() {
  const char* setting = std::getenv("LANCE_CLI_MALLOC_TUNING");
  if (setting && std::strcmp(setting, "0") == 0) return;
  ::mallopt(M_MMAP_MAX, 0);
  ::mallopt(M_TOP_PAD, 64 * 1024 * 1024);
  ::mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
  // Transparent huge pages for the heap, as glibc's hugetlb=1 tunable would ask (that
  // tunable is read only at process start). Growing the break makes a new mapping without the
  // advice, so the heap is grown once, here, by kAdvisedHeapBytes (address space only: the
  // block is freed at once, and the trim threshold keeps it), and advised as a whole. Where
  // the kernel's THP mode is "madvise", the heap then faults once per 2 MiB, not per 4 KiB.
  // Threads' arenas are left as they are.
  constexpr size_t kAdvisedHeapBytes = size_t{256} << 20;
  if (void* block = std::malloc(kAdvisedHeapBytes)) {
    const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const uintptr_t lo = (reinterpret_cast<uintptr_t>(block) + page - 1) & ~(page - 1);
    const auto end = reinterpret_cast<uintptr_t>(::sbrk(0));
    if (end > lo) ::madvise(reinterpret_cast<void*>(lo), end - lo, MADV_HUGEPAGE);
    std::free(block);
  }
}

}  // namespace lance::app
