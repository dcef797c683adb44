// Reconciling a column as a data file stores it with the column as the dataset's current
// schema describes it. A data file keeps the schema it was written with; later manifests may
// have renamed the column or its nested children, dropped struct children, or added new ones.
// Fields are matched by Lance field id, never by name.
#pragma once

#include "array/array.h"
#include "format/schema.h"

namespace lance::dataset {

/// True when the two field trees have the same names, ids and logical types throughout.
bool same_field_tree(const format::LanceField& a, const format::LanceField& b);

/// Reshapes `array`, read from a data file whose field is `stored`, into the table field
/// `table` with output field `out` (the table field with dictionaries decoded):
/// names come from the table; struct children are matched by id, children only the file
/// has are left out, children only the table has read as nulls. Throws Error(unsupported)
/// when a field changed type between the file and the table.
ArrayPtr adapt_to_table_field(const ArrayPtr& array, const format::LanceField& stored, const format::LanceField& table,
                              const FieldPtr& out);

/// The ids of `field` and all its descendants.
void collect_field_ids(const format::LanceField& field, std::vector<int32_t>& out);

}  // namespace lance::dataset
