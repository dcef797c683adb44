#include "output/number_text.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <system_error>

#include "common/float16.h"

namespace lance::output {

namespace {

/// Room for any `std::to_chars` scientific output of a double ("-d.<16 digits>e-308").
constexpr size_t kFloatCharsCapacity = 64;

/// Shortest-digit decimal of a finite, non-zero magnitude: `digits` (no sign, no trailing
/// zeros) × 10^(exponent - digits.size() + 1), i.e. `exponent` is the scientific exponent.
struct DecimalDigits {
  char digits[kFloatCharsCapacity];
  int num_digits = 0;
  int exponent = 0;
};

/// Reads `d.ddde±XX` as written by std::to_chars(..., chars_format::scientific).
DecimalDigits parse_scientific(const char* begin, const char* end) {
  DecimalDigits d;
  const char* p = begin;
  if (p != end && *p == '-') ++p;
  for (; p != end && *p != 'e'; ++p)
    if (*p != '.') d.digits[d.num_digits++] = *p;
  ++p;  // 'e'
  if (p != end && *p == '+') ++p;
  std::from_chars(p, end, d.exponent);
  while (d.num_digits > 1 && d.digits[d.num_digits - 1] == '0') --d.num_digits;
  return d;
}

/// Lays out digits the way ECMAScript Number::toString does (n = exponent + 1):
/// fixed notation when -6 < n <= 21, else `d.ddde+X` / `de-X`.
void append_ecmascript_layout(std::string& out, bool negative, const DecimalDigits& d) {
  if (negative) out += '-';
  const int k = d.num_digits;
  const int n = d.exponent + 1;
  const std::string_view digits(d.digits, static_cast<size_t>(k));
  if (k <= n && n <= 21) {
    out += digits;
    out.append(static_cast<size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<size_t>(n));
    out += '.';
    out += digits.substr(static_cast<size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-n), '0');
    out += digits;
  } else {
    out += digits[0];
    if (k > 1) {
      out += '.';
      out += digits.substr(1);
    }
    out += 'e';
    out += d.exponent < 0 ? '-' : '+';
    char buf[8];
    auto r = std::to_chars(buf, buf + sizeof buf, d.exponent < 0 ? -d.exponent : d.exponent);
    out.append(buf, r.ptr);
  }
}

/// Handles NaN, the infinities and both zeros; returns false for other values.
bool append_special(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
  } else if (std::isinf(value)) {
    out += value < 0 ? "-Infinity" : "Infinity";
  } else if (value == 0) {
    out += std::signbit(value) ? "-0" : "0";
  } else {
    return false;
  }
  return true;
}

template <typename Float>
void append_shortest(std::string& out, Float value) {
  if (append_special(out, static_cast<double>(value))) return;
  char buf[kFloatCharsCapacity];
  auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  append_ecmascript_layout(out, value < 0, parse_scientific(buf, r.ptr));
}

}  // namespace

void append_float64_text(std::string& out, double value) { append_shortest(out, value); }

void append_float32_text(std::string& out, float value) { append_shortest(out, value); }

