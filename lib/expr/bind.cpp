#include "expr/bind.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <regex>
#include <set>

#include "common/error.h"
#include "expr/parse.h"
#include "expr/temporal_literal.h"

namespace lance::expr {

namespace {

[[noreturn]] void bind_error(const std::string& what, size_t position) {
  throw_usage("filter: {} at position {}", what, position + 1);
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

/// The field of `fields` named `name`: exactly, else (an unquoted name) ignoring case.
const FieldPtr* find_field(const std::vector<FieldPtr>& fields, const std::string& name) {
  for (const auto& f : fields)
    if (f->name == name) return &f;
  for (const auto& f : fields)
    if (lower(f->name) == lower(name)) return &f;
  return nullptr;
}

[[noreturn]] void no_field(const std::vector<FieldPtr>& fields, const std::string& name, const std::string& where,
                           size_t position) {
  std::string closest, all;
  size_t best = std::numeric_limits<size_t>::max();
  for (const auto& f : fields) {
    const size_t d = edit_distance(lower(f->name), lower(name));
    if (d < best) best = d, closest = f->name;
    all += (all.empty() ? "" : ", ") + f->name;
  }
  if (!closest.empty() && best <= std::max<size_t>(2, name.size() / 3))
    bind_error(fmt::format("no field named {}{}; did you mean {}?", name, where, closest), position);
  bind_error(fmt::format("no field named {}{} (fields: {})", name, where, all), position);
}

Vec scalar(Kind kind) {
  Vec v = null_vec(kind, 1);
  v.valid[0] = 1;
  return v;
}

std::shared_ptr<Bound> make(Op op, Kind kind, size_t position) {
  auto b = std::make_shared<Bound>();
  b->op = op;
  b->kind = kind;
  b->position = position;
  return b;
}

bool numeric(Kind k) { return k == Kind::integer || k == Kind::floating; }

/// The kind two operands meet at (comparison, IN, arithmetic), or Kind::other.
Kind common_kind(Kind a, Kind b) {
  if (a == b) return a;
  if (a == Kind::null) return b;
  if (b == Kind::null) return a;
  if (numeric(a) && numeric(b)) return Kind::floating;
  if ((a == Kind::date && b == Kind::timestamp) || (a == Kind::timestamp && b == Kind::date)) return Kind::timestamp;
  if ((a == Kind::string && b == Kind::binary) || (a == Kind::binary && b == Kind::string)) return Kind::binary;
  return Kind::other;
}

struct IntRange {
  int64_t lo, hi;
  bool unsigned64;
};

IntRange range_of(const DataType* t) {
  if (!t) return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), false};
  switch (t->id) {
    case TypeId::int8:
      return {-128, 127, false};
    case TypeId::int16:
      return {-32768, 32767, false};
    case TypeId::int32:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), false};
    case TypeId::uint8:
      return {0, 255, false};
    case TypeId::uint16:
      return {0, 65535, false};
    case TypeId::uint32:
      return {0, std::numeric_limits<uint32_t>::max(), false};
    case TypeId::uint64:
      return {0, std::numeric_limits<int64_t>::max(), true};
    default:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), false};
  }
}

class Binder {
 public:
  Binder(const std::vector<FieldPtr>& fields, const std::string& text) : fields_(fields), text_(text) {}

  BoundPtr bind(const NodePtr& n) {
    switch (n->kind) {
      case NodeKind::literal:
        return literal(*n);
      case NodeKind::column:
        return column(*n);
      case NodeKind::unary:
        return unary(*n);
      case NodeKind::binary:
        return binary(*n);
      case NodeKind::is_null: {
        auto b = make(Op::is_null, Kind::boolean, n->position);
        b->negated = n->negated;
        b->children = {bind(n->children[0])};
        return b;
      }
      case NodeKind::is_bool: {
        auto b = make(Op::is_bool, Kind::boolean, n->position);
        b->negated = n->negated;
        b->name = n->text;
        b->children = {boolean_operand(n->children[0], "IS " + n->text)};
        return b;
      }
      case NodeKind::between:
        return between(*n);
      case NodeKind::in_list:
        return in_list(*n);
      case NodeKind::like:
        return like(*n);
      case NodeKind::function:
        return function(*n);
      case NodeKind::cast:
        return cast(*n);
      case NodeKind::array:
        return array(*n);
    }
    bind_error("unsupported expression", n->position);
  }

