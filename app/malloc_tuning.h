// glibc malloc settings for a reader that allocates and frees page-sized buffers.
#pragma once

namespace lance::app {

/// Asks glibc malloc (mallopt) to serve every block from its heaps instead of fresh mmaps
/// (M_MMAP_MAX 0), to grow them 64 MiB at a time (M_TOP_PAD) and to keep freed memory for
/// reuse (M_TRIM_THRESHOLD 1 GiB). Scans allocate a page's worth of buffers per batch; by
/// default each block over the mmap threshold is a fresh mapping whose every 4 KiB page
/// faults, which measured as a third of a 10 M-row scalar scan's time on a 2-core VM (57,000
/// page faults -> 4,000). Peak RSS is unchanged: only what was freed is kept, not more.
/// Every thread allocates from the one main heap (M_ARENA_MAX 1): with an arena per thread
/// (the I/O pool's 64 remote requests, the prefetch threads, the decode pool), memory one
/// thread frees is reused only by threads of its arena, so each grows its own. On the 2-core
/// VM, where first-touched memory costs ~4 ms per MiB of kernel time, one arena took the
/// remote scan of 100k vectors from 265-290 MB peak RSS and 1.1-1.2 s to 180-190 MB and
/// 0.68 s, the local text scan from 1.75-1.90 s to 1.19-1.44 s (2.1, 2026-12-06).
/// Does nothing when LANCE_CLI_MALLOC_TUNING=0. Call first thing in main, before any thread
/// starts.
void tune_malloc();

/// Re-executes this program (/proc/self/exe, same argv) once with
/// GLIBC_TUNABLES=glibc.malloc.hugetlb=1 added, so that glibc malloc asks for transparent
/// huge pages (madvise MADV_HUGEPAGE) on every heap it grows, the decode and I/O threads'
/// arenas included. The first touch of heap memory then faults once per 2 MiB instead of
/// once per 4 KiB: a full scan of 100k 384-float vectors went from 9,450 page faults and
/// 230 ms to 230 faults and 43 ms on a 2-core VM, the 253 MB text scan 0.96 -> 0.69 s; the
/// second program start costs about 2.5 ms. Returns (and the caller goes on in this process)
/// when the setting is already there, when glibc is older than 2.35 (no such tunable), when
/// the kernel's transparent_hugepage mode is "never", when LANCE_CLI_MALLOC_TUNING=0, under
/// AddressSanitizer, or when the exec fails. Call first thing in main, before any thread
/// starts and before stdin is read.
void reexec_with_huge_pages(char** argv);

/// Logs (debug, -vv) which of the settings above this process runs with.
void log_malloc_tuning();

}  // namespace lance::app
