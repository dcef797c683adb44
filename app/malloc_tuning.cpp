#include "app/malloc_tuning.h"

#include <dirent.h>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/thread_start.h"

namespace lance::app {

/// The feature bits of each virtio balloon device (sysfs: one '0'/'1' per bit, bit 0 first).
std::vector<std::string> balloon_features() {
  std::vector<std::string> out;
  const std::string dir = "/sys/bus/virtio/drivers/virtio_balloon";
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;  // no balloon driver: bare metal, or a VM without one
  while (const dirent* e = ::readdir(d)) {
    if (std::strncmp(e->d_name, "virtio", 6) != 0) continue;  // the devices: virtio0, ...
    std::FILE* f = std::fopen((dir + "/" + e->d_name + "/features").c_str(), "r");
    if (!f) continue;
    char text[512] = {};
    const size_t n = std::fread(text, 1, sizeof text - 1, f);
    std::fclose(f);
    out.emplace_back(text, n);
  }
  ::closedir(d);
  return out;
}

bool reports_free_pages(const std::vector<std::string>& balloon_features) {
  constexpr size_t kReportingBit = 5;  // VIRTIO_BALLOON_F_REPORTING
  return std::any_of(balloon_features.begin(), balloon_features.end(),
                     [](const std::string& bits) { return bits.size() > kReportingBit && bits[kReportingBit] == '1'; });
}

bool huge_pages_forced(const char* setting) {
  return setting && (std::strcmp(setting, "0") == 0 || std::strcmp(setting, "1") == 0);
}

bool huge_pages_wanted(const char* setting, bool reports_free_pages, double page_fault_us) {
  if (huge_pages_forced(setting)) return setting[0] == '1';
  return !reports_free_pages || page_fault_us >= kCostlyPageFaultMicros;
}

double page_fault_micros() {
  constexpr size_t kPages = 2;
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  void* m = ::mmap(nullptr, kPages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return 0;
  auto* bytes = static_cast<volatile char*>(m);
  // One base page a fault (no transparent or multi-size huge page), and no merging with a
  // neighbouring mapping that could get them.
  ::madvise(m, kPages * page, MADV_NOHUGEPAGE);
  // The first faults may wait for the host to back a block it dropped; the pages freed here
  // are the ones the refaults below get back, so those time the guest's own fault path.
  for (size_t i = 0; i < kPages; ++i) bytes[i * page] = 1;
  ::madvise(m, kPages * page, MADV_DONTNEED);
  using Clock = std::chrono::steady_clock;
  const auto micros = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::micro>(b - a).count();
  };
  const auto c0 = Clock::now();
  const double clock_cost = micros(c0, Clock::now());
  double fastest = 1e9;
  for (size_t i = 0; i < kPages; ++i) {
    const auto start = Clock::now();
    bytes[i * page] = 2;
    fastest = std::min(fastest, micros(start, Clock::now()));
  }
  // The pages stay mapped: unmapping them cost more than the two faults under PVM (18 us).
  return std::max(0.0, fastest - clock_cost);
}

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

/// The heaps glibc may create: LANCE_CLI_MALLOC_HEAPS (1 to 64; anything else: 1).
unsigned heaps() {
  const char* setting = std::getenv("LANCE_CLI_MALLOC_HEAPS");
  if (!setting || !*setting) return 1;
  char* rest = nullptr;
  const unsigned long n = std::strtoul(setting, &rest, 10);
  return *rest == '\0' && n >= 1 && n <= 64 ? static_cast<unsigned>(n) : 1;
}

/// Blocks kept for the process's life by skip_to_huge_page.
std::mutex kept_mutex;
std::vector<void*> kept_blocks;

/// Allocates, and keeps, the block from `top` (where a heap's free top starts) to `boundary`
/// (the start of the heap's first advised huge page), so that later allocations start there.
/// The partly used 2 MiB before `boundary` already has a page table, so it can only get
/// 4 KiB pages, each faulting on first touch: a 2048-row take of 100k vectors took ~260 such
/// faults on the main heap, and as many as 512 on a decoding thread's heap. The block costs
/// address space under 2 MiB and the page holding its header. Does nothing unless
/// 0 < boundary - top < 2 MiB.
void skip_to_huge_page(uintptr_t top, uintptr_t boundary) {
  constexpr uintptr_t kChunkOverhead = 2 * sizeof(size_t);  // a malloc chunk's header
  if (boundary <= top + 2 * kChunkOverhead || boundary - top >= kHugePage) return;
  void* block = std::malloc(boundary - top - kChunkOverhead);
  if (!block) return;
  std::lock_guard lock(kept_mutex);
  kept_blocks.push_back(block);
}

/// Why huge_pages_wanted decided as it did (for log_malloc_tuning).
std::string huge_pages_reason;

/// Whether this process advises its heaps for transparent huge pages: huge_pages_wanted for its
/// environment and machine, and the kernel's mode allows them; notes why. Reads sysfs (which
/// allocates) and times two page faults: called before tune_malloc sets M_TOP_PAD, so that
/// the heap does not grow by the pad before advise_heap_huge_pages measures its top.
[[maybe_unused]] bool decide_huge_pages() {
  const char* setting = std::getenv("LANCE_CLI_HUGE_PAGES");
  const bool forced = huge_pages_forced(setting);
  const bool reporting = !forced && reports_free_pages(balloon_features());
  const double fault_us = reporting ? page_fault_micros() : 0;
  if (forced)
    huge_pages_reason = fmt::format(" (LANCE_CLI_HUGE_PAGES={})", setting);
  else if (reporting)
    huge_pages_reason =
        fmt::format(" (free page reporting to the hypervisor; a 4 KiB page fault took {:.2f} us)", fault_us);
  if (!huge_pages_wanted(setting, reporting, fault_us)) return false;
  return kernel_allows_huge_pages();
}

/// Grows the heap once by kAdvisedHeapBytes (a block that size taken from the heap's top and
/// freed again at once: M_TRIM_THRESHOLD keeps the space) and advises that stretch for
/// transparent huge pages, as glibc.malloc.hugetlb=1 would (which needs the tunable at
/// program start, so a second exec). Growth beyond the stretch gets ordinary pages. Nothing
/// in the stretch may be touched before the advice, or its 2 MiB gets a page table of 4 KiB
/// pages: the growth pads nothing (M_TOP_PAD 0), so the one header malloc writes there, the
/// new top's, lies at the stretch's end, which the advice leaves out.
[[maybe_unused]] void advise_heap_huge_pages() {  // not called under AddressSanitizer
  ::mallopt(M_TOP_PAD, 0);
  auto* before = static_cast<char*>(::sbrk(0));
  void* grow = std::malloc(kAdvisedHeapBytes);
  asm volatile("" : : "r"(grow) : "memory");  // the compiler must not drop the malloc/free pair
  auto* after = static_cast<char*>(::sbrk(0));
  const auto grow_end = reinterpret_cast<uintptr_t>(grow) + kAdvisedHeapBytes;
  std::free(grow);
  ::mallopt(M_TOP_PAD, kHeapTopPad);
  if (grow_end == kAdvisedHeapBytes || before == reinterpret_cast<char*>(-1) || after == reinterpret_cast<char*>(-1) ||
      after <= before)
    return;
  const uintptr_t lo = (reinterpret_cast<uintptr_t>(before) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t hi = grow_end & ~(kHugePage - 1);
  if (hi > lo) heap_advised = ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE) == 0;
  // The main heap's free top ends at the break; mallinfo2's keepcost is its size.
  if (heap_advised) skip_to_huge_page(reinterpret_cast<uintptr_t>(after) - ::mallinfo2().keepcost, lo);
}

/// glibc maps each heap of a thread's arena (not the main one) at an address aligned to the
/// heap's largest size, 64 MiB on 64-bit without the glibc.malloc.hugetlb tunable (heap_for_ptr
/// in glibc's malloc/arena.c). The whole reservation is advised: the part not yet usable is
/// PROT_NONE until the heap grows into it, and keeps the advice then.
constexpr uintptr_t kThreadHeapBytes = uintptr_t{64} << 20;

extern "C" char end;  // the end of the program's data: the main heap (brk) lies above it

/// The thread-start hook (common/thread_start.h): advises the heap this thread allocates from
/// for transparent huge pages, as advise_heap_huge_pages does the main heap's first stretch,
/// unless it is the main heap. A 2048-row take of the large nested table decoded on the pool
/// took 736 page faults with one heap, 3,416 with a heap per decoding thread unadvised, 590
/// advised (skip_to_huge_page included).
[[maybe_unused]] void advise_thread_heap() {
  void* probe = std::malloc(1);
  if (!probe) return;
  const auto at = reinterpret_cast<uintptr_t>(probe);
  std::free(probe);
  const auto brk = reinterpret_cast<uintptr_t>(::sbrk(0));
  if (at >= reinterpret_cast<uintptr_t>(&end) && at < brk) return;  // the main heap
  static std::mutex mutex;
  static std::vector<uintptr_t> advised;
  const uintptr_t base = at & ~(kThreadHeapBytes - 1);
  {
    std::lock_guard lock(mutex);
    if (std::find(advised.begin(), advised.end(), base) != advised.end()) return;
    advised.push_back(base);
  }
  if (::madvise(reinterpret_cast<void*>(base), kThreadHeapBytes, MADV_HUGEPAGE) != 0) return;
  // A fresh heap's top starts right after the probe's 32-byte chunk (now in the thread's cache).
  skip_to_huge_page(at + 16, base + kHugePage);
}

}  // namespace

void tune_malloc() {
  if (tuning_off()) return;
#if !defined(__SANITIZE_ADDRESS__)
  const bool huge_pages = decide_huge_pages();
#endif
  ::mallopt(M_MMAP_MAX, 0);
  ::mallopt(M_TOP_PAD, kHeapTopPad);
  ::mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
  ::mallopt(M_ARENA_MAX, static_cast<int>(heaps()));
#if !defined(__SANITIZE_ADDRESS__)
  if (huge_pages) advise_heap_huge_pages();
  if (heap_advised && heaps() > 1) set_thread_start_hook(&advise_thread_heap);
#endif
}

void log_malloc_tuning() {
  if (tuning_off()) {
    spdlog::debug("malloc: glibc defaults (LANCE_CLI_MALLOC_TUNING=0)");
    return;
  }
  spdlog::debug(
      "malloc: at most {} heaps, freed memory kept; transparent huge pages for the main heap's first {} MiB and "
      "each thread's heap {}{}",
      heaps(), kAdvisedHeapBytes >> 20, heap_advised ? "on" : "off", huge_pages_reason);
}

}  // namespace lance::app