  std::set<std::string> columns;  ///< top-level fields read

 private:
  BoundPtr literal(const Node& n) {
    std::shared_ptr<Bound> b;
    switch (n.literal) {
      case LiteralKind::integer: {
        b = make(Op::literal, Kind::integer, n.position);
        b->literal = scalar(Kind::integer);
        errno = 0;
        char* end = nullptr;
        const long long v = std::strtoll(n.text.c_str(), &end, 10);
        if (errno == ERANGE) {  // beyond int64: a float, as DataFusion reads it
          b->kind = Kind::floating;
          b->literal = scalar(Kind::floating);
          b->literal.floats[0] = std::strtod(n.text.c_str(), nullptr);
        } else {
          b->literal.ints[0] = v;
        }
        break;
      }
      case LiteralKind::decimal:
        b = make(Op::literal, Kind::floating, n.position);
        b->literal = scalar(Kind::floating);
        b->literal.floats[0] = std::strtod(n.text.c_str(), nullptr);
        break;
      case LiteralKind::string:
        b = make(Op::literal, Kind::string, n.position);
        b->literal = scalar(Kind::string);
        b->literal.strs[0] = b->literal.own(n.text);
        break;
      case LiteralKind::boolean:
        b = make(Op::literal, Kind::boolean, n.position);
        b->literal = scalar(Kind::boolean);
        b->literal.ints[0] = n.text == "TRUE";
        break;
      case LiteralKind::null:
        b = make(Op::literal, Kind::null, n.position);
        b->literal = null_vec(Kind::null, 1);
        break;
      case LiteralKind::date:
      case LiteralKind::timestamp: {
        const bool date = n.literal == LiteralKind::date;
        b = make(Op::literal, date ? Kind::date : Kind::timestamp, n.position);
        b->literal = scalar(b->kind);
        const auto v = date ? parse_date(n.text) : parse_timestamp(n.text);
        if (!v) bind_error(fmt::format("not a {} '{}'", date ? "date" : "timestamp", n.text), n.position);
        b->literal.ints[0] = *v;
        break;
      }
    }
    return b;
  }

  BoundPtr column(const Node& n) {
    const FieldPtr* f = find_field(fields_, n.path[0]);
    if (!f) no_field(fields_, n.path[0], "", n.position);
    auto b = make(Op::column, kind_of(*(*f)->type), n.position);
    b->path.push_back((*f)->name);
    columns.insert((*f)->name);
    TypePtr type = (*f)->type;
    for (size_t i = 1; i < n.path.size(); ++i) {
      if (type->id != TypeId::struct_)
        bind_error(fmt::format("{} is not a struct (it is {})", b->path.back(), type->to_string()), n.position);
      const FieldPtr* c = find_field(type->children, n.path[i]);
      if (!c) no_field(type->children, n.path[i], " in struct " + b->path.back(), n.position);
      b->path.push_back((*c)->name);
      type = (*c)->type;
    }
    b->arrow_type = type;
    b->kind = kind_of(*type);
    return b;
  }

  BoundPtr boolean_operand(const NodePtr& n, const std::string& what) {
    BoundPtr b = bind(n);
    if (b->kind != Kind::boolean && b->kind != Kind::null)
      bind_error(fmt::format("{} needs a boolean, got {}", what, kind_name(b->kind)), n->position);
    return b;
  }

  BoundPtr unary(const Node& n) {
    if (n.op == "NOT") {
      auto b = make(Op::not_, Kind::boolean, n.position);
      b->children = {boolean_operand(n.children[0], "NOT")};
      return b;
    }
    BoundPtr operand = bind(n.children[0]);
    if (!numeric(operand->kind) && operand->kind != Kind::null)
      bind_error(fmt::format("cannot negate {}", kind_name(operand->kind)), n.position);
    auto b = make(Op::neg, operand->kind, n.position);
    b->children = {operand};
    return b;
  }

