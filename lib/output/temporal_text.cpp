#include "output/temporal_text.h"

namespace lance::output {

namespace {

constexpr int64_t kSecondsPerDay = 86'400;
constexpr int64_t kMillisPerDay = kSecondsPerDay * 1000;

struct CivilDate {
  int64_t year;
  unsigned month;  ///< 1..12
  unsigned day;    ///< 1..31
};

/// Howard Hinnant's civil_from_days: days since 1970-01-01 → proleptic Gregorian date.
/// Valid for every int64 day count divided by at least 86400 (as all callers do), and for
/// any date32.
CivilDate civil_from_days(int64_t days) {
  const int64_t z = days + 719'468;  // days since 0000-03-01
  const int64_t era = (z >= 0 ? z : z - 146'096) / 146'097;
  const auto doe = static_cast<unsigned>(z - era * 146'097);                      // [0, 146096]
  const unsigned yoe = (doe - doe / 1'460 + doe / 36'524 - doe / 146'096) / 365;  // [0, 399]
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                   // [0, 365]
  const unsigned mp = (5 * doy + 2) / 153;                                        // [0, 11]
  const unsigned day = doy - (153 * mp + 2) / 5 + 1;
  const unsigned month = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<int64_t>(yoe) + era * 400 + (month <= 2), month, day};
}

/// Floor division and the matching non-negative remainder (divisor > 0).
struct FloorDiv {
  int64_t quotient;
  int64_t remainder;
};
FloorDiv floor_div(int64_t value, int64_t divisor) {
  int64_t q = value / divisor;
  int64_t r = value % divisor;
  if (r < 0) {
    --q;
    r += divisor;
  }
  return {q, r};
}

/// Builds one temporal text in a fixed buffer, appended to the output in one piece
/// (fewer string appends per value: this runs for every cell of a temporal column).
class TextBuilder {
 public:
  void put(char c) { data_[size_++] = c; }
  /// `value` in decimal, left-padded with zeros to at least `width` digits.
  void put_padded(uint64_t value, int width) {
    char digits[20];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0);
    for (int k = n; k < width; ++k) data_[size_++] = '0';
    while (n > 0) data_[size_++] = digits[--n];
  }
  void put_year(int64_t year) {
    if (year < 0) {
      put('-');
      put_padded(0 - static_cast<uint64_t>(year), 4);
    } else {
      if (year > 9999) put('+');
      put_padded(static_cast<uint64_t>(year), 4);
    }
  }
  void put_date(int64_t days) {
    const CivilDate d = civil_from_days(days);
    put_year(d.year);
    put('-');
    put_padded(d.month, 2);
    put('-');
    put_padded(d.day, 2);
  }
  /// `HH:MM:SS` of a second count (hours not wrapped), then `.` and the fraction if any digits.
  void put_clock(uint64_t seconds, uint64_t fraction, int num_fraction_digits) {
    put_padded(seconds / 3600, 2);
    put(':');
    put_padded(seconds / 60 % 60, 2);
    put(':');
    put_padded(seconds % 60, 2);
    if (num_fraction_digits > 0) {
      put('.');
      put_padded(fraction, num_fraction_digits);
    }
  }
  void append_to(std::string& out) const { out.append(data_, size_); }

 private:
  /// The longest text: a sign, a 12-digit year, "-MM-DDTHH:MM:SS.", 9 fraction digits, "Z".
  char data_[64];
  size_t size_ = 0;
};

int64_t units_per_second(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::second:
      return 1;
    case TimeUnit::milli:
      return 1'000;
    case TimeUnit::micro:
      return 1'000'000;
    case TimeUnit::nano:
      return 1'000'000'000;
  }
  return 1;
}

int fraction_digits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::second:
      return 0;
    case TimeUnit::milli:
      return 3;
    case TimeUnit::micro:
      return 6;
    case TimeUnit::nano:
      return 9;
  }
  return 0;
}

}  // namespace

void append_date_text(std::string& out, int64_t days) {
  TextBuilder text;
  text.put_date(days);
  text.append_to(out);
}

void append_date64_text(std::string& out, int64_t millis) {
  const FloorDiv days = floor_div(millis, kMillisPerDay);
  TextBuilder text;
  text.put_date(days.quotient);
  if (days.remainder != 0) {
    text.put('T');
    const auto ms = static_cast<uint64_t>(days.remainder);
    text.put_clock(ms / 1000, ms % 1000, 3);
  }
  text.append_to(out);
}

void append_time_text(std::string& out, int64_t value, TimeUnit unit) {
  TextBuilder text;
  // The magnitude as unsigned, so INT64_MIN does not overflow.
  uint64_t magnitude = static_cast<uint64_t>(value);
  if (value < 0) {
    text.put('-');
    magnitude = 0 - magnitude;
  }
  const auto per_second = static_cast<uint64_t>(units_per_second(unit));
  text.put_clock(magnitude / per_second, magnitude % per_second, fraction_digits(unit));
  text.append_to(out);
}

void append_timestamp_text(std::string& out, int64_t value, TimeUnit unit, bool utc_suffix) {
  const FloorDiv seconds = floor_div(value, units_per_second(unit));
  const FloorDiv days = floor_div(seconds.quotient, kSecondsPerDay);
  TextBuilder text;
  text.put_date(days.quotient);
  text.put('T');
  text.put_clock(static_cast<uint64_t>(days.remainder), static_cast<uint64_t>(seconds.remainder),
                 fraction_digits(unit));
  if (utc_suffix) text.put('Z');
  text.append_to(out);
}

}  // namespace lance::output
