// `verify`: checks that a dataset version (or one data file) is intact, reporting every
// problem instead of stopping at the first.
//
// For a dataset version: every data file exists and has the size the manifest records
// (DataFile.file_size_bytes, where recorded) and the fragment's row count; every page of
// every column decodes (a full scan through read::FileRowReader, decoded on the decode pool);
// every deletion file parses with its offsets inside its fragment and the count the
// manifest records; every index file the manifest lists exists with its recorded size.
// For a single .lance file: its pages. Reads everything once, writes nothing.
// Upstream: lance-format/lance protos/table.proto `DataFragment`, `DataFile`,
// `DeletionFile`, `IndexMetadata.files`.
//
// Usage:
//   VerifyReport r = verify_path("/data/t.lance", std::nullopt, {});
//   for (const auto& p : r.problems) ...;  int code = verify_exit_code(r);   // 0, 1 or 4
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "io/scheduler.h"

#include "read/reader_options.h"

namespace lance::dataset {

struct VerifyProblem {
  ErrorKind kind = ErrorKind::corrupt;   ///< io: missing or unreadable; corrupt; unsupported
  std::string file;                      ///< relative to the dataset directory (or the file given)
  std::string column;                    ///< field path; "" when not about one column
  std::optional<uint32_t> column_index;  ///< the column in the data file, when one column is meant
  std::optional<uint64_t> page;          ///< page of that column
  std::string rows;                      ///< e.g. "rows 0-1023"; "" when not about rows
  std::string error;
};

struct VerifyReport {
  std::string path;
  bool is_dataset = false;
  uint64_t version = 0;     ///< datasets: the version checked
  uint64_t data_files = 0;  ///< data files checked (present or not)
  uint64_t deletion_files = 0;
  uint64_t index_files = 0;
  uint64_t pages = 0;  ///< pages of all columns of the files that opened
  uint64_t rows = 0;   ///< physical rows decoded
  uint64_t bytes = 0;  ///< bytes of the files that opened
  std::vector<VerifyProblem> problems;
};

struct VerifyOptions {
  read::ReaderOptions reader;  ///< I/O, decoding and the stats object
  uint64_t batch_rows = 8192;  ///< rows decoded at once
  /// Called after each batch with the rows decoded so far (of `total_rows`) and bytes so far.
  std::function<void(uint64_t rows, uint64_t bytes)> progress;
  /// Called once before decoding with the rows to decode.
  std::function<void(uint64_t total_rows)> start;
};

/// Verifies a dataset directory at `version` (latest when empty) or a .lance data file.
/// Problems are collected, not thrown; throws only when there is nothing to check: Error(io)
/// for a path that cannot be read, Error(usage) for a missing version or --version on a file,
/// Error(corrupt) when the manifest itself cannot be read.
VerifyReport verify_path(const std::string& path, std::optional<uint64_t> version, const VerifyOptions& options);

/// 0 clean; 4 when any problem is corruption; else 1 for missing/unreadable files; 3 when
/// the only problems are unsupported features.
int verify_exit_code(const VerifyReport& report);

/// "data/x.lance: column 'name' (column 1), page 2, rows 0-99: <error>"
std::string format_problem(const VerifyProblem& p);

}  // namespace lance::dataset