  /// `lit` converted to the kind and type of `to` (the other operand), as Lance converts
  /// a literal that meets a column: exactly or not at all.
  BoundPtr convert_literal(const BoundPtr& lit, const Bound& to) {
    if (lit->op != Op::literal || to.op == Op::literal || lit->kind == Kind::null) return lit;
    auto out = std::make_shared<Bound>(*lit);
    const std::string shown = text_.substr(lit->position, 40);
    auto fail = [&] {
      bind_error(fmt::format("the literal {} cannot be converted to {}", shown.substr(0, shown.find_first_of(" )")),
                             to.arrow_type ? to.arrow_type->to_string() : kind_name(to.kind)),
                 lit->position);
    };
    if (lit->kind == to.kind) {
      if (to.kind == Kind::integer) {
        const IntRange r = range_of(to.arrow_type.get());
        if (lit->literal.ints[0] < r.lo || lit->literal.ints[0] > r.hi) fail();
      }
      return out;
    }
    if (lit->kind == Kind::integer && to.kind == Kind::floating) {
      out->kind = Kind::floating;
      out->literal = scalar(Kind::floating);
      out->literal.floats[0] = static_cast<double>(lit->literal.ints[0]);
      return out;
    }
    if (lit->kind == Kind::date && to.kind == Kind::timestamp) {
      out->kind = Kind::timestamp;
      out->literal = scalar(Kind::timestamp);
      out->literal.ints[0] = lit->literal.ints[0] * 86400LL * 1000000000LL;
      return out;
    }
    if (lit->kind == Kind::timestamp && to.kind == Kind::date) return out;  // compared as timestamps
    if (lit->kind == Kind::string && to.kind == Kind::binary) return out;
    fail();
    return out;  // not reached: fail() throws
  }

  /// Both operands of a comparison, literals converted, of kinds that meet.
  std::pair<BoundPtr, BoundPtr> comparable(BoundPtr l, BoundPtr r, size_t position) {
    l = convert_literal(l, *r);
    r = convert_literal(r, *l);
    if (common_kind(l->kind, r->kind) == Kind::other || l->kind == Kind::list || l->kind == Kind::other)
      bind_error(fmt::format("cannot compare {} with {}", kind_name(l->kind), kind_name(r->kind)), position);
    return {l, r};
  }

  BoundPtr binary(const Node& n) {
    if (n.op == "AND" || n.op == "OR") {
      auto b = make(n.op == "AND" ? Op::and_ : Op::or_, Kind::boolean, n.position);
      b->children = {boolean_operand(n.children[0], n.op), boolean_operand(n.children[1], n.op)};
      return b;
    }
    BoundPtr l = bind(n.children[0]), r = bind(n.children[1]);
    if (n.op == "+" || n.op == "-" || n.op == "*" || n.op == "/" || n.op == "%") {
      const Kind k = common_kind(l->kind, r->kind);
      if (!numeric(k) && k != Kind::null)
        bind_error(fmt::format("cannot apply {} to {} and {}", n.op, kind_name(l->kind), kind_name(r->kind)),
                   n.position);
      auto b = make(Op::arith, k, n.position);
      b->name = n.op;
      b->children = {l, r};
      return b;
    }
    auto [cl, cr] = comparable(l, r, n.position);
    auto b = make(Op::compare, Kind::boolean, n.position);
    b->name = n.op;
    b->children = {cl, cr};
    return b;
  }

  BoundPtr between(const Node& n) {
    BoundPtr v = bind(n.children[0]);
    auto b = make(Op::between, Kind::boolean, n.position);
    b->negated = n.negated;
    b->children = {v, comparable(v, bind(n.children[1]), n.position).second,
                   comparable(v, bind(n.children[2]), n.position).second};
    return b;
  }

  BoundPtr in_list(const Node& n) {
    BoundPtr v = bind(n.children[0]);
    auto b = make(Op::in_list, Kind::boolean, n.position);
    b->negated = n.negated;
    b->children = {v};
    for (size_t i = 1; i < n.children.size(); ++i)
      b->children.push_back(comparable(v, bind(n.children[i]), n.children[i]->position).second);
    return b;
  }

