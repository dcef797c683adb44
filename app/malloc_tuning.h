// glibc malloc settings for a reader that allocates and frees page-sized buffers.
#pragma once

namespace lance::app {

/// Re-executes the process once (via /proc/self/exe) with GLIBC_TUNABLES asking glibc
/// malloc to keep freed memory for reuse (mmap and trim thresholds of 1 GiB) and to back
/// large blocks with transparent huge pages. Scans allocate a page's worth of buffers per
/// batch; without this each allocation is a fresh mmap whose every 4 KiB page faults, which
/// measured as over half of a text scan's time on a 2-core VM. Only for `scan` and `head`
/// command lines, and only when the input is large and local: a local file or dataset of at
/// least 32 MiB, or stdin (a small scan would spend more on loading the shared libraries a
/// second time than it saves; behind a network the exec is not won back). s3:// and
/// http(s):// paths get only the mallopt thresholds. Call first thing in main.
///
/// Does nothing when LANCE_CLI_MALLOC_TUNING=0, or when already re-executed (LANCE_CLI_REEXEC
/// is set); LANCE_CLI_MALLOC_TUNING=1 re-executes whatever the input's size. Without a
/// re-exec (small input, or exec failed) only the thresholds mallopt accepts are set.
void tune_malloc(int argc, char** argv);

}  // namespace lance::app
