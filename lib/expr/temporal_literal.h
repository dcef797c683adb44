// The text of date and timestamp literals (`date '2021-03-04'`,
// `timestamp '2022-01-01 00:00:00'`) as numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace lance::expr {

/// Days since 1970-01-01 of "YYYY-MM-DD" (proleptic Gregorian), or nullopt.
std::optional<int64_t> parse_date(const std::string& text);

/// Nanoseconds since 1970-01-01T00:00:00 of "YYYY-MM-DD[( |T)HH:MM[:SS[.fraction]]][Z]"
/// (read as UTC), or nullopt.
std::optional<int64_t> parse_timestamp(const std::string& text);

}  // namespace lance::expr