  BoundPtr like(const Node& n) {
    auto b = make(Op::like, Kind::boolean, n.position);
    b->negated = n.negated;
    b->case_insensitive = n.op == "ILIKE";
    for (const auto& c : n.children) {
      BoundPtr x = bind(c);
      if (x->kind != Kind::string && x->kind != Kind::null)
        bind_error(fmt::format("{} needs strings, got {}", n.op, kind_name(x->kind)), c->position);
      b->children.push_back(x);
    }
    if (b->children.size() == 3) {
      const Bound& esc = *b->children[2];
      if (esc.op != Op::literal || esc.literal.strs.empty() || esc.literal.strs[0] != "\\")
        bind_error("LIKE supports no escape character other than the backslash", c_pos(n, 2));
      b->children.pop_back();
    }
    return b;
  }
  static size_t c_pos(const Node& n, size_t i) { return n.children[i]->position; }

  BoundPtr function(const Node& n) {
    auto b = make(Op::function, Kind::boolean, n.position);
    b->name = n.text;
    for (const auto& c : n.children) b->children.push_back(bind(c));
    const auto& a = b->children;
    auto want = [&](size_t count, std::initializer_list<Kind> kinds) {
      if (a.size() != count)
        bind_error(fmt::format("{}() takes {} argument{}, got {}", n.text, count, count == 1 ? "" : "s", a.size()),
                   n.position);
      for (size_t i = 0; i < a.size(); ++i) {
        const Kind k = a[i]->kind;
        if (k == Kind::null) continue;
        if (std::find(kinds.begin(), kinds.end(), k) == kinds.end())
          bind_error(fmt::format("{}() cannot take {} as argument {}", n.text, kind_name(k), i + 1),
                     n.children[i]->position);
      }
    };
    const std::string& f = n.text;
    if (f == "lower" || f == "upper") {
      want(1, {Kind::string});
      b->kind = Kind::string;
    } else if (f == "length" || f == "character_length" || f == "char_length") {
      want(1, {Kind::string, Kind::list});
      b->kind = Kind::integer;
    } else if (f == "octet_length") {
      want(1, {Kind::string, Kind::binary});
      b->kind = Kind::integer;
    } else if (f == "starts_with" || f == "ends_with") {
      want(2, {Kind::string});
    } else if (f == "regexp_like") {
      want(2, {Kind::string});
      if (a[1]->op != Op::literal || a[1]->kind != Kind::string)
        bind_error("regexp_like() takes its pattern as a string literal", n.children[1]->position);
      try {
        std::regex check{std::string(a[1]->literal.strs[0])};
      } catch (const std::regex_error& e) {
        bind_error(fmt::format("regexp_like(): bad pattern ({})", e.what()), n.children[1]->position);
      }
    } else if (f == "replace") {
      want(3, {Kind::string});
      b->kind = Kind::string;
    } else if (f == "concat") {
      if (a.empty()) bind_error("concat() takes at least one argument", n.position);
      for (size_t i = 0; i < a.size(); ++i)
        if (a[i]->kind != Kind::string && a[i]->kind != Kind::integer && a[i]->kind != Kind::null)
          bind_error(fmt::format("concat() cannot take {}", kind_name(a[i]->kind)), n.children[i]->position);
      b->kind = Kind::string;
    } else if (f == "abs") {
      want(1, {Kind::integer, Kind::floating});
      b->kind = a[0]->kind;
    } else if (f == "array_has_any" || f == "array_has_all") {
      want(2, {Kind::list});
    } else if (f == "array_contains" || f == "array_has") {
      if (a.size() != 2 || a[0]->kind != Kind::list)
        bind_error(fmt::format("{}() takes a list and a value", f), n.position);
    } else if (f == "substr" || f == "substring" || f == "trim" || f == "ltrim" || f == "rtrim") {
      bind_error(fmt::format("{}() is not supported in Lance filters", f), n.position);
    } else {
      bind_error(fmt::format("unknown function {}()", f), n.position);
    }
    return b;
  }

