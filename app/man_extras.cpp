// The man page's sections that the command definitions cannot hold: exit codes, environment,
// see also. The test "man page names every environment variable of the README"
// (tests/test_man_page.cpp) fails when the README documents a variable missing here.
#include <string>

#include "app/man_page.h"
#include "common/exit_status.h"

namespace lance::app {

namespace {

std::string code(ErrorKind kind) { return std::to_string(exit_status(kind)); }

}  // namespace

ManPageExtras lance_man_page_extras() {
  ManPageExtras e;
  e.version = LANCE_CLI_VERSION;
  e.exit_status = {
      {"0", "Success; also when the reader of the output goes away early (EPIPE ends quietly)."},
      {code(ErrorKind::io),
       "I/O error: an input cannot be opened or read, or -o FILE cannot be written; also an internal error "
       "(a broken invariant of lance-cli itself)."},
      {code(ErrorKind::usage),
       "Usage error: a bad option or argument (unknown column, row out of range, unknown "
       "--version, an unknown shell for completions)."},
      {code(ErrorKind::unsupported),
       "Unsupported: a valid file using a format version, layout or encoding this build does not read."},
      {code(ErrorKind::corrupt), "Corrupt file: something read from the file contradicts the format or its size."},
      {"130, 143, 129", "Stopped by SIGINT, SIGTERM or SIGHUP (128 + the signal); a temporary -o file is removed."},
  };
  e.environment = {
      {"AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN", "Credentials for s3:// paths."},
      {"AWS_PROFILE, AWS_DEFAULT_PROFILE",
       "The profile of the AWS files to read (default: default): aws_access_key_id, aws_secret_access_key, "
       "aws_session_token, region, endpoint_url, and services = NAME (its [services NAME] s3 endpoint_url)."},
      {"AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE", "The AWS files (default: ~/.aws/config, ~/.aws/credentials)."},
      {"AWS_REGION, AWS_DEFAULT_REGION", "The signing region (default: us-east-1)."},
      {"AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_S3", "An S3-compatible endpoint (MinIO, Ceph RGW, R2, ...)."},
      {"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true: ignore the endpoints of the AWS files and variables."},
      {"AWS_ALLOW_HTTP", "true: permit a plain http:// endpoint."},
      {"AWS_SKIP_SIGNATURE", "true: unsigned requests (public buckets)."},
      {"LANCE_CLI_IO_THREADS", "Parallel reads (default: 8)."},
      {"LANCE_CLI_BLOCK_SIZE", "Merge byte ranges whose gap is at most this (default: 4096)."},
      {"LANCE_CLI_MAX_IOP_SIZE", "Split merged reads above this (default: 16 MiB)."},
      {"LANCE_CLI_IO_BYTES_IN_FLIGHT", "Bound on outstanding reads (default: 256 MiB)."},
      {"LANCE_CLI_INLINE_READ_BYTES",
       "Local reads up to this size run on the thread that asks for them (default: 256 KiB; 0: all on the I/O "
       "pool)."},
      {"LANCE_CLI_PAGE_BATCH_BYTES",
       "Reads of consecutive pages of a column go out as one request up to this many "
       "bytes (default: 8 MiB; 0: one request per page)."},
      {"LANCE_CLI_TAKE_GROUP_BYTES",
       "A take from a local table decodes and writes in groups of about this many file bytes (default: 4 MiB; "
       "a take of at most four times that is one group)."},
      {"LANCE_CLI_SCAN_BATCH_BYTES",
       "A scan reads and decodes batches of at most about this many file bytes of the projected columns "
       "(default: 4 MiB; 0: batches of --batch-size rows)."},
      {"LANCE_CLI_CACHE_REP_INDEX", "1: keep a full-zip page's repetition index after the first take."},
      {"LANCE_CLI_DECODE_TASKS",
       "pool, inline or split: where decoding runs (split: inline, but a large per-value zstd/lz4 page "
       "decompresses in parts on the pool). Default: inline for local scans under 1 MiB, split for larger local "
       "scans of one file or fragment or of mostly such pages, and for takes of under 1 MiB to decode, pool "
       "otherwise."},
      {"LANCE_CLI_HUGE_PAGES",
       "0: no transparent huge pages for the malloc heaps; 1: huge pages. Default: huge pages, except on a VM "
       "that reports its free memory to the hypervisor (virtio balloon free page reporting) where a 4 KiB page "
       "fault takes under 4 us."},
      {"LANCE_CLI_MALLOC_HEAPS",
       "How many malloc heaps the threads may use, 1 to 64 (default: 1). More: faster decoding on the pool, more "
       "memory on scans of long strings."},
      {"LANCE_CLI_MALLOC_TUNING", "0: leave glibc malloc at its defaults (no mallopt, no huge-page advice)."},
      {"LANCE_CLI_PROGRESS_DELAY_MS", "Delay before the progress line appears (default: 1000)."},
      {"NO_COLOR", "Set: no colour with --color=auto."},
      {"TMPDIR", "Where standard input (-) is copied when a command needs random access to it."},
  };
  e.see_also = {"README.md and docs/commands.md in the lance-cli sources (the same options, with more detail)",
                "The Lance format: https://lancedb.github.io/lance/"};
  return e;
}

}  // namespace lance::app
