// The scalar functions and conversions a filter may call (expr/bind.h lists them).
#include <charconv>
#include <cmath>
#include <regex>

#include "common/error.h"
#include "expr/eval.h"
#include "expr/temporal_literal.h"

namespace lance::expr {

namespace {

constexpr int64_t kNsPerDay = 86400LL * 1000000000LL;

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

std::string float_text(double d) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, r.ptr);
}

std::string date_text(int64_t days) {
  // civil_from_days (H. Hinnant)
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
  return fmt::format("{:04}-{:02}-{:02}", yoe + era * 400 + (m <= 2), m, d);
}

/// One value of `v` (kind `from`) as text, for CAST(… AS STRING).
std::string text_of(const Vec& v, size_t i) {
  switch (v.kind) {
    case Kind::boolean:
      return v.ints[i] ? "true" : "false";
    case Kind::floating:
      return float_text(v.floats[i]);
    case Kind::date:
      return date_text(v.ints[i]);
    case Kind::string:
    case Kind::binary:
      return std::string(v.strs[i]);
    default:
      return std::to_string(v.ints[i]);
  }
}

[[noreturn]] void cast_error(const Vec& v, size_t i, Kind to) {
  throw_usage("filter: cannot cast {} '{}' to {}", kind_name(v.kind), text_of(v, i), kind_name(to));
}

void convert_one(const Vec& v, size_t i, Vec& out) {
  const Kind to = out.kind;
  switch (to) {
    case Kind::floating:
      if (v.kind == Kind::string) {
        const std::string t(v.strs[i]);
        char* end = nullptr;
        out.floats[i] = std::strtod(t.c_str(), &end);
        if (t.empty() || *end) cast_error(v, i, to);
      } else {
        out.floats[i] = v.kind == Kind::floating ? v.floats[i] : static_cast<double>(v.ints[i]);
      }
      return;
    case Kind::integer:
    case Kind::boolean:
      if (v.kind == Kind::floating) {
        if (!std::isfinite(v.floats[i])) cast_error(v, i, to);
        out.ints[i] = static_cast<int64_t>(std::trunc(v.floats[i]));
      } else if (v.kind == Kind::string) {
        const std::string t(v.strs[i]);
        if (to == Kind::boolean && (t == "true" || t == "false")) {
          out.ints[i] = t == "true";
          return;
        }
        auto r = std::from_chars(t.data(), t.data() + t.size(), out.ints[i]);
        if (r.ec != std::errc() || r.ptr != t.data() + t.size()) cast_error(v, i, to);
      } else {
        out.ints[i] = v.ints[i];
      }
      if (to == Kind::boolean) out.ints[i] = out.ints[i] != 0;
      return;
    case Kind::string:
    case Kind::binary:
      out.strs[i] = v.kind == Kind::string || v.kind == Kind::binary ? v.strs[i] : out.own(text_of(v, i));
      return;
    case Kind::date:
      if (v.kind == Kind::timestamp)
        out.ints[i] = floor_div(v.ints[i], kNsPerDay);
      else if (v.kind == Kind::string) {
        const auto d = parse_date(std::string(v.strs[i]));
        if (!d) cast_error(v, i, to);
        out.ints[i] = *d;
      } else {
        out.ints[i] = v.ints[i];
      }
      return;
    case Kind::timestamp:
      if (v.kind == Kind::date)
        out.ints[i] = v.ints[i] * kNsPerDay;
      else if (v.kind == Kind::string) {
        const auto t = parse_timestamp(std::string(v.strs[i]));
        if (!t) cast_error(v, i, to);
        out.ints[i] = *t;
      } else {
        out.ints[i] = v.ints[i];
      }
      return;
    default:
      return;
  }
}

