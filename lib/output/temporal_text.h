// ISO-8601 text of Arrow dates, times and timestamps (docs/output-format.md): proleptic
// Gregorian calendar, values before 1970 counted backwards (floor division), years outside
// 0000..9999 with a sign (`-0001`, `+10000`).
#pragma once

#include <cstdint>
#include <string>

#include "array/types.h"

namespace lance::output {

/// `YYYY-MM-DD` of a count of days since 1970-01-01 (date32).
void append_date_text(std::string& out, int64_t days);

/// date64 (milliseconds since the epoch): `YYYY-MM-DD`, plus `THH:MM:SS.mmm` when the
/// value is not a whole day.
void append_date64_text(std::string& out, int64_t millis);

/// Time of day in `unit` (time32/time64): `HH:MM:SS` with 0/3/6/9 fraction digits by unit.
/// Values outside one day are not wrapped: hours may exceed 23, and a negative value is
/// written as `-` followed by the text of its magnitude.
void append_time_text(std::string& out, int64_t value, TimeUnit unit);

/// `YYYY-MM-DDTHH:MM:SS` + 0/3/6/9 fraction digits by unit, and a trailing `Z` when
/// `utc_suffix` (the timestamp type has a time zone; values are UTC instants).
void append_timestamp_text(std::string& out, int64_t value, TimeUnit unit, bool utc_suffix);

}  // namespace lance::output