  BoundPtr cast(const Node& n) {
    auto b = make(Op::cast, Kind::other, n.position);
    b->children = {bind(n.children[0])};
    std::string t = n.text;
    if (const auto p = t.find('('); p != std::string::npos) t = t.substr(0, p);
    while (!t.empty() && t.back() == ' ') t.pop_back();
    static const std::pair<const char*, Kind> kTypes[] = {{"INT", Kind::integer},
                                                          {"INTEGER", Kind::integer},
                                                          {"TINYINT", Kind::integer},
                                                          {"SMALLINT", Kind::integer},
                                                          {"BIGINT", Kind::integer},
                                                          {"INT UNSIGNED", Kind::integer},
                                                          {"TINYINT UNSIGNED", Kind::integer},
                                                          {"SMALLINT UNSIGNED", Kind::integer},
                                                          {"BIGINT UNSIGNED", Kind::integer},
                                                          {"FLOAT", Kind::floating},
                                                          {"DOUBLE", Kind::floating},
                                                          {"REAL", Kind::floating},
                                                          {"STRING", Kind::string},
                                                          {"BINARY", Kind::binary},
                                                          {"DATE", Kind::date},
                                                          {"TIMESTAMP", Kind::timestamp},
                                                          {"DATETIME", Kind::timestamp}};
    for (const auto& [name, kind] : kTypes)
      if (t == name) b->kind = kind;
    if (b->kind == Kind::other)
      bind_error(fmt::format("unsupported type {} in CAST (int, bigint, float, double, string, binary, date, "
                             "timestamp, …)",
                             n.text),
                 n.position);
    b->name = t;
    return b;
  }

  BoundPtr array(const Node& n) {
    auto b = make(Op::array, Kind::list, n.position);
    for (const auto& c : n.children) {
      BoundPtr x = bind(c);
      if (x->op != Op::literal) bind_error("a list literal holds literals only", c->position);
      b->children.push_back(x);
    }
    return b;
  }

  const std::vector<FieldPtr>& fields_;
  const std::string& text_;
};

}  // namespace

Filter compile_filter(const std::string& text, const std::vector<FieldPtr>& fields) {
  const Parsed parsed = parse(text);
  Binder binder(fields, text);
  Filter f;
  f.text = text;
  f.root = binder.bind(parsed.root);
  f.ignored_tail = parsed.ignored_tail;
  if (f.root->kind != Kind::boolean)
    bind_error(fmt::format("the filter is {}, not a boolean", kind_name(f.root->kind)), 0);
  for (const auto& fld : fields)
    if (binder.columns.count(fld->name)) f.columns.push_back(fld->name);
  return f;
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::null:
      return "null";
    case Kind::boolean:
      return "boolean";
    case Kind::integer:
      return "integer";
    case Kind::floating:
      return "float";
    case Kind::string:
      return "string";
    case Kind::binary:
      return "binary";
    case Kind::date:
      return "date";
    case Kind::timestamp:
      return "timestamp";
    case Kind::list:
      return "list";
    case Kind::other:
      break;
  }
  return "a value of no comparable type";
}

Vec null_vec(Kind kind, size_t n) {
  Vec v;
  v.kind = kind;
  v.valid.assign(n, 0);
  switch (kind) {
    case Kind::floating:
      v.floats.assign(n, 0);
      break;
    case Kind::string:
    case Kind::binary:
      v.strs.assign(n, {});
      break;
    case Kind::list:
      v.offsets.assign(n + 1, 0);
      v.items = std::make_shared<Vec>();
      break;
    default:
      v.ints.assign(n, 0);
  }
  return v;
}

Kind kind_of(const DataType& t) {
  if (t.is_integer()) return Kind::integer;
  switch (t.id) {
    case TypeId::null:
      return Kind::null;
    case TypeId::boolean:
      return Kind::boolean;
    case TypeId::float16:
    case TypeId::float32:
    case TypeId::float64:
    case TypeId::decimal128:
    case TypeId::decimal256:
      return Kind::floating;
    case TypeId::utf8:
    case TypeId::large_utf8:
      return Kind::string;
    case TypeId::binary:
    case TypeId::large_binary:
    case TypeId::fixed_size_binary:
      return Kind::binary;
    case TypeId::date32:
    case TypeId::date64:
      return Kind::date;
    case TypeId::timestamp:
      return Kind::timestamp;
    case TypeId::list:
    case TypeId::large_list:
    case TypeId::fixed_size_list:
      return Kind::list;
    default:
      return Kind::other;
  }
}

}  // namespace lance::expr
