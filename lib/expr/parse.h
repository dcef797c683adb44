// Parsing a filter expression into its syntax tree (expr/ast.h). A hand-written recursive
// descent parser: the grammar is small (SQL's expression grammar, as DataFusion's parser
// reads it for Lance's `Scanner::filter`) and the errors must point at a position, which a
// generated parser would make harder to phrase well.
//
// Precedence, loosest first: OR; AND; NOT; comparisons, IS, BETWEEN, IN, LIKE; + -; * / %;
// unary minus. Keywords are case-insensitive. Names are plain identifiers or `backquoted`;
// 'single' and "double" quotes both make strings, as Lance reads them.
#pragma once

#include <string>

#include "expr/ast.h"

namespace lance::expr {

struct Parsed {
  NodePtr root;
  /// 1-based position of text after a complete expression, which Lance ignores (`id > 1)`
  /// reads as `id > 1`); 0 when there is none.
  size_t ignored_tail = 0;
};

/// Parses `text`. Throws Error(usage) "filter: … at position N" (1-based position) for a
/// syntax error: an unexpected token, an unterminated string or name, an empty expression.
Parsed parse(const std::string& text);

}  // namespace lance::expr
