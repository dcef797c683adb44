// glibc malloc settings for a reader that allocates and frees page-sized buffers.
#pragma once

namespace lance::app {

/// Asks glibc malloc (mallopt) to serve every block from its heaps instead of fresh mmaps
/// (M_MMAP_MAX 0), to grow them 64 MiB at a time (M_TOP_PAD) and to keep freed memory for
/// reuse (M_TRIM_THRESHOLD 1 GiB). Scans allocate a page's worth of buffers per batch; by
/// default each block over the mmap threshold is a fresh mapping whose every 4 KiB page
/// faults, which measured as a third of a 10 M-row scalar scan's time on a 2-core VM (57,000
/// page faults -> 4,000). Peak RSS is unchanged: only what was freed is kept, not more.
///
/// Earlier versions re-executed the process with GLIBC_TUNABLES for the same effect; loading
/// the shared libraries twice cost more than a small scan. Does nothing when
/// LANCE_CLI_MALLOC_TUNING=0. Call first thing in main, before any thread starts.
void tune_malloc();

}  // namespace lance::app
