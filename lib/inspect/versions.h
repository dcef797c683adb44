// inspect versions: one entry per committed version of a dataset, with its timestamp, the
// operation that made it (from its transaction), its rows and fragments, and its tags.
// Reads every manifest, the transaction files they name, `_refs/tags/*.json`, and the
// deletion files whose counts a manifest leaves out; no data file.
//
// Usage:
//   VersionsReport r = inspect_versions("/data/t.lance");
//   std::cout << render_text(r, {}) << to_json(r).dump(2);   // {"versions": [{"version": 1, ...}]}
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "inspect/render.h"
#include "read/reader_options.h"

namespace lance::inspect {

struct VersionEntry {
  uint64_t version = 0;
  std::optional<int64_t> timestamp_ns;  ///< Manifest.timestamp, nanoseconds since the epoch (UTC)
  std::string operation;                ///< dataset::TransactionInfo::operation; "" when no transaction is recorded
  std::string detail;
  std::optional<uint64_t> read_version;
  std::string transaction;  ///< where it was read from (relative path or "manifest")
  uint64_t num_rows = 0;    ///< visible rows
  uint64_t num_deleted_rows = 0;
  uint64_t num_fragments = 0;
  uint64_t num_data_files = 0;
  uint64_t num_indices = 0;
  std::vector<std::string> tags;
  std::string writer;
  std::optional<std::string> error;  ///< why (part of) this version could not be read
};

struct VersionsReport {
  std::string path;
  std::vector<VersionEntry> versions;  ///< ascending
};

/// `dir`: a local directory or an s3:// prefix (read with `options.storage`). Throws
/// Error(io) when `dir` is not a dataset directory; a version that cannot be read
/// gets an `error` and the others are still listed.
VersionsReport inspect_versions(const std::string& dir, const read::ReaderOptions& options = {});

Json to_json(const VersionsReport& report);
std::string render_text(const VersionsReport& report, const TextOptions& options = {});

/// "2026-12-01T09:24:33.835556Z" (microseconds) for nanoseconds since the epoch.
std::string format_time_ns(int64_t ns);

}  // namespace lance::inspect
