#include "expr/parse.h"

#include <cctype>
#include <vector>

#include "common/error.h"

namespace lance::expr {

namespace {

enum class Tok { end, ident, quoted_ident, string, number, op, keyword };

struct Token {
  Tok kind = Tok::end;
  std::string text;  ///< keywords upper-cased; strings and quoted names unquoted
  size_t position = 0;
  std::string raw;  ///< a word as written (a keyword used as a name keeps its case)
};

const char* const kKeywords[] = {"AND", "OR",   "NOT",   "IS",     "NULL", "TRUE", "FALSE",     "BETWEEN",
                                 "IN",  "LIKE", "ILIKE", "ESCAPE", "CAST", "AS",   "TIMESTAMP", "DATE"};

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

[[noreturn]] void syntax_error(const std::string& what, size_t position) {
  throw_usage("filter: {} at position {}", what, position + 1);
}

/// The text between `quote`s from `i` (just past the opening one); a doubled quote is one.
std::string quoted(const std::string& s, size_t& i, char quote, const char* what, size_t start) {
  std::string out;
  for (;;) {
    if (i >= s.size()) syntax_error(std::string("unterminated ") + what, start);
    if (s[i] == quote) {
      if (i + 1 < s.size() && s[i + 1] == quote) {
        out += quote;
        i += 2;
        continue;
      }
      ++i;
      return out;
    }
    out += s[i++];
  }
}

size_t number_end(const std::string& s, size_t i) {
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
      i = j;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    }
  }
  return i;
}

std::vector<Token> lex(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isspace(c)) {
      ++i;
      continue;
    }
    const size_t start = i;
    if (c == '\'' || c == '"') {  // Lance reads "text" as a string too, not as a name
      ++i;
      out.push_back({Tok::string, quoted(s, i, static_cast<char>(c), "string", start), start, ""});
    } else if (c == '`') {
      ++i;
      out.push_back({Tok::quoted_ident, quoted(s, i, static_cast<char>(c), "quoted name", start), start, ""});
    } else if (std::isdigit(c) ||
               (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      i = number_end(s, i);
      out.push_back({Tok::number, s.substr(start, i - start), start, ""});
    } else if (std::isalpha(c) || c == '_' || c >= 0x80) {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' ||
                              static_cast<unsigned char>(s[i]) >= 0x80))
        ++i;
      std::string word = s.substr(start, i - start);
      bool keyword = false;
      for (const char* k : kKeywords) keyword = keyword || upper(word) == k;
      out.push_back({keyword ? Tok::keyword : Tok::ident, keyword ? upper(word) : word, start, word});
    } else {
      static const char* const kOps[] = {"<=", ">=", "<>", "!=", "==", "=", "<", ">", "+", "-",
                                         "*",  "/",  "%",  "(",  ")",  ",", "[", "]", "."};
      std::string op;
      for (const char* o : kOps)
        if (s.compare(i, std::char_traits<char>::length(o), o) == 0) {
          op = o;
          break;
        }
      if (op.empty()) syntax_error("unexpected character '" + std::string(1, static_cast<char>(c)) + "'", start);
      i += op.size();
      out.push_back({Tok::op, op == "==" ? "=" : (op == "<>" ? "!=" : op), start, ""});
    }
  }
  out.push_back({Tok::end, "", s.size(), ""});
  return out;
}

