// SQL LIKE: `%` any run of characters, `_` one character (a UTF-8 code point), `\` makes the
// next character literal. ILIKE compares ASCII letters case-insensitively.
#pragma once

#include <string_view>

namespace lance::expr {

/// Whether `text` matches `pattern`.
bool like_match(std::string_view text, std::string_view pattern, bool case_insensitive);

}  // namespace lance::expr
