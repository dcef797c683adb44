// The scalar index readers open_scalar_index (scalar_index.h) chooses between.
#pragma once

#include <memory>
#include <string>

#include "index/scalar_index.h"

namespace lance::index {

/// BTREE: rust/lance-index/src/scalar/btree.rs upstream (btree_index.cpp).
std::unique_ptr<ScalarIndex> make_btree_index(const std::string& column, IndexLocation where);
/// BITMAP, or LABEL_LIST (a bitmap of the list items): bitmap.rs, label_list.rs upstream
/// (bitmap_index.cpp).
std::unique_ptr<ScalarIndex> make_bitmap_index(const std::string& column, IndexLocation where, bool label_list);

/// A batch of one column: column `index` of `batch`, renamed `name` (so that a leaf naming
/// the indexed column evaluates over the values an index file stores).
RecordBatch column_as(const RecordBatch& batch, size_t index, const std::string& name);

/// Throws Error(corrupt) naming `what` unless the values an index file stores (`stored`)
/// have the kind of `column`'s values in `leaf` (`items`: of its list items, for a
/// LABEL_LIST): a leaf is evaluated over them as if they were that column.
void check_stored_kind(const expr::Bound& leaf, const std::string& column, const Field& stored, bool items,
                       const std::string& what);

/// Whether `node` is a literal that is not null.
bool non_null_literal(const expr::Bound& node);

}  // namespace lance::index
