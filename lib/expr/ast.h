// The syntax tree of a filter expression: Lance's filter language, the SQL expressions
// `Scanner::filter` accepts (DataFusion's dialect; lance-datafusion/src/planner.rs upstream),
// as expr/parse.h reads them. Untyped: expr/bind.h resolves columns and types.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lance::expr {

struct Node;
using NodePtr = std::shared_ptr<const Node>;

enum class NodeKind {
  literal,   ///< `text` per `literal`: a number, 'string', TRUE/FALSE, NULL, date '…', timestamp '…'
  column,    ///< `path`: a field, `a`, `s.a`, `` `odd name` ``
  unary,     ///< `op` "-" or "NOT" of children[0]
  binary,    ///< `op` one of = != < <= > >= + - * / % AND OR, children[0] op children[1]
  is_null,   ///< children[0] IS [NOT] NULL (`negated`)
  is_bool,   ///< children[0] IS [NOT] TRUE/FALSE (`text` "TRUE"/"FALSE", `negated`)
  between,   ///< children[0] [NOT] BETWEEN children[1] AND children[2]
  in_list,   ///< children[0] [NOT] IN (children[1..])
  like,      ///< children[0] [NOT] LIKE|ILIKE children[1] [ESCAPE children[2]] (`op` "LIKE"/"ILIKE")
  function,  ///< `text` (lower-cased name) of children
  cast,      ///< CAST(children[0] AS `text`) (the type name, upper-cased)
  array,     ///< [children…]: a list literal (array_has_any(tags, ['a', 'b']))
};

enum class LiteralKind { integer, decimal, string, boolean, null, date, timestamp };

struct Node {
  NodeKind kind = NodeKind::literal;
  LiteralKind literal = LiteralKind::null;
  std::string text;               ///< literal text (strings unquoted), function name, cast type
  std::string op;                 ///< operator, upper-cased for words
  std::vector<std::string> path;  ///< column: the names from the top
  bool negated = false;
  std::vector<NodePtr> children;
  size_t position = 0;  ///< 0-based byte offset in the expression (for messages)
};

}  // namespace lance::expr
