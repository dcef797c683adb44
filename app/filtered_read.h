// Reads with `--filter EXPR`: the rows of a table matching a Lance filter expression
// (expr/bind.h), in scan order. The filter's columns are scanned first, batch by batch; the
// output columns are then read for the matching rows only, through take (no page without a
// match is read for them), and --limit stops the scan once enough rows matched.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "array/array.h"
#include "dataset/table_reader.h"

namespace lance::app {

struct FilteredRead {
  std::string expression;
  uint64_t offset = 0;            ///< matching rows to skip
  std::optional<uint64_t> limit;  ///< matching rows to read at most
  uint64_t batch_size = 8192;     ///< rows per output batch
};

/// Opens a reader of the same input for other columns (the filter's): `columns` are
/// top-level names.
using ReopenTable = std::function<std::unique_ptr<dataset::TableReader>(const std::vector<std::string>& columns)>;

/// Streams the matching rows of `output` (the projection) to `sink`; returns how many.
/// Throws Error(usage) for a bad expression (message "filter: … at position N").
uint64_t read_filtered(dataset::TableReader& output, const ReopenTable& reopen, const FilteredRead& read,
                       const std::function<void(RecordBatch)>& sink);

/// The number of rows matching `expression` (countRows(EXPR)); only the filter's columns
/// are read.
uint64_t count_filtered(const ReopenTable& reopen, const std::string& expression);

}  // namespace lance::app
