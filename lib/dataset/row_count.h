// Row counts from metadata alone (`lance-cli count`): no page of column data is read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dataset/fragment_select.h"
#include "read/reader_options.h"

namespace lance::dataset {

struct RowCount {
  uint64_t rows = 0;                ///< visible rows (datasets: physical rows minus deleted rows)
  uint64_t deleted_rows = 0;        ///< datasets: rows deleted in the version read; 0 for a data file
  uint64_t fragments = 0;           ///< datasets: fragments; 0 for a data file
  std::optional<uint64_t> version;  ///< datasets: the version counted (Manifest.version); empty for a data file
};

/// The rows of a .lance data file (from its footer, column metadata and schema) or of a
/// dataset directory at `version` (latest when empty; from the manifest, plus deletion files
/// and data-file footers only where the manifest leaves a count out). Throws Error as
/// dataset::open_table does (usage for a version asked of a single file).
/// `fragments`: count only those fragment ids (see Dataset::select_fragments; datasets only).
RowCount count_rows(const std::string& path, std::optional<uint64_t> version = std::nullopt,
                    const read::ReaderOptions& options = {},
                    const std::optional<std::vector<IdRange>>& fragments = std::nullopt);

}  // namespace lance::dataset
