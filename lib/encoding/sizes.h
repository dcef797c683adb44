// Size arithmetic shared by the compressive decoders: every byte count derived from
// a value count and a bit width read from a file goes through these helpers, so an
// overflowing or absurd size becomes a corrupt-file error instead of a huge allocation.
#pragma once

#include <cstdint>
#include <limits>

#include "common/bytes.h"

namespace lance::encoding {

/// Bytes needed for `num_values` values of `bits_per_value` bits packed back to back
/// (rounded up to whole bytes). Throws corrupt when the result exceeds
/// `kMaxDecodedBufferBytes` (which also rules out 64-bit overflow).
inline uint64_t checked_value_bytes(uint64_t num_values, uint64_t bits_per_value, const char* what) {
  if (bits_per_value == 0 || num_values == 0) return 0;
  // kMaxDecodedBufferBytes * 8 fits comfortably in 64 bits (2^37).
  constexpr uint64_t kMaxBits = kMaxDecodedBufferBytes * 8;
  check_corrupt(num_values <= kMaxBits / bits_per_value, "{}: {} values of {} bits exceed the decode limit", what,
                num_values, bits_per_value);
  const uint64_t bytes = (num_values * bits_per_value + 7) / 8;
  check_alloc(bytes, what);
  return bytes;
}

/// `a * b`, or a corrupt-file error when the product exceeds `kMaxDecodedBufferBytes`.
inline uint64_t checked_mul(uint64_t a, uint64_t b, const char* what) {
  check_corrupt(a == 0 || b <= kMaxDecodedBufferBytes / a, "{}: {} × {} exceeds the decode limit", what, a, b);
  return a * b;
}

/// True for the unsigned word widths the bit-level kernels handle.
inline bool is_word_width(uint64_t bits) { return bits == 8 || bits == 16 || bits == 32 || bits == 64; }

}  // namespace lance::encoding
