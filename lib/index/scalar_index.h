// A scalar index of one column, as a filter uses it: given a predicate over that column
// alone (a "leaf" of the filter, expr/bind.h), the rows of the fragments the index covers
// where the predicate is true, and where it is null. The leaf is evaluated by the filter's
// own evaluator (expr/eval.h) over the values the index stores, so an index answers with
// exactly the semantics of a scan; the index only decides which rows are looked at.
// Readers: btree_index.h (BTREE), bitmap_index.h (BITMAP, LABEL_LIST).
// Upstream: rust/lance-index/src/scalar.rs `ScalarIndex::search`, `SearchResult::Exact`.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "dataset/indices.h"
#include "expr/bind.h"
#include "index/index_file.h"
#include "index/row_set.h"

namespace lance::index {

/// A predicate's value over the rows an index covers: true in `true_rows`, null in
/// `null_rows` (when `nulls_known`), false elsewhere.
struct Answer {
  RowSet true_rows;
  RowSet null_rows;
  bool nulls_known = true;
};

class ScalarIndex {
 public:
  virtual ~ScalarIndex() = default;
  /// Whether `leaf`, a boolean expression reading only this index's column, is one this
  /// index answers (exactly, without reading the whole index).
  virtual bool answers(const expr::Bound& leaf) const = 0;
  /// `leaf`'s answer; `need_nulls`: the caller needs `null_rows` too (under NOT). Throws
  /// Error(corrupt) naming the index when its files are damaged, Error(io) when they
  /// cannot be read.
  virtual Answer answer(const expr::Bound& leaf, bool need_nulls) = 0;
};

/// The reader of `info`'s type (BTREE, BITMAP or LABEL_LIST) for column `column`; null for
/// other types. Opens nothing until asked.
std::unique_ptr<ScalarIndex> open_scalar_index(const dataset::IndexInfo& info, const std::string& column,
                                               IndexLocation where);

/// Lance's serialized RowAddrTreeMap (a BITMAP index's bitmap; lance-core's
/// `RowAddrTreeMap::serialize_into`): u32 fragment count, then per fragment u32 id, u32
/// size and a roaring bitmap of that size (size 0: the whole fragment, which needs
/// `physical_rows(id)`). Offsets must lie below the fragment's rows when those are known
/// (physical_rows returns 0 for a fragment it does not know). Throws Error(corrupt).
RowSet decode_row_addr_map(ByteView bytes, const std::function<uint32_t(uint32_t)>& physical_rows);

}  // namespace lance::index
