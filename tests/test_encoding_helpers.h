// Shared helpers for the compressive-encoding tests: protobuf builders, a reference
// FastLanes packer written from the index formula of docs/format.md §6.4, and error checks.
#pragma once

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "common/error.h"
#include "encoding/data_block.h"
#include "encoding/decompress.h"

namespace enc_test {

namespace pb = ::lance::encodings21;
using lance::Bytes;
using lance::ByteView;

/// Runs `expr` and requires it to throw a `lance::Error` of the given kind.
#define REQUIRE_LANCE_ERROR(expr, error_kind) \
  do {                                        \
    bool thrown_ = false;                     \
    try {                                     \
      (void)(expr);                           \
    } catch (const lance::Error& e_) {        \
      thrown_ = true;                         \
      INFO(e_.what());                        \
      REQUIRE(e_.kind() == (error_kind));     \
    }                                         \
    REQUIRE(thrown_);                         \
  } while (0)
#define REQUIRE_CORRUPT(expr) REQUIRE_LANCE_ERROR(expr, lance::ErrorKind::corrupt)
#define REQUIRE_UNSUPPORTED(expr) REQUIRE_LANCE_ERROR(expr, lance::ErrorKind::unsupported)

inline pb::CompressiveEncoding flat(uint64_t bits) {
  pb::CompressiveEncoding e;
  e.mutable_flat()->set_bits_per_value(bits);
  return e;
}
inline pb::CompressiveEncoding variable(uint64_t offset_bits) {
  pb::CompressiveEncoding e;
  *e.mutable_variable()->mutable_offsets() = flat(offset_bits);
  return e;
}
inline pb::CompressiveEncoding inline_bitpacking(uint64_t bits) {
  pb::CompressiveEncoding e;
  e.mutable_inline_bitpacking()->set_uncompressed_bits_per_value(bits);
  return e;
}
inline pb::CompressiveEncoding out_of_line(uint64_t bits, uint64_t packed) {
  pb::CompressiveEncoding e;
  e.mutable_out_of_line_bitpacking()->set_uncompressed_bits_per_value(bits);
  *e.mutable_out_of_line_bitpacking()->mutable_values() = flat(packed);
  return e;
}
inline pb::CompressiveEncoding rle(uint64_t value_bits, uint64_t length_bits = 8) {
  pb::CompressiveEncoding e;
  *e.mutable_rle()->mutable_values() = flat(value_bits);
  *e.mutable_rle()->mutable_run_lengths() = flat(length_bits);
  return e;
}
inline pb::CompressiveEncoding general(pb::CompressionScheme scheme, const pb::CompressiveEncoding& inner) {
  pb::CompressiveEncoding e;
  e.mutable_general()->mutable_compression()->set_scheme(scheme);
  *e.mutable_general()->mutable_values() = inner;
  return e;
}
inline pb::CompressiveEncoding fsst(const Bytes& table, const pb::CompressiveEncoding& inner) {
  pb::CompressiveEncoding e;
  e.mutable_fsst()->set_symbol_table(std::string(table.begin(), table.end()));
  *e.mutable_fsst()->mutable_values() = inner;
  return e;
}
inline pb::CompressiveEncoding fsl(uint64_t dim, bool validity, const pb::CompressiveEncoding& inner) {
  pb::CompressiveEncoding e;
  e.mutable_fixed_size_list()->set_items_per_value(dim);
  e.mutable_fixed_size_list()->set_has_validity(validity);
  *e.mutable_fixed_size_list()->mutable_values() = inner;
  return e;
}

template <typename T>
void put(Bytes& out, T v) {
  lance::append_le<T>(out, v);
}

template <typename T>
std::vector<T> as_values(const Bytes& b) {
  std::vector<T> v(b.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

/// Reference FastLanes packer written directly from the index formula (docs/format.md §6.4):
/// value index FL_ORDER[r/8]*16 + (r%8)*128 + l sits at lane l, row r, and bit r·W of a
/// lane lives in word LANES·⌊r·W/T⌋ + l at bit (r·W) mod T. Packs 1024 values of `t`
/// bits into 1024·w/t words (returned as bytes).
inline Bytes reference_pack(unsigned t, unsigned w, const std::vector<uint64_t>& values) {
  static constexpr std::array<unsigned, 8> kOrder = {0, 4, 2, 6, 1, 5, 3, 7};
  const unsigned lanes = 1024 / t;
  const uint64_t words = 1024ull * w / t;
  std::vector<uint64_t> packed(words, 0);
  for (unsigned lane = 0; lane < lanes; ++lane) {
    for (unsigned row = 0; row < t; ++row) {
      const uint64_t v = values.at(kOrder[row / 8] * 16 + (row % 8) * 128 + lane);
      for (unsigned b = 0; b < w; ++b) {
        if (!((v >> b) & 1)) continue;
        const uint64_t bit = uint64_t{row} * w + b;
        packed.at(lanes * (bit / t) + lane) |= uint64_t{1} << (bit % t);
      }
    }
  }
  Bytes out;
  for (uint64_t word : packed) {
    for (unsigned i = 0; i < t / 8; ++i) out.push_back(static_cast<uint8_t>(word >> (8 * i)));
  }
  return out;
}

/// Appends a T-bit little-endian word.
inline void put_word(Bytes& out, unsigned t, uint64_t v) {
  for (unsigned i = 0; i < t / 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

/// Reads value i of a block of T-bit words.
inline uint64_t word_at(const Bytes& data, unsigned t, uint64_t i) {
  uint64_t v = 0;
  for (unsigned b = 0; b < t / 8; ++b) v |= uint64_t{data.at(i * (t / 8) + b)} << (8 * b);
  return v;
}

inline std::vector<std::string> strings_of(const lance::encoding::DataBlock& block) {
  std::vector<std::string> out;
  for (uint64_t i = 0; i < block.num_values; ++i) {
    const uint64_t s = block.offset(i);
    const uint64_t e = block.offset(i + 1);
    out.emplace_back(reinterpret_cast<const char*>(block.data.data()) + s, e - s);
  }
  return out;
}

/// A variable block with 64-bit offsets holding `values` (the full-zip per-value input).
inline lance::encoding::DataBlock variable_block64(const std::vector<Bytes>& values) {
  lance::encoding::DataBlock b;
  b.num_values = values.size();
  b.bits_per_offset = 64;
  put<uint64_t>(b.offsets, 0);
  for (const Bytes& v : values) {
    b.data.insert(b.data.end(), v.begin(), v.end());
    put<uint64_t>(b.offsets, b.data.size());
  }
  return b;
}

inline Bytes bytes_of(const std::string& s) { return Bytes(s.begin(), s.end()); }

}  // namespace enc_test
