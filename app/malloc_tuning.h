// glibc malloc settings for a reader that allocates and frees page-sized buffers.
#pragma once

#include <string>
#include <vector>

namespace lance::app {

/// Asks glibc malloc (mallopt) to serve every block from its heaps instead of fresh mmaps
/// (M_MMAP_MAX 0), to grow them 64 MiB at a time (M_TOP_PAD) and to keep freed memory for
/// reuse (M_TRIM_THRESHOLD 1 GiB). Scans allocate a page's worth of buffers per batch; by
/// default each block over the mmap threshold is a fresh mapping whose every 4 KiB page
/// faults, which measured as a third of a 10 M-row scalar scan's time on a 2-core VM (57,000
/// page faults -> 4,000). Peak RSS is unchanged: only what was freed is kept, not more.
/// Every thread allocates from the one main heap (M_ARENA_MAX 1) unless
/// LANCE_CLI_MALLOC_HEAPS=N (1 to 64) allows more. With an arena per thread (glibc's default:
/// 8 per core; 64 I/O threads for remote requests) memory one thread frees is reused only by
/// the threads of its heap, so each grows its own: the remote scan of 100k vectors went from
/// 265-290 MB peak RSS and 1.1-1.2 s to 180-190 MB and 0.68 s with one heap. One heap makes the
/// threads that decode side by side queue for its lock (4,800 futex calls in a 2048-row take
/// of the large nested table). Three heaps (the main thread's and one per CPU-pool thread on
/// the 2-core VM) took that take 75 -> 56 ms, the 10-file scalar scan 291 -> 249 ms and the
/// nested_large scan 204 -> 158 ms, but peak RSS grew with the table on scans of long strings:
/// the local 1.1 M-row text column 146 -> 287-321 MB, a remote 1.1 M-row one 694 -> 895-961 MB
/// (2026-12-07, docs/performance.md). Hence one by default, more on request.
/// Then the heap grows once by 256 MiB (virtual until touched) and that stretch is advised
/// for transparent huge pages (madvise MADV_HUGEPAGE, when the kernel's mode is not "never";
/// not under AddressSanitizer), as GLIBC_TUNABLES=glibc.malloc.hugetlb=1 would do for every
/// heap it grows: the first touch of heap memory faults once per 2 MiB instead of once per
/// 4 KiB (a full scan of 100k 384-float vectors: 9,450 page faults and 230 ms -> 230 faults
/// and 43 ms on a 2-core VM). The tunable is read only at program start, so using it meant
/// executing the program a second time, which cost every command 1.3-1.7 ms (a 2048-row take
/// of 10 M scalars: 5.1 -> 3.8 ms); memory beyond the stretch gets ordinary pages.
/// The huge pages are left out where huge_pages_wanted says so (free page reporting and cheap
/// 4 KiB page faults).
/// Does nothing when LANCE_CLI_MALLOC_TUNING=0. Call first thing in main, before any thread
/// starts.
void tune_malloc();

/// A 4 KiB page fault at least this slow (microseconds) makes huge pages worth their risk on a VM
/// that reports free pages: under PVM (a hypervisor that shadows the guest's page tables) one
/// costs 8-11 us, and a 2048-row take of the large nested table ran in 78-95 ms with 4 KiB pages
/// against 23-27 ms with huge pages, and in 81-100 ms against 46-74 ms after 4 s idle; on a KVM
/// VM with hardware paging a first touch cost ~1.4 us (64 MiB at 2.9 GB/s), and there 4 KiB
/// pages were level or faster (docs/performance.md, 2026-12-07).
inline constexpr double kCostlyPageFaultMicros = 4.0;

/// Whether `setting` (LANCE_CLI_HUGE_PAGES, null when unset) makes the choice itself: "0" or "1".
/// Any other value leaves it to the machine, as no value does.
bool huge_pages_forced(const char* setting);

/// Whether tune_malloc advises the heaps for transparent huge pages. `setting` is
/// LANCE_CLI_HUGE_PAGES (null when unset): "0" no, "1" yes. Otherwise yes, unless the machine is
/// a VM that reports its free memory to the hypervisor (`reports_free_pages`) and a 4 KiB page
/// fault there is cheap (`page_fault_us`, from page_fault_micros, under
/// kCostlyPageFaultMicros). Such a host drops the 2 MiB blocks the guest frees (Linux reports
/// blocks of page_reporting_order after 2 s idle), and the first touch of a huge page that lands
/// on one waits for the host to supply it again: on a 2-core KVM VM a 3 MB read buffer took
/// 10 ms to fault in instead of 1 ms, a 2048-row text take 89 ms instead of 33 ms after 3 s idle;
/// with 4 KiB pages the same runs were level or faster warm. Pure: reads nothing itself.
bool huge_pages_wanted(const char* setting, bool reports_free_pages, double page_fault_us);

/// Whether a virtio balloon device has free page reporting (VIRTIO_BALLOON_F_REPORTING, bit 5)
/// among `balloon_features` (each one '0'/'1' character per feature bit from bit 0, as sysfs
/// lists them in `balloon_features()`).
bool reports_free_pages(const std::vector<std::string>& balloon_features);

/// Microseconds the faster of two page faults took (the kernel zeroing the base page
/// included, the clock's own cost not): two anonymous pages are written once, freed
/// (MADV_DONTNEED) and written again, and the second writes are timed, so that a host
/// supplying memory it had dropped does not count (a KVM guest's first touch after idle can
/// wait ~9 us for it, which would read as dear). 0 when no pages could be mapped. Costs an
/// 8 KiB mmap that stays mapped, two madvise calls and four faults: ~70 us under PVM.
double page_fault_micros();

/// The feature bits of each virtio balloon device of this machine, as sysfs lists them
/// (/sys/bus/virtio/drivers/virtio_balloon/virtio*/features); empty on bare metal or a VM
/// without one.
std::vector<std::string> balloon_features();

/// Logs (debug, -vv) which of the settings above this process runs with.
void log_malloc_tuning();

}  // namespace lance::app