void append_float16_text(std::string& out, uint16_t bits) {
  const double value = half_to_float(bits);
  if (append_special(out, value)) return;
  // ECMAScript's Number::toString choice at half width: the fewest significant digits
  // that read back as this half, then the candidate closest to the value, then the even
  // one. Exact integer arithmetic: every half is a multiple of 2^-24, and no digit finer
  // than 10^-12 is ever needed (5 digits of the smallest subnormal, 5.96e-8).
  using u128 = unsigned __int128;
  constexpr int kScaleDigits = 12;
  constexpr int kMaxHalfDigits = 5;  // an 11-bit significand always round-trips in 5 digits
  auto scaled_pow10 = [](int n) {    // 10^(n - kScaleDigits) in units of 2^-24 × 10^-12
    u128 p = u128{1} << 24;
    for (int k = 0; k < n + kScaleDigits; ++k) p *= 10;
    return p;
  };
  const uint16_t magnitude_bits = bits & 0x7fffu;
  const u128 scaled = static_cast<u128>(std::ldexp(std::fabs(value), 24)) * (scaled_pow10(0) >> 24);
  int exponent = -kScaleDigits;  // scientific: 10^exponent <= |value| < 10^(exponent + 1)
  while (scaled >= scaled_pow10(exponent + 1)) ++exponent;

  auto round_trips = [&](uint64_t digits, int power) {
    char buf[kFloatCharsCapacity];
    auto r = std::to_chars(buf, buf + 24, digits);  // at most 20 digits, then room for "e-12"
    *r.ptr++ = 'e';
    r = std::to_chars(r.ptr, buf + sizeof buf, power);
    double parsed = 0;
    std::from_chars(buf, r.ptr, parsed);
    return double_to_half(parsed) == magnitude_bits;
  };

  uint64_t digits = 0;
  int power = 0;  // |value| ≈ digits × 10^power
  for (int precision = 1; precision <= kMaxHalfDigits; ++precision) {
    power = exponent - precision + 1;
    const u128 unit = scaled_pow10(power);
    const auto lower = static_cast<uint64_t>(scaled / unit);
    const u128 remainder = scaled % unit;
    if (remainder == 0) {
      digits = lower;
      break;
    }
    const bool lower_ok = round_trips(lower, power);
    const bool upper_ok = round_trips(lower + 1, power);
    if (lower_ok && upper_ok) {
      const u128 twice = remainder * 2;
      digits = twice < unit ? lower : twice > unit ? lower + 1 : (lower % 2 == 0 ? lower : lower + 1);
      break;
    }
    if (lower_ok || upper_ok) {
      digits = lower_ok ? lower : lower + 1;
      break;
    }
  }
  DecimalDigits d;
  auto r = std::to_chars(d.digits, d.digits + sizeof d.digits, digits);
  d.num_digits = static_cast<int>(r.ptr - d.digits);
  d.exponent = power + d.num_digits - 1;
  while (d.num_digits > 1 && d.digits[d.num_digits - 1] == '0') --d.num_digits;
  append_ecmascript_layout(out, value < 0, d);
}

void append_decimal_text(std::string& out, const uint8_t* le_bytes, int num_words, int32_t scale) {
  constexpr int kMaxWords = 4;
  uint64_t words[kMaxWords] = {};
  std::memcpy(words, le_bytes, static_cast<size_t>(num_words) * 8);
  const bool negative = (words[num_words - 1] >> 63) != 0;
  if (negative) {  // two's complement: invert and add one
    unsigned carry = 1;
    for (int i = 0; i < num_words; ++i) {
      words[i] = ~words[i] + carry;
      carry = carry && words[i] == 0;
    }
  }
  // Magnitude → decimal digits, 19 at a time (10^19 is the largest power of ten in 64 bits).
  constexpr uint64_t kChunk = 10'000'000'000'000'000'000ull;
  constexpr int kChunkDigits = 19;
  char digits[kMaxWords * 20 + 1];  // 2^256 has 78 digits
  int end = sizeof digits;
  int top = num_words;
  while (top > 0 && words[top - 1] == 0) --top;
  while (top > 0) {
    unsigned __int128 remainder = 0;
    for (int i = top - 1; i >= 0; --i) {
      const unsigned __int128 cur = (remainder << 64) | words[i];
      words[i] = static_cast<uint64_t>(cur / kChunk);
      remainder = cur % kChunk;
    }
    while (top > 0 && words[top - 1] == 0) --top;
    auto chunk = static_cast<uint64_t>(remainder);
    for (int d = 0; d < kChunkDigits && (top > 0 || chunk != 0); ++d) {
      digits[--end] = static_cast<char>('0' + chunk % 10);
      chunk /= 10;
    }
  }
  const std::string_view magnitude(digits + end, sizeof digits - static_cast<size_t>(end));
  if (magnitude.empty()) {  // zero: "0", or "0.00" with scale 2
    out += '0';
    if (scale > 0) {
      out += '.';
      out.append(static_cast<size_t>(scale), '0');
    }
    return;
  }
  if (negative) out += '-';
  if (scale <= 0) {
    out += magnitude;
    out.append(static_cast<size_t>(-static_cast<int64_t>(scale)), '0');
    return;
  }
  const auto fraction = static_cast<size_t>(scale);
  if (magnitude.size() <= fraction) {
    out += "0.";
    out.append(fraction - magnitude.size(), '0');
    out += magnitude;
  } else {
    out += magnitude.substr(0, magnitude.size() - fraction);
    out += '.';
    out += magnitude.substr(magnitude.size() - fraction);
  }
}

}  // namespace lance::output
