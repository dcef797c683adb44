// Which columns a read outputs: names (top-level, or dotted paths into structs) resolved
// against a file's or dataset's schema.
#pragma once

#include <string>
#include <vector>

#include "format/schema.h"

namespace lance::read {

/// One output column: a top-level field, or a field nested in structs below it.
struct ColumnSelection {
  size_t field = 0;          ///< index of the top-level field
  std::vector<size_t> path;  ///< child indices through structs (empty: the field itself)
  std::string name;          ///< output column name: the field's name, or the dotted path
};

/// The columns to read: all top-level fields when `columns` is empty, else those names in
/// the given order. A name that is not a top-level field may be a dotted path through
/// struct fields ("s.inner.y"; a top-level name with a dot in it wins). Throws Error(usage)
/// for an unknown name (with a close-match hint) or a path into a list or map.
std::vector<ColumnSelection> resolve_column_paths(const format::Schema& schema,
                                                  const std::vector<std::string>& columns);

/// As resolve_column_paths, for readers that take whole top-level fields only: a dotted
/// path is a usage error.
std::vector<size_t> resolve_projection(const format::Schema& schema, const std::vector<std::string>& columns);

}  // namespace lance::read
