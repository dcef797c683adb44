#include "expr/text.h"

#include <chrono>

#include <fmt/format.h>

namespace lance::expr {

namespace {

std::string quoted(std::string_view s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string date_text(int64_t days) {
  const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days}}};
  return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                     static_cast<unsigned>(ymd.day()));
}

std::string literal_text(const Vec& v) {
  if (v.size() == 0 || !v.is_valid(0)) return "NULL";
  switch (v.kind) {
    case Kind::boolean:
      return v.ints[0] ? "TRUE" : "FALSE";
    case Kind::integer:
      return std::to_string(v.ints[0]);
    case Kind::floating:
      return fmt::format("{}", v.floats[0]);
    case Kind::string:
    case Kind::binary:
      return quoted(v.strs[0]);
    case Kind::date:
      return "date " + quoted(date_text(v.ints[0]));
    case Kind::timestamp: {
      const int64_t ns = v.ints[0];
      const int64_t day_ns = int64_t{86400} * 1000000000;
      int64_t days = ns / day_ns, rem = ns % day_ns;
      if (rem < 0) rem += day_ns, --days;
      const int64_t s = rem / 1000000000;
      std::string t = fmt::format("{} {:02}:{:02}:{:02}", date_text(days), s / 3600, s / 60 % 60, s % 60);
      if (rem % 1000000000) t += fmt::format(".{:09}", rem % 1000000000);
      return "timestamp " + quoted(t);
    }
    default:
      return "?";
  }
}

std::string join(const Bound& b, size_t from, const char* sep) {
  std::string out;
  for (size_t i = from; i < b.children.size(); ++i) out += (i > from ? sep : "") + to_text(*b.children[i]);
  return out;
}

}  // namespace

std::string to_text(const Bound& b) {
  const auto c = [&](size_t i) { return to_text(*b.children[i]); };
  const std::string no = b.negated ? "NOT " : "";
  switch (b.op) {
    case Op::literal:
      return literal_text(b.literal);
    case Op::column: {
      std::string out;
      for (const auto& p : b.path) out += (out.empty() ? "" : ".") + p;
      return out;
    }
    case Op::not_:
      return "NOT (" + c(0) + ")";
    case Op::neg:
      return "-" + c(0);
    case Op::and_:
      return c(0) + " AND " + c(1);
    case Op::or_:
      return "(" + c(0) + " OR " + c(1) + ")";
    case Op::compare:
    case Op::arith:
      return c(0) + " " + b.name + " " + c(1);
    case Op::is_null:
      return c(0) + " IS " + no + "NULL";
    case Op::is_bool:
      return c(0) + " IS " + no + b.name;
    case Op::in_list:
      return c(0) + " " + no + "IN (" + join(b, 1, ", ") + ")";
    case Op::between:
      return c(0) + " " + no + "BETWEEN " + c(1) + " AND " + c(2);
    case Op::like:
      return c(0) + " " + no + (b.case_insensitive ? "ILIKE " : "LIKE ") + c(1);
    case Op::function:
      return b.name + "(" + join(b, 0, ", ") + ")";
    case Op::cast:
      return "CAST(" + c(0) + " AS " + b.name + ")";
    case Op::array:
      return "[" + join(b, 0, ", ") + "]";
  }
  return "?";
}

}  // namespace lance::expr
