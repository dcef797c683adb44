#include "expr/temporal_literal.h"

#include <cctype>

namespace lance::expr {

namespace {

/// Days from 1970-01-01 to y-m-d (H. Hinnant's days_from_civil algorithm).
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool digits(const std::string& s, size_t at, size_t n, int64_t& out) {
  if (at + n > s.size()) return false;
  out = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

int days_in_month(int64_t y, int64_t m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

}  // namespace

std::optional<int64_t> parse_date(const std::string& text) {
  int64_t y, m, d;
  if (text.size() != 10 || text[4] != '-' || text[7] != '-' || !digits(text, 0, 4, y) || !digits(text, 5, 2, m) ||
      !digits(text, 8, 2, d) || m < 1 || m > 12 || d < 1 || d > days_in_month(y, m))
    return std::nullopt;
  return days_from_civil(y, m, d);
}

std::optional<int64_t> parse_timestamp(const std::string& text) {
  const auto day = parse_date(text.substr(0, 10));
  if (!day) return std::nullopt;
  int64_t ns = *day * 86400LL * 1000000000LL;
  if (text.size() == 10) return ns;
  if (text[10] != ' ' && text[10] != 'T') return std::nullopt;
  int64_t h, mi, sec = 0;
  if (!digits(text, 11, 2, h) || text.size() < 16 || text[13] != ':' || !digits(text, 14, 2, mi) || h > 23 || mi > 59)
    return std::nullopt;
  size_t at = 16;
  if (at < text.size() && text[at] == ':') {
    if (!digits(text, at + 1, 2, sec) || sec > 59) return std::nullopt;
    at += 3;
  }
  ns += (h * 3600 + mi * 60 + sec) * 1000000000LL;
  if (at < text.size() && text[at] == '.') {
    int64_t scale = 100000000;
    for (++at; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); ++at, scale /= 10)
      ns += (text[at] - '0') * scale;
  }
  if (at < text.size() && text[at] == 'Z') ++at;
  return at == text.size() ? std::optional<int64_t>(ns) : std::nullopt;
}

}  // namespace lance::expr
