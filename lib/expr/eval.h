// Evaluating a bound filter (expr/bind.h) over a record batch, vectorised: each node yields
// a Vec of the batch's rows, with SQL's three-valued logic (a null operand makes a null
// result, except AND/OR where false/true decide, and IS … which are never null). Floats
// compare in IEEE total order as Arrow's kernels do (NaN equals NaN and is above every
// number).
#pragma once

#include <cstdint>
#include <vector>

#include "array/array.h"
#include "expr/bind.h"
#include "expr/value.h"

namespace lance::expr {

/// One flag per row of `batch` (which holds every column `filter.columns` names): 1 where
/// the filter is true, 0 where it is false or null. Throws Error(usage) for a value a cast
/// cannot convert (e.g. NaN to an integer).
std::vector<uint8_t> evaluate_filter(const Filter& filter, const RecordBatch& batch);

/// The value of `node` for every row of `batch`.
Vec evaluate(const Bound& node, const RecordBatch& batch);

/// The Vec of column `path` (top-level name, then struct fields) of `batch`: a struct
/// field is null where a struct above it is.
Vec load_column(const RecordBatch& batch, const std::vector<std::string>& path);

/// Function calls of a filter (expr/eval_functions.cpp): `args` evaluated, `n` rows.
Vec call_function(const Bound& node, std::vector<Vec> args, size_t n);

/// `v` as `kind` (integer → float, date → timestamp, and CAST's conversions). Throws
/// Error(usage) for a value that does not convert.
Vec convert(const Vec& v, Kind kind);
/// Whether convert() to `to` leaves a Vec of kind `from` as it is.
bool keeps_kind(Kind from, Kind to);

}  // namespace lance::expr
