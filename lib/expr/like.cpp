#include "expr/like.h"

#include <cctype>
#include <cstddef>

namespace lance::expr {

namespace {

size_t char_len(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  const size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  return i + n <= s.size() ? n : s.size() - i;
}

bool same(char a, char b, bool fold) {
  return fold ? std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)) : a == b;
}

}  // namespace

bool like_match(std::string_view text, std::string_view pattern, bool fold) {
  // Iterative matching with one backtrack point (the last %): linear in practice.
  size_t t = 0, p = 0, star_p = std::string_view::npos, star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '%') {
      star_p = ++p;
      star_t = t;
      continue;
    }
    if (p < pattern.size()) {
      if (pattern[p] == '_') {
        t += char_len(text, t);
        ++p;
        continue;
      }
      const size_t lit = pattern[p] == '\\' && p + 1 < pattern.size() ? p + 1 : p;
      if (same(pattern[lit], text[t], fold)) {
        p = lit + 1;
        ++t;
        continue;
      }
    }
    if (star_p == std::string_view::npos) return false;
    p = star_p;
    star_t += char_len(text, star_t);
    t = star_t;
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size();
}

}  // namespace lance::expr
