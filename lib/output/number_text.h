// Text of numbers as docs/output-format.md specifies: floats as the shortest decimal that
// round-trips at the column's width, laid out like ECMAScript Number.prototype.toString,
// and decimals exactly with `scale` fraction digits.
#pragma once

#include <cstdint>
#include <string>

namespace lance::output {

/// Appends a float64: shortest round-trip digits, ECMAScript layout (`0.1`, `1e+21`,
/// `1e-7`, `-0`, `NaN`, `Infinity`, `-Infinity`).
void append_float64_text(std::string& out, double value);

/// Appends a float32: shortest digits that read back as the same float32.
void append_float32_text(std::string& out, float value);

/// Appends an IEEE binary16 value given as its bits: shortest digits (1..5) that read
/// back as the same half.
void append_float16_text(std::string& out, uint16_t bits);

/// Appends a two's-complement little-endian integer of `num_words` 64-bit words (2 for
/// decimal128, 4 for decimal256) as a decimal with `scale` fraction digits
/// (`-1250`, scale 2 → `-12.50`; scale -2 → `-125000`).
void append_decimal_text(std::string& out, const uint8_t* le_bytes, int num_words, int32_t scale);

}  // namespace lance::output
