#include "app/reader_options_env.h"

#include <cstdlib>
#include <string>

#include "app/storage_config.h"
#include "common/error.h"

namespace lance::app {

namespace {

uint64_t u64_var(const char* (*lookup)(const char*), const char* name, uint64_t fallback) {
  const char* v = lookup(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  unsigned long long x = std::strtoull(v, &end, 10);
  if (!end || *end != '\0' || *v == '-')
    throw_usage("environment variable {}={} is not a non-negative integer", name, v);
  return x;
}

const char* from_environment(const char* name) { return std::getenv(name); }

}  // namespace

read::ReaderOptions reader_options_from(const char* (*lookup)(const char* name)) {
  read::ReaderOptions o;
  o.io.block_size = u64_var(lookup, "LANCE_CLI_BLOCK_SIZE", o.io.block_size);
  o.io.max_iop_size = u64_var(lookup, "LANCE_CLI_MAX_IOP_SIZE", o.io.max_iop_size);
  const uint64_t threads = u64_var(lookup, "LANCE_CLI_IO_THREADS", o.io.io_threads);
  if (threads > io::kMaxIoThreads)
    throw_usage("environment variable LANCE_CLI_IO_THREADS={} is more than {} threads", threads, io::kMaxIoThreads);
  o.io.io_threads = static_cast<unsigned>(threads);
  o.io.max_bytes_in_flight = u64_var(lookup, "LANCE_CLI_IO_BYTES_IN_FLIGHT", o.io.max_bytes_in_flight);
  o.io.inline_read_bytes = u64_var(lookup, "LANCE_CLI_INLINE_READ_BYTES", o.io.inline_read_bytes);
  o.io = o.io.normalized();
  o.page_batch_bytes = u64_var(lookup, "LANCE_CLI_PAGE_BATCH_BYTES", o.page_batch_bytes);
  o.take_group_bytes = u64_var(lookup, "LANCE_CLI_TAKE_GROUP_BYTES", o.take_group_bytes);
  o.scan_batch_bytes = u64_var(lookup, "LANCE_CLI_SCAN_BATCH_BYTES", o.scan_batch_bytes);
  if (const char* v = lookup("LANCE_CLI_DECODE_TASKS"); v && *v) {
    const std::string s(v);
    if (s == "inline")
      o.decode_mode = read::DecodeMode::inline_run;
    else if (s == "split")
      o.decode_mode = read::DecodeMode::inline_split_large;
    else if (s == "pool")
      o.decode_mode = read::DecodeMode::pool;
    else
      throw_usage("LANCE_CLI_DECODE_TASKS={} (expected inline, split or pool)", s);
  }
  if (const char* v = lookup("LANCE_CLI_CACHE_REP_INDEX")) {
    const std::string s(v);
    o.cache_rep_index = s == "1" || s == "true" || s == "on";
  }
  o.stats = std::make_shared<ReadStats>();
  return o;
}

const read::ReaderOptions& reader_options() {
  static const read::ReaderOptions options = [] {
    read::ReaderOptions o = reader_options_from(from_environment);
    o.storage = storage_options_from_environment();
    return o;
  }();
  return options;
}

}  // namespace lance::app
