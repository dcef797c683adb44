#include "encoding/fsst.h"

#include "encoding/variable.h"

#include <algorithm>
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

namespace {

/// Room `codes` may need when decoded: every code yields at most 8 bytes.
size_t fsst_worst_case(const FsstSymbolTable& table, ByteView codes) {
  return table.compressed ? codes.size() * kFsstMaxSymbolLength : codes.size();
}

/// Decodes `codes` into `dst` from byte `pos` on (`dst` holds at least
/// pos + fsst_worst_case(table, codes) bytes); returns the position after the last byte.
size_t fsst_decode_at(const FsstSymbolTable& table, ByteView codes, uint8_t* dst, size_t pos) {
  const uint8_t* in = codes.data();
  const size_t n = codes.size();
  if (!table.compressed) {
    if (n) std::memcpy(dst + pos, in, n);
    return pos + n;
  }
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
  return pos;
}

}  // namespace

void fsst_decode_append(const FsstSymbolTable& table, ByteView codes, Bytes& out) {
  const size_t pos = out.size();
  // Sized for the worst case once, trimmed afterwards.
  out.resize(pos + fsst_worst_case(table, codes));
  out.resize(fsst_decode_at(table, codes, out.data(), pos));
}

FsstValueDecoder::FsstValueDecoder(const FsstSymbolTable& table, Bytes& out, uint64_t expected_codes)
    : table_(table), out_(out) {
  check_alloc(fsst_max_decoded_bytes(expected_codes), "Fsst output");
  out_.clear();
  out_.resize(table.compressed ? expected_codes * 3 : expected_codes);
}

uint64_t FsstValueDecoder::append(ByteView codes) {
  const uint64_t need = pos_ + fsst_worst_case(table_, codes);
  if (need > out_.size()) out_.resize(std::max<uint64_t>(need, out_.size() * 2));
  pos_ = fsst_decode_at(table_, codes, out_.data(), pos_);
  return pos_;
}

// ------------------------------------------------------------------------------------
// Registry row
// ------------------------------------------------------------------------------------

namespace {

/// Applies an FSST table to every value of a variable block.
DataBlock fsst_decode_values(const FsstSymbolTable& table, const DataBlock& compressed) {
  DataBlock out;
  out.num_values = compressed.num_values;
  out.bits_per_offset = compressed.bits_per_offset;
  const uint64_t width = compressed.bits_per_offset / 8;
  out.offsets.reserve((compressed.num_values + 1) * width);
  FsstValueDecoder decoder(table, out.data, compressed.data.size());
  ByteView bytes(compressed.data);
  auto push_offset = [&](uint64_t o) { push_variable_offset(out, o, "Fsst"); };
  push_offset(0);
  for (uint64_t i = 0; i < compressed.num_values; ++i) {
    const uint64_t start = compressed.offset(i);
    const uint64_t end = compressed.offset(i + 1);
    push_offset(decoder.append(bytes.slice(start, end - start)));
  }
  decoder.finish();
  return out;
}

FsstSymbolTable fsst_table(const pb::Fsst& fsst) {
  const std::string& st = fsst.symbol_table();
  return parse_fsst_symbol_table(ByteView(reinterpret_cast<const uint8_t*>(st.data()), st.size()));
}

}  // namespace

DataBlock fsst_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers, uint64_t num_values) {
  const pb::Fsst& fsst = enc.fsst();
  const FsstSymbolTable table = fsst_table(fsst);
  DataBlock compressed =
      decode_miniblock(require(fsst.has_values(), fsst.values(), "Fsst values encoding"), buffers, num_values);
  check_corrupt(compressed.is_variable(), "Fsst values decoded to fixed-width data");
  return fsst_decode_values(table, compressed);
}

std::optional<DataBlock> fsst_miniblock_ranges(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                               uint64_t num_values, std::span<const ValueRange> ranges) {
  const pb::Fsst& fsst = enc.fsst();
  const FsstSymbolTable table = fsst_table(fsst);
  std::optional<DataBlock> compressed = decode_miniblock_ranges(
      require(fsst.has_values(), fsst.values(), "Fsst values encoding"), buffers, num_values, ranges);
  if (!compressed) return std::nullopt;
  check_corrupt(compressed->is_variable(), "Fsst values decoded to fixed-width data");
  return fsst_decode_values(table, *compressed);
}

DataBlock fsst_variable_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped) {
  return fsst_decode_values(fsst_table(enc.fsst()), zipped);
}

std::string describe_fsst(const pb::CompressiveEncoding& enc) {
  const pb::Fsst& fsst = enc.fsst();
  std::string head;
  try {
    const FsstSymbolTable table = fsst_table(fsst);
    head = table.compressed ? fmt::format("Fsst(n_symbols={})", table.n_symbols) : "Fsst(raw)";
  } catch (const Error&) {
    head = "Fsst(invalid symbol table)";
  }
  return head + " › " + describe_child(fsst.has_values(), fsst.values());
}

}  // namespace lance::encoding
