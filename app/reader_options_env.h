// The read settings of this process: read::ReaderOptions filled once from the environment
// (LANCE_CLI_* variables, README "I/O settings"), with one ReadStats object that every command's
// reads count into (`--stats` prints it). The only place that reads those variables.
#pragma once

#include "read/reader_options.h"

namespace lance::app {

/// Built on first use from:
///   LANCE_CLI_IO_THREADS, LANCE_CLI_BLOCK_SIZE, LANCE_CLI_MAX_IOP_SIZE,
///   LANCE_CLI_IO_BYTES_IN_FLIGHT  → io (non-negative integers)
///   LANCE_CLI_PAGE_BATCH_BYTES    → page_batch_bytes (bytes; 0 = batching off)
///   LANCE_CLI_TAKE_GROUP_BYTES    → take_group_bytes (bytes; 0 = a take's groups end at fragments only)
///   LANCE_CLI_SCAN_BATCH_BYTES    → scan_batch_bytes (bytes; 0 = scan batches by rows only)
///   LANCE_CLI_DECODE_TASKS        → decode_mode ("inline", "split" or "pool"; unset: per command)
///   LANCE_CLI_CACHE_REP_INDEX     → cache_rep_index ("1", "true" or "on")
///   AWS_* variables, ~/.aws files and --storage-option → storage (app/storage_config.h)
/// Throws Error(usage) for a malformed value (and again on the next call).
const read::ReaderOptions& reader_options();

/// Parses the variables above through `lookup` (name → value or null): for tests.
read::ReaderOptions reader_options_from(const char* (*lookup)(const char* name));

}  // namespace lance::app
