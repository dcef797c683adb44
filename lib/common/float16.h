// IEEE 754 binary16 (Arrow's float16, Lance's half-float vectors) to and from wider floats.
#pragma once

#include <cstdint>

namespace lance {

/// The float a half-precision bit pattern stands for: exact for every half (subnormals,
/// ±0, ±inf); any NaN becomes a quiet NaN of the same sign.
float half_to_float(uint16_t bits);

/// Rounds a double to the nearest binary16 (ties to even); overflow gives an infinity.
uint16_t double_to_half(double value);

}  // namespace lance
