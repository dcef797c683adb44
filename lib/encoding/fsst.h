// FSST string decompression with Lance's own symbol-table serialization (docs/format.md §6.7).
//
// Table bytes (Lance `FsstEncoder::export`, not libfsst's `fsst_export`):
//   [0, 8)        u64 LE header: bits 32..63 = 0x46535354 ("FSST"), bits 24..31 = encoder
//                 switch (1 = strings compressed, 0 = strings stored raw), bits 16..23 =
//                 suffix_lim, bits 8..15 = terminator, bits 0..7 = n_symbols
//   [8, 8+8n)     n symbols, each a u64 LE whose low `length` bytes are the symbol
//   [8+8n, 8+9n)  n symbol lengths (1..8), one byte each
// followed by zero fill (writers allocate 2312 bytes). Codes 0..n-1 select a symbol;
// code 255 escapes the next byte, which is copied literally.
#pragma once

#include <array>
#include <cstdint>

#include "common/bytes.h"
#include "encoding/registry.h"

namespace lance::encoding {

/// The escape code of an FSST code stream: the following byte is a literal.
inline constexpr uint8_t kFsstEscapeCode = 255;
/// The longest FSST symbol, in bytes.
inline constexpr unsigned kFsstMaxSymbolLength = 8;

/// A parsed Lance FSST symbol table.
struct FsstSymbolTable {
  bool compressed = false;  // encoder switch; false → strings are stored raw
  uint8_t n_symbols = 0;
  uint8_t terminator = 0;
  uint8_t suffix_lim = 0;
  std::array<uint64_t, 256> symbols{};  // symbol bytes, little-endian
  std::array<uint8_t, 256> lengths{};   // 0 for unused codes
};

/// Parses Lance's serialized symbol table; throws corrupt on a bad magic, n_symbols of
/// 255 or more (255 is the escape code), a truncated table or symbol lengths outside 1..8.
FsstSymbolTable parse_fsst_symbol_table(ByteView table);

/// Appends the decompressed form of one code stream to `out`. With the switch off the
/// bytes are copied. Throws corrupt on an unknown code or a dangling escape.
void fsst_decode_append(const FsstSymbolTable& table, ByteView codes, Bytes& out);

/// Decodes the values of one block, one after another, into one buffer `out` (cleared
/// first): the buffer grows geometrically and finish() trims it. Sizing the buffer for each
/// value's worst case as it comes (8 bytes a code) would clear 8x the input per value.
class FsstValueDecoder {
 public:
  /// `expected_codes`: the block's code bytes, for the first allocation.
  FsstValueDecoder(const FsstSymbolTable& table, Bytes& out, uint64_t expected_codes);
  /// Decodes one value's code stream after the previous ones; returns the end offset of
  /// its bytes in `out`. Throws corrupt as fsst_decode_append does.
  uint64_t append(ByteView codes);
  /// Trims `out` to the decoded bytes.
  void finish() { out_.resize(pos_); }

 private:
  const FsstSymbolTable& table_;
  Bytes& out_;
  uint64_t pos_ = 0;
};

/// Upper bound on the decompressed size of `code_bytes` bytes of codes.
inline uint64_t fsst_max_decoded_bytes(uint64_t code_bytes) { return code_bytes * kFsstMaxSymbolLength; }

// Fsst's row of the encoding registry (registry.h): a symbol table in the encoding, the
// compressed strings in its `values` encoding (Variable).
DataBlock fsst_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers, uint64_t num_values);
/// Some values of one chunk (decode_miniblock_ranges): only the wanted code streams are
/// decoded; nullopt when the inner encoding cannot pick values out.
std::optional<DataBlock> fsst_miniblock_ranges(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                               uint64_t num_values, std::span<const ValueRange> ranges);
DataBlock fsst_variable_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped);
std::string describe_fsst(const pb::CompressiveEncoding& enc);

}  // namespace lance::encoding
