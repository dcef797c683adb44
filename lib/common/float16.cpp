#include "common/float16.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace lance {

float half_to_float(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1fu;
  const uint32_t mantissa = bits & 0x3ffu;
  float magnitude;
  if (exponent == 0x1f) {
    magnitude = mantissa ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // subnormal: mantissa × 2^-24
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
  }
  uint32_t out;
  std::memcpy(&out, &magnitude, 4);
  out |= sign;
  float f;
  std::memcpy(&f, &out, 4);
  return f;
}

uint16_t double_to_half(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  const double a = std::fabs(value);
  if (std::isnan(a)) return sign | 0x7e00;
  // 65520 is the midpoint between the largest half (65504) and 2^16; ties to even round up.
  if (a >= 65520.0) return sign | 0x7c00;
  if (a < 0x1p-14) {
    // Subnormal (or zero): a count of 2^-24 units; rounding up to 1024 yields the smallest
    // normal's encoding, which is correct.
    return sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(a, 24)));
  }
  int e;
  std::frexp(a, &e);  // a = f × 2^e, f in [0.5, 1): the half exponent is e - 1
  const int exponent = e - 1;
  // Significand with 10 fraction bits, in [1024, 2048]; 2048 carries into the exponent.
  const auto significand = static_cast<uint32_t>(std::nearbyint(std::ldexp(a, 10 - exponent)));
  return sign | static_cast<uint16_t>(((exponent + 15) << 10) + (significand - 1024));
}

}  // namespace lance