std::shared_ptr<Node> node(NodeKind kind, size_t position) {
  auto n = std::make_shared<Node>();
  n->kind = kind;
  n->position = position;
  return n;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  Parsed parse_all() {
    if (peek().kind == Tok::end) syntax_error("empty expression", 0);
    Parsed out;
    out.root = parse_or();
    // Lance parses one statement and ignores what follows it: so do we (the caller warns)
    if (peek().kind != Tok::end) out.ignored_tail = peek().position + 1;
    return out;
  }

 private:
  const Token& peek(size_t ahead = 0) const { return t_[std::min(i_ + ahead, t_.size() - 1)]; }
  const Token& next() { return t_[std::min(i_++, t_.size() - 1)]; }
  bool is(Tok kind, const char* text) const { return peek().kind == kind && peek().text == text; }
  bool accept(Tok kind, const char* text) {
    if (!is(kind, text)) return false;
    ++i_;
    return true;
  }
  void expect(Tok kind, const char* text) {
    if (!accept(kind, text)) unexpected(std::string("'") + text + "'");
  }
  [[noreturn]] void unexpected(const std::string& wanted) const {
    const Token& t = peek();
    syntax_error(t.kind == Tok::end ? "expected " + wanted + ", got the end of the expression"
                                    : "expected " + wanted + ", got '" + t.text + "'",
                 t.position);
  }

  NodePtr binary(const std::string& op, NodePtr l, NodePtr r, size_t position) {
    auto n = node(NodeKind::binary, position);
    n->op = op;
    n->children = {std::move(l), std::move(r)};
    return n;
  }

  /// Nesting deeper than this is an error, not a stack overflow.
  static constexpr int kMaxDepth = 256;
  struct Deeper {
    Parser& p;
    explicit Deeper(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxDepth) syntax_error("expression nested too deeply", p.peek().position);
    }
    ~Deeper() { --p.depth_; }
  };

  NodePtr parse_or() {
    Deeper guard(*this);
    NodePtr l = parse_and();
    while (is(Tok::keyword, "OR")) {
      const size_t p = next().position;
      l = binary("OR", l, parse_and(), p);
    }
    return l;
  }
  NodePtr parse_and() {
    NodePtr l = parse_not();
    while (is(Tok::keyword, "AND")) {
      const size_t p = next().position;
      l = binary("AND", l, parse_not(), p);
    }
    return l;
  }
  NodePtr parse_not() {
    Deeper guard(*this);
    if (is(Tok::keyword, "NOT")) {
      auto n = node(NodeKind::unary, next().position);
      n->op = "NOT";
      n->children = {parse_not()};
      return n;
    }
    return parse_predicate();
  }

  NodePtr parse_predicate() {
    NodePtr l = parse_additive();
    for (const char* op : {"=", "!=", "<", "<=", ">", ">="})
      if (is(Tok::op, op)) {
        const size_t p = next().position;
        return binary(op, l, parse_additive(), p);
      }
    if (is(Tok::keyword, "IS")) return parse_is(l);
    const bool negated =
        is(Tok::keyword, "NOT") &&
        (peek(1).text == "BETWEEN" || peek(1).text == "IN" || peek(1).text == "LIKE" || peek(1).text == "ILIKE") &&
        peek(1).kind == Tok::keyword;
    if (negated) ++i_;
    const size_t p = peek().position;
    if (accept(Tok::keyword, "BETWEEN")) {
      auto n = node(NodeKind::between, p);
      NodePtr lo = parse_additive();
      expect(Tok::keyword, "AND");
      n->children = {l, lo, parse_additive()};
      n->negated = negated;
      return n;
    }
    if (accept(Tok::keyword, "IN")) return parse_in(l, negated, p);
    if (is(Tok::keyword, "LIKE") || is(Tok::keyword, "ILIKE")) {
      auto n = node(NodeKind::like, p);
      n->op = next().text;
      n->negated = negated;
      n->children = {l, parse_additive()};
      if (accept(Tok::keyword, "ESCAPE")) n->children.push_back(parse_additive());
      return n;
    }
    if (negated) unexpected("BETWEEN, IN or LIKE");
    return l;
  }

  NodePtr parse_is(NodePtr l) {
    const size_t p = next().position;
    const bool negated = accept(Tok::keyword, "NOT");
    if (accept(Tok::keyword, "NULL")) {
      auto n = node(NodeKind::is_null, p);
      n->negated = negated;
      n->children = {l};
      return n;
    }
    if (is(Tok::keyword, "TRUE") || is(Tok::keyword, "FALSE")) {
      auto n = node(NodeKind::is_bool, p);
      n->text = next().text;
      n->negated = negated;
      n->children = {l};
      return n;
    }
    unexpected("NULL, TRUE or FALSE after IS");
  }

  NodePtr parse_in(NodePtr l, bool negated, size_t p) {
    expect(Tok::op, "(");
    auto n = node(NodeKind::in_list, p);
    n->negated = negated;
    n->children = {l};
    do n->children.push_back(parse_or());
    while (accept(Tok::op, ","));
    expect(Tok::op, ")");
    return n;
  }

  NodePtr parse_additive() {
    NodePtr l = parse_multiplicative();
    while (is(Tok::op, "+") || is(Tok::op, "-")) {
      const Token& t = next();
      l = binary(t.text, l, parse_multiplicative(), t.position);
    }
    return l;
  }
  NodePtr parse_multiplicative() {
    NodePtr l = parse_unary();
    while (is(Tok::op, "*") || is(Tok::op, "/") || is(Tok::op, "%")) {
      const Token& t = next();
      l = binary(t.text, l, parse_unary(), t.position);
    }
    return l;
  }
  NodePtr parse_unary() {
    Deeper guard(*this);
    if (is(Tok::op, "-") || is(Tok::op, "+")) {
      const Token& t = next();
      NodePtr operand = parse_unary();
      if (t.text == "+") return operand;
      auto n = node(NodeKind::unary, t.position);
      n->op = "-";
      n->children = {operand};
      return n;
    }
    return parse_primary();
  }

  NodePtr literal(LiteralKind kind, std::string text, size_t position) {
    auto n = node(NodeKind::literal, position);
    n->literal = kind;
    n->text = std::move(text);
    return n;
  }

  NodePtr parse_primary() {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::number:
        next();
        return literal(t.text.find_first_of(".eE") == std::string::npos ? LiteralKind::integer : LiteralKind::decimal,
                       t.text, t.position);
      case Tok::string:
        next();
        return literal(LiteralKind::string, t.text, t.position);
      case Tok::keyword:
        return parse_keyword_primary();
      case Tok::ident:
        if (peek(1).kind == Tok::op && peek(1).text == "(") return parse_function();
        [[fallthrough]];
      case Tok::quoted_ident:
        return parse_column();
      case Tok::op:
        if (accept(Tok::op, "(")) {
          NodePtr e = parse_or();
          expect(Tok::op, ")");
          return e;
        }
        if (is(Tok::op, "[")) return parse_array();
        break;
      case Tok::end:
        break;
    }
    unexpected("a value, a column or '('");
  }

  NodePtr parse_keyword_primary() {
    const Token& t = next();
    if (t.text == "TRUE" || t.text == "FALSE") return literal(LiteralKind::boolean, t.text, t.position);
    if (t.text == "NULL") return literal(LiteralKind::null, "", t.position);
    if ((t.text == "DATE" || t.text == "TIMESTAMP") && peek().kind == Tok::string)
      return literal(t.text == "DATE" ? LiteralKind::date : LiteralKind::timestamp, next().text, t.position);
    if (t.text == "CAST") {
      expect(Tok::op, "(");
      auto n = node(NodeKind::cast, t.position);
      n->children = {parse_or()};
      expect(Tok::keyword, "AS");
      std::string type;
      while (peek().kind == Tok::ident || peek().kind == Tok::keyword)
        type += (type.empty() ? "" : " ") + upper(next().text);
      if (type.empty()) unexpected("a type name");
      n->text = type;
      expect(Tok::op, ")");
      return n;
    }
    if (t.text == "DATE" || t.text == "TIMESTAMP") {  // a column of that name
      auto n = node(NodeKind::column, t.position);
      n->path.push_back(t.raw);
      return n;
    }
    --i_;
    unexpected("a value, a column or '('");
  }

  NodePtr parse_function() {
    const Token& name = next();
    auto n = node(NodeKind::function, name.position);
    std::string lower = name.text;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    n->text = lower;
    expect(Tok::op, "(");
    if (!accept(Tok::op, ")")) {
      do n->children.push_back(parse_or());
      while (accept(Tok::op, ","));
      expect(Tok::op, ")");
    }
    return n;
  }

  NodePtr parse_array() {
    auto n = node(NodeKind::array, next().position);
    if (!accept(Tok::op, "]")) {
      do n->children.push_back(parse_or());
      while (accept(Tok::op, ","));
      expect(Tok::op, "]");
    }
    return n;
  }

  NodePtr parse_column() {
    auto n = node(NodeKind::column, peek().position);
    n->path.push_back(next().text);
    while (is(Tok::op, ".")) {
      ++i_;
      if (peek().kind != Tok::ident && peek().kind != Tok::quoted_ident && peek().kind != Tok::keyword)
        unexpected("a field name after '.'");
      const Token& part = next();
      n->path.push_back(part.kind == Tok::keyword ? part.raw : part.text);
    }
    return n;
  }

  std::vector<Token> t_;
  size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

Parsed parse(const std::string& text) { return Parser(lex(text)).parse_all(); }

}  // namespace lance::expr
