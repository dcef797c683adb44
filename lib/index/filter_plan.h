// Which rows of each fragment a filter must look at, from the dataset's scalar indices.
// The filter is split at its top-level ANDs into conjuncts; a conjunct whose leaves each
// read one indexed column (joined by AND, OR and NOT, with SQL's three-valued logic) is
// answered by those indices over the fragments they all cover. In a fragment, the rows to
// look at are then the intersection of the answered conjuncts' rows: "exact" when every
// conjunct was answered there (those rows are the result), "check" otherwise (the filter
// is evaluated over them); a fragment no conjunct's indices cover is scanned. Fragments
// appended after an index was built are not in its coverage, so they are scanned.
// Upstream: rust/lance/src/io/exec/scalar_index.rs and rust/lance-index/src/scalar/
// expression.rs (`ScalarIndexExpr`), which plan the same way.
//
// Usage:
//   FilterPlan plan = plan_filter(filter, dataset, dataset::parse_indices(manifest_file));
//   for (const FragmentPlan& f : plan.fragments) ... f.mode, f.rows
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dataset/dataset.h"
#include "dataset/indices.h"
#include "expr/bind.h"

namespace lance::index {

enum class FragmentMode {
  scan,   ///< every row is evaluated
  check,  ///< `rows` are evaluated
  exact,  ///< `rows` are the answer
};

struct FragmentPlan {
  FragmentMode mode = FragmentMode::scan;
  std::vector<uint64_t> rows;  ///< check/exact: visible rows of the fragment (ascending), deleted ones left out
};

/// One conjunct answered through indices, for `--stats`.
struct IndexUse {
  std::string predicate;             ///< the conjunct, as text
  std::vector<std::string> indices;  ///< "BTREE id_idx on id", …
  uint64_t fragments = 0;            ///< fragments answered
  uint64_t rows_covered = 0;         ///< their physical rows
  uint64_t rows_matched = 0;         ///< rows where the conjunct is true
  uint64_t bytes_read = 0;           ///< bytes of index files read to answer it
  std::vector<std::string> columns;  ///< the columns it reads
};

struct FilterPlan {
  std::vector<FragmentPlan> fragments;  ///< one per fragment of the dataset, in its order
  std::vector<IndexUse> uses;
  bool any_index() const { return !uses.empty(); }
};

/// The plan of `filter` over `ds` with `indices` (the version's, dataset::parse_indices).
/// Indices of other types, of nested fields, or with files under another base path are not
/// used. Throws Error(corrupt) naming the index when an index is damaged.
FilterPlan plan_filter(const expr::Filter& filter, const dataset::Dataset& ds,
                       const std::vector<dataset::IndexInfo>& indices);

}  // namespace lance::index
