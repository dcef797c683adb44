#include "encoding/fsst.h"

#include <cstring>

namespace lance::encoding {
namespace {

/// "FSST" in the top 32 bits of the table header.
constexpr uint64_t kFsstMagic = uint64_t{0x46535354} << 32;
constexpr uint64_t kFsstMagicMask = uint64_t{0xFFFFFFFF} << 32;
constexpr uint64_t kFsstHeaderBytes = 8;
constexpr uint64_t kFsstSymbolBytes = 8;

}  // namespace

FsstSymbolTable parse_fsst_symbol_table(ByteView table) {
  const uint64_t header = table.read<uint64_t>(0);
  check_corrupt((header & kFsstMagicMask) == kFsstMagic, "Fsst: symbol table header {:#018x} lacks the FSST magic",
                header);
  FsstSymbolTable st;
  st.n_symbols = static_cast<uint8_t>(header & 0xFF);
  st.terminator = static_cast<uint8_t>((header >> 8) & 0xFF);
  st.suffix_lim = static_cast<uint8_t>((header >> 16) & 0xFF);
  st.compressed = ((header >> 24) & 0xFF) != 0;
  const uint64_t n = st.n_symbols;
  const uint64_t lengths_at = kFsstHeaderBytes + kFsstSymbolBytes * n;
  check_corrupt(table.size() >= lengths_at + n, "Fsst: symbol table of {} bytes is too short for {} symbols",
                table.size(), n);
  for (uint64_t i = 0; i < n; ++i) {
    st.symbols[i] = table.read<uint64_t>(kFsstHeaderBytes + kFsstSymbolBytes * i);
    const uint8_t len = table[lengths_at + i];
    check_corrupt(len >= 1 && len <= kFsstMaxSymbolLength, "Fsst: symbol {} has length {}", i, len);
    st.lengths[i] = len;
  }
  return st;
}

void fsst_decode_append(const FsstSymbolTable& table, ByteView codes, Bytes& out) {
  const uint8_t* in = codes.data();
  const size_t n = codes.size();
  if (!table.compressed) {
    out.insert(out.end(), in, in + n);
    return;
  }
  size_t pos = out.size();
  // Every code yields at most 8 bytes; reserve the worst case once and trim afterwards.
  out.resize(pos + n * kFsstMaxSymbolLength);
  uint8_t* dst = out.data();
  for (size_t i = 0; i < n; ++i) {
    const uint8_t code = in[i];
    if (code == kFsstEscapeCode) {
      check_corrupt(i + 1 < n, "Fsst: code stream ends with an escape byte");
      dst[pos++] = in[++i];
      continue;
    }
    const uint8_t len = table.lengths[code];
    check_corrupt(len != 0, "Fsst: code {} is not in a table of {} symbols", code, table.n_symbols);
    std::memcpy(dst + pos, &table.symbols[code], kFsstSymbolBytes);  // little-endian: low bytes first
    pos += len;
  }
  out.resize(pos);
}

}  // namespace lance::encoding
