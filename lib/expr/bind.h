// Binding a parsed filter (expr/ast.h) to a table's fields: columns resolved, every node
// typed, literals converted to the type they meet, functions checked — the rules Lance 8.0
// applies (lance-datafusion's planner over DataFusion), as the goldens of
// scripts/gen-filters.mjs pin them:
//   - a literal compared with (=, <, IN, BETWEEN) an expression of another type is converted
//     to that type, and must convert exactly: `int_col = 5.0`, `int_col > 1.5`,
//     `int_col = '5'` and `date_col < '2021-01-01'` are errors; `ts_col > date '…'` is not;
//   - arithmetic widens: integers stay integers (division truncates), a float makes a float;
//   - unquoted names match case-insensitively when no name matches exactly (`ID = 5`);
//   - a filter whose type is not boolean is an error (`NULL`), `true` and `false` are fine.
// Every error is Error(usage) "filter: … at position N".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "array/types.h"
#include "expr/ast.h"
#include "expr/value.h"

namespace lance::expr {

enum class Op {
  literal,
  column,
  not_,
  neg,
  and_,
  or_,
  compare,
  arith,
  is_null,
  is_bool,
  in_list,
  between,
  like,
  function,
  cast,
  array
};

struct Bound;
using BoundPtr = std::shared_ptr<const Bound>;

struct Bound {
  Op op = Op::literal;
  Kind kind = Kind::null;  ///< the result's kind
  std::string name;        ///< compare/arith: the operator; function: its name; cast: target type; is_bool: TRUE/FALSE
  bool negated = false;    ///< NOT IN, NOT BETWEEN, NOT LIKE, IS NOT …
  bool case_insensitive = false;  ///< ILIKE
  std::vector<BoundPtr> children;
  Vec literal;                    ///< literal: one row
  std::vector<std::string> path;  ///< column: top-level name, then struct fields
  TypePtr arrow_type;             ///< column: its Arrow type
  size_t position = 0;
};

struct Filter {
  std::string text;
  BoundPtr root;
  std::vector<std::string> columns;  ///< the top-level fields it reads, in table order
  /// Position of trailing text Lance ignores (e.g. an unmatched ')'), 0 when none.
  size_t ignored_tail = 0;
};

/// Parses and binds `text` against the table's top-level `fields`. Throws Error(usage).
Filter compile_filter(const std::string& text, const std::vector<FieldPtr>& fields);

/// The evaluation kind of an Arrow type (Kind::other for structs, maps and the like).
Kind kind_of(const DataType& type);

}  // namespace lance::expr
