// Reads with `--filter EXPR`: the rows of a table matching a Lance filter expression
// (expr/bind.h), in scan order. For a dataset, the version's scalar indices (BTREE, BITMAP,
// LABEL_LIST) first narrow the rows of the fragments they cover (index/filter_plan.h);
// the filter's columns are then scanned, or taken for the rows the indices left, batch by
// batch. Output columns the filter reads come from that pass; the others are read for the
// matching rows only, through take (no page without a match is read for them), and --limit
// stops the reading once enough rows matched.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "array/array.h"
#include "dataset/table_reader.h"
#include "index/filter_plan.h"

namespace lance::app {

struct FilteredRead {
  std::string expression;
  uint64_t offset = 0;            ///< matching rows to skip
  std::optional<uint64_t> limit;  ///< matching rows to read at most
  uint64_t batch_size = 8192;     ///< rows per output batch
  bool use_indices = true;        ///< false: `--no-index`, every fragment is scanned
  /// Estimate the column bytes each index use kept out of the scan (`--stats`: reads every
  /// data file's metadata once more).
  bool estimate_savings = false;
};

/// What a filtered read did besides its rows: the conjuncts indices answered.
struct FilterReport {
  uint64_t rows = 0;                  ///< matching rows (written, or counted)
  std::vector<index::IndexUse> uses;  ///< empty: no index was used
  /// Per use (estimate_savings): its columns' bytes on disk × the share of the dataset's
  /// rows it kept out of the scan.
  std::vector<uint64_t> bytes_skipped;
  uint64_t rows_evaluated = 0;  ///< rows the filter was evaluated over
};

/// Opens a reader of the same input for other columns (the filter's): `columns` are
/// top-level names.
using ReopenTable = std::function<std::unique_ptr<dataset::TableReader>(const std::vector<std::string>& columns)>;

/// Streams the matching rows of `output` (the projection) to `sink`.
/// Throws Error(usage) for a bad expression (message "filter: … at position N").
FilterReport read_filtered(dataset::TableReader& output, const ReopenTable& reopen, const FilteredRead& read,
                           const std::function<void(RecordBatch)>& sink);

/// The number of rows matching `read.expression` (countRows(EXPR)); only the filter's
/// columns are read (none for fragments the indices answer whole). Offset and limit are ignored.
FilterReport count_filtered(const ReopenTable& reopen, const FilteredRead& read);

/// Hands the row numbers matching `read.expression` to `matched`, ascending, a batch at a
/// time, until it returns false (a prefilter: vector search). Offset and limit are ignored.
FilterReport match_filtered(const ReopenTable& reopen, const FilteredRead& read,
                            const std::function<bool(std::vector<uint64_t>)>& matched);

/// Which of `rows` (row numbers, any order) match `expression` (a postfilter): one flag per
/// row, in their order. Only the filter's columns of those rows are read (take).
std::vector<bool> rows_matching(const ReopenTable& reopen, const std::string& expression,
                                const std::vector<uint64_t>& rows);

/// `--stats` of a filtered read: text lines ("index: … answered …", "filter: evaluated over
/// N rows"), or a JSON object {"index_uses": [{predicate, indices, fragments, rows_covered,
/// rows_matched, rows_skipped, index_bytes_read}], "rows_evaluated": N}.
std::string render_filter_stats(const FilterReport& report, bool json);

}  // namespace lance::app
