// glibc malloc settings for a reader that allocates and frees page-sized buffers.
#pragma once

namespace lance::app {

/// Re-executes the process once (via /proc/self/exe) with GLIBC_TUNABLES asking glibc
/// malloc to keep freed memory for reuse (mmap and trim thresholds of 1 GiB) and to back
/// large blocks with transparent huge pages. Scans allocate a page's worth of buffers per
/// batch; without this each allocation is a fresh mmap whose every 4 KiB page faults, which
/// measured as over half of a text scan's time on a 2-core VM. Only for `scan` and `head`
/// command lines, and not for s3:// or http(s):// paths (there only the mallopt thresholds
/// are set: the exec costs more than it saves behind a network). Call first thing in main.
///
/// Does nothing when LANCE_CLI_MALLOC_TUNING=0, when already re-executed (LANCE_CLI_REEXEC
/// is set), or when exec fails (then only the thresholds mallopt accepts are set).
void tune_malloc(int argc, char** argv);

}  // namespace lance::app