size_t utf8_length(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string fold_case(std::string_view s, bool up) {
  std::string out(s);
  for (auto& c : out)
    c = static_cast<char>(up ? std::toupper(static_cast<unsigned char>(c))
                             : std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// Whether list row `i` of `list` holds an item equal to row `j` of `needle` (its kind).
bool list_has(const Vec& list, size_t i, const Vec& needle, size_t j) {
  const Vec& items = *list.items;
  for (int64_t k = list.offsets[i]; k < list.offsets[i + 1]; ++k) {
    const auto at = static_cast<size_t>(k);
    if (!items.valid[at]) continue;
    if (items.kind == Kind::string || items.kind == Kind::binary) {
      if (items.strs[at] == needle.strs[j]) return true;
    } else if (items.kind == Kind::floating) {
      if (items.floats[at] == needle.floats[j]) return true;
    } else if (items.ints[at] == needle.ints[j]) {
      return true;
    }
  }
  return false;
}

Vec list_predicate(const std::string& f, const std::vector<Vec>& a, size_t n) {
  Vec out = null_vec(Kind::boolean, n);
  const Vec& list = a[0];
  for (size_t i = 0; i < n; ++i) {
    if (!list.valid[i] || !a[1].valid[i]) continue;
    out.valid[i] = 1;
    if (f == "array_contains" || f == "array_has") {
      const Vec needle = convert(a[1], list.items->kind);
      out.ints[i] = list_has(list, i, needle, i);
      continue;
    }
    const Vec& probe = a[1];
    const Vec needles = convert(*probe.items, list.items->kind);
    const bool any = f == "array_has_any";
    bool result = !any;
    for (int64_t k = probe.offsets[i]; k < probe.offsets[i + 1]; ++k) {
      const auto at = static_cast<size_t>(k);
      const bool has = needles.valid[at] && list_has(list, i, needles, at);
      if (any && has) result = true;
      if (!any && !has) result = false;
    }
    out.ints[i] = result;
  }
  return out;
}

}  // namespace

bool keeps_kind(Kind from, Kind to) { return from == to || to == Kind::null || to == Kind::other || to == Kind::list; }

Vec convert(const Vec& v, Kind kind) {
  if (keeps_kind(v.kind, kind)) return v;
  Vec out = null_vec(kind, v.size());
  out.owned = v.owned;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v.valid[i]) continue;
    out.valid[i] = 1;
    if (v.kind != Kind::null) convert_one(v, i, out);
  }
  return out;
}

Vec call_function(const Bound& node, std::vector<Vec> a, size_t n) {
  const std::string& f = node.name;
  if (f.rfind("array_", 0) == 0) return list_predicate(f, a, n);
  Vec out = null_vec(node.kind, n);
  std::regex pattern;
  if (f == "regexp_like" && !a[1].strs.empty() && a[1].valid[0]) pattern = std::regex(std::string(a[1].strs[0]));
  for (size_t i = 0; i < n; ++i) {
    bool all_valid = true;
    for (const auto& x : a) all_valid = all_valid && x.valid[i];
    if (f == "concat") {  // nulls are skipped
      std::string s;
      for (const auto& x : a)
        if (x.valid[i]) s += text_of(x, i);
      out.valid[i] = 1;
      out.strs[i] = out.own(std::move(s));
      continue;
    }
    if (!all_valid) continue;
    out.valid[i] = 1;
    if (f == "lower" || f == "upper") {
      out.strs[i] = out.own(fold_case(a[0].strs[i], f == "upper"));
    } else if (f == "length" || f == "character_length" || f == "char_length") {
      out.ints[i] = a[0].kind == Kind::list ? a[0].offsets[i + 1] - a[0].offsets[i]
                                            : static_cast<int64_t>(utf8_length(a[0].strs[i]));
    } else if (f == "octet_length") {
      out.ints[i] = static_cast<int64_t>(a[0].strs[i].size());
    } else if (f == "starts_with") {
      out.ints[i] = a[0].strs[i].substr(0, a[1].strs[i].size()) == a[1].strs[i];
    } else if (f == "ends_with") {
      const auto s = a[0].strs[i], p = a[1].strs[i];
      out.ints[i] = s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
    } else if (f == "regexp_like") {
      out.ints[i] = std::regex_search(a[0].strs[i].begin(), a[0].strs[i].end(), pattern);
    } else if (f == "replace") {
      std::string s(a[0].strs[i]);
      const std::string from(a[1].strs[i]), to(a[2].strs[i]);
      for (size_t at = 0; !from.empty() && (at = s.find(from, at)) != std::string::npos; at += to.size())
        s.replace(at, from.size(), to);
      out.strs[i] = out.own(std::move(s));
    } else if (f == "abs") {
      if (node.kind == Kind::floating)
        out.floats[i] = std::fabs(a[0].floats[i]);
      else
        out.ints[i] = a[0].ints[i] < 0 ? -a[0].ints[i] : a[0].ints[i];
    }
  }
  return out;
}

}  // namespace lance::expr
