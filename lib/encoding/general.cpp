#include "encoding/general.h"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <span>

#include "common/cpu_pool.h"
#include "encoding/sizes.h"
#include "encoding/variable.h"

namespace lance::encoding {
namespace {

constexpr uint32_t kZstdMagic = 0xFD2FB528;
/// Byte of the zstd frame header descriptor, and the bit Lance tests to tell a bare frame
/// from a length prefix whose low four bytes happen to equal the magic.
constexpr size_t kZstdFrameHeaderDescriptorByte = 4;
constexpr uint8_t kZstdLegacyProbeBit = 0x10;
constexpr size_t kZstdLengthPrefixBytes = 8;
constexpr size_t kLz4LengthPrefixBytes = 4;
/// Bound on zstd's expansion ratio: a block (≤ 128 KiB of output) costs at least a 3-byte
/// header plus one byte, so no frame expands by more than 2^15; 2^16 leaves headroom.
constexpr uint64_t kZstdMaxExpansion = uint64_t{1} << 16;

bool is_bare_zstd_frame(ByteView input) {
  // Lance: anything shorter than a length prefix cannot be length-prefixed.
  if (input.size() < kZstdLengthPrefixBytes) return true;
  if (input.read<uint32_t>(0) != kZstdMagic) return false;
  return (input[kZstdFrameHeaderDescriptorByte] & kZstdLegacyProbeBit) == 0;
}

struct DctxDeleter {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

/// One decompression context per thread, reused: Lance compresses each full-zip value on its
/// own, and creating a context per value (what ZSTD_decompress does) costs more than the
/// decompression of a small value.
ZSTD_DCtx& thread_dctx() {
  thread_local std::unique_ptr<ZSTD_DCtx, DctxDeleter> dctx(ZSTD_createDCtx());
  if (!dctx) throw_io("zstd: cannot allocate a decompression context");
  ZSTD_DCtx_reset(dctx.get(), ZSTD_reset_session_only);
  return *dctx;
}

/// Streams a bare frame whose size is not stored anywhere but (maybe) in its header.
Bytes zstd_decompress_bare(ByteView input) {
  ZSTD_DCtx* dctx = &thread_dctx();
  Bytes out;
  const unsigned long long declared = ZSTD_getFrameContentSize(input.data(), input.size());
  if (declared != ZSTD_CONTENTSIZE_ERROR && declared != ZSTD_CONTENTSIZE_UNKNOWN) {
    check_alloc(declared, "zstd frame content size");
    // The header's size is only a claim: no bigger than the input can expand to.
    check_corrupt(declared / kZstdMaxExpansion <= input.size(),
                  "zstd: {} compressed bytes cannot expand to the {} bytes the frame header declares", input.size(),
                  declared);
    out.reserve(static_cast<size_t>(declared));
  }
  ZSTD_inBuffer in{input.data(), input.size(), 0};
  size_t produced = 0;
  size_t ret = 1;
  while (true) {
    if (out.size() - produced < ZSTD_DStreamOutSize()) {
      check_alloc(out.size() + ZSTD_DStreamOutSize(), "zstd output");
      out.resize(std::max(out.size() * 2, out.size() + ZSTD_DStreamOutSize()));
    }
    ZSTD_outBuffer ob{out.data(), out.size(), produced};
    ret = ZSTD_decompressStream(dctx, &ob, &in);
    if (ZSTD_isError(ret)) throw_corrupt("zstd: {}", ZSTD_getErrorName(ret));
    produced = ob.pos;
    if (in.pos == in.size && ret == 0) break;  // all frames finished
    if (in.pos == in.size && ob.pos < ob.size) throw_corrupt("zstd: frame is truncated");
  }
  out.resize(produced);
  return out;
}

}  // namespace

const char* general_scheme_name(GeneralScheme scheme) { return scheme == GeneralScheme::lz4 ? "lz4" : "zstd"; }

namespace {

/// The frame of a length-prefixed zstd buffer, after checking the prefix against the frame
/// header and the expansion bound.
ByteView zstd_prefixed_frame(ByteView input, uint64_t& declared) {
  declared = input.read<uint64_t>(0);
  check_alloc(declared, "zstd declared uncompressed size");
  ByteView frame = input.slice(kZstdLengthPrefixBytes);
  check_corrupt(declared / kZstdMaxExpansion <= frame.size(),
                "zstd: {} compressed bytes cannot expand to the declared {} bytes", frame.size(), declared);
  const unsigned long long in_header = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (in_header == ZSTD_CONTENTSIZE_ERROR) throw_corrupt("zstd: buffer does not start with a zstd frame");
  check_corrupt(in_header == ZSTD_CONTENTSIZE_UNKNOWN || in_header == declared,
                "zstd: length prefix says {} bytes but the frame header says {}", declared, in_header);
  return frame;
}

ByteView lz4_block(ByteView input, uint64_t& declared) {
  declared = input.read<uint32_t>(0);
  check_alloc(declared, "lz4 declared uncompressed size");
  ByteView block = input.slice(kLz4LengthPrefixBytes);
  check_corrupt(block.size() <= static_cast<uint64_t>(std::numeric_limits<int>::max()) &&
                    declared <= static_cast<uint64_t>(std::numeric_limits<int>::max()),
                "lz4: block of {} bytes decompressing to {} bytes is beyond the LZ4 block API", block.size(), declared);
  // An LZ4 block expands at most ~255× (each literal-length/match-length byte adds 255).
  check_corrupt(declared / 256 <= block.size(), "lz4: {} compressed bytes cannot expand to the declared {} bytes",
                block.size(), declared);
  return block;
}

}  // namespace

std::optional<uint64_t> general_decompressed_size(GeneralScheme scheme, ByteView input) {
  uint64_t declared = 0;
  if (scheme == GeneralScheme::lz4) {
    lz4_block(input, declared);
    return declared;
  }
  if (input.empty()) return 0;
  if (is_bare_zstd_frame(input)) return std::nullopt;  // size only in a frame header, maybe not even there
  zstd_prefixed_frame(input, declared);
  return declared;
}

void general_decompress_into(GeneralScheme scheme, ByteView input, std::span<uint8_t> out) {
  uint64_t declared = 0;
  uint8_t dummy = 0;  // the libraries want a valid pointer even for an empty destination
  if (scheme == GeneralScheme::lz4) {
    ByteView block = lz4_block(input, declared);
    check_corrupt(declared == out.size(), "lz4: {} bytes declared, {} expected", declared, out.size());
    const int ret =
        LZ4_decompress_safe(reinterpret_cast<const char*>(block.data()),
                            out.empty() ? reinterpret_cast<char*>(&dummy) : reinterpret_cast<char*>(out.data()),
                            static_cast<int>(block.size()), static_cast<int>(declared));
    check_corrupt(ret >= 0, "lz4: malformed block ({} compressed bytes, {} declared)", block.size(), declared);
    check_corrupt(static_cast<uint64_t>(ret) == declared, "lz4: decompressed {} bytes, length prefix says {}", ret,
                  declared);
    return;
  }
  if (input.empty()) {
    check_corrupt(out.empty(), "zstd: empty buffer for {} expected bytes", out.size());
    return;
  }
  if (is_bare_zstd_frame(input)) {
    Bytes plain = zstd_decompress_bare(input);
    check_corrupt(plain.size() == out.size(), "zstd: frame holds {} bytes, {} expected", plain.size(), out.size());
    std::copy(plain.begin(), plain.end(), out.begin());
    return;
  }
  ByteView frame = zstd_prefixed_frame(input, declared);
  check_corrupt(declared == out.size(), "zstd: {} bytes declared, {} expected", declared, out.size());
  const size_t ret =
      ZSTD_decompressDCtx(&thread_dctx(), out.empty() ? &dummy : out.data(), out.size(), frame.data(), frame.size());
  if (ZSTD_isError(ret)) throw_corrupt("zstd: {}", ZSTD_getErrorName(ret));
  check_corrupt(ret == declared, "zstd: decompressed {} bytes, length prefix says {}", ret, declared);
}

Bytes zstd_decompress(ByteView input) {
  if (input.empty()) return {};
  if (is_bare_zstd_frame(input)) return zstd_decompress_bare(input);
  Bytes out(static_cast<size_t>(*general_decompressed_size(GeneralScheme::zstd, input)));
  general_decompress_into(GeneralScheme::zstd, input, out);
  return out;
}

Bytes lz4_decompress(ByteView input) {
  Bytes out(static_cast<size_t>(*general_decompressed_size(GeneralScheme::lz4, input)));
  general_decompress_into(GeneralScheme::lz4, input, out);
  return out;
}

Bytes general_decompress(GeneralScheme scheme, ByteView input) {
  return scheme == GeneralScheme::lz4 ? lz4_decompress(input) : zstd_decompress(input);
}

// ------------------------------------------------------------------------------------
// Registry row
// ------------------------------------------------------------------------------------

namespace {

GeneralScheme general_scheme(const pb::General& general) {
  check_corrupt(general.has_compression(), "General encoding has no compression scheme");
  switch (general.compression().scheme()) {
    case pb::COMPRESSION_ALGORITHM_LZ4:
      return GeneralScheme::lz4;
    case pb::COMPRESSION_ALGORITHM_ZSTD:
      return GeneralScheme::zstd;
    default:
      throw_unsupported("General compression scheme {} is not supported",
                        static_cast<int>(general.compression().scheme()));
  }
}

/// Boundaries b_0 = 0 < b_1 < … < b_k = values.size() of `values`, in runs of about equal
/// total size, each at least `min_bytes`, at most `max_runs` of them; empty when the values
/// are too small for two runs.
std::vector<uint64_t> split_by_weight(std::span<const ByteView> values, uint64_t min_bytes, size_t max_runs) {
  uint64_t total = 0;
  for (const ByteView& v : values) total += v.size();
  if (max_runs < 2 || total < 2 * min_bytes) return {};
  const uint64_t runs = std::min<uint64_t>(max_runs, total / min_bytes);
  const uint64_t target = (total + runs - 1) / runs;
  std::vector<uint64_t> bounds{0};
  uint64_t seen = 0;
  for (uint64_t i = 1; i < values.size(); ++i) {
    seen += values[i - 1].size();
    if (seen >= target * bounds.size()) bounds.push_back(i);
  }
  bounds.push_back(values.size());
  return bounds;
}

/// Appends offset `o` to `out`'s offsets, `out.bits_per_offset` (32 or 64) wide.
void push_offset(DataBlock& out, uint64_t o) { push_variable_offset(out, o, "General"); }

/// The decompressed size of every value (0 for an empty value, a null slot), from their
/// length prefixes; nullopt when a value does not state it (a bare legacy zstd frame).
std::optional<std::vector<uint64_t>> decompressed_sizes(GeneralScheme scheme, std::span<const ByteView> values) {
  std::vector<uint64_t> sizes(values.size(), 0);
  uint64_t total = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].empty()) continue;  // an empty value (a null slot) stays empty
    auto n = general_decompressed_size(scheme, values[i]);
    if (!n) return std::nullopt;
    sizes[i] = *n;
    total += *n;
    check_alloc(total, "General output");
  }
  return sizes;
}

/// Decompresses `values`, of known `sizes`, straight onto the end of `out.data` (its last
/// offset at `base`): the buffer grows once, to the right size.
void decompress_sized_values(GeneralScheme scheme, std::span<const ByteView> values, const std::vector<uint64_t>& sizes,
                             uint64_t base, DataBlock& out) {
  uint64_t total = 0;
  for (uint64_t s : sizes) total += s;
  check_alloc(base + total, "General output");
  reserve_more(out.data, total);
  out.data.resize(base + total);
  std::vector<uint64_t> starts(values.size());
  uint64_t at = base;
  for (size_t i = 0; i < values.size(); ++i) {
    starts[i] = at;
    push_offset(out, at += sizes[i]);
  }
  auto decompress_values = [&](uint64_t lo, uint64_t hi) {
    for (uint64_t i = lo; i < hi; ++i)
      if (!values[i].empty())
        general_decompress_into(scheme, values[i], std::span<uint8_t>(out.data.data() + starts[i], sizes[i]));
  };
  // Every value is its own frame with a known place in the output, so a large page
  // (of a scan, or of a take: read::DecodeMode) splits across the CPU pool
  // (common/cpu_pool.h) in runs of about equal compressed size.
  const std::vector<uint64_t> runs =
      fan_out_allowed() ? split_by_weight(values, kFanOutMinBytes, 4 * cpu_pool_threads()) : std::vector<uint64_t>{};
  if (runs.size() > 2) {
    parallel_for(runs.size() - 1, [&](size_t k) { decompress_values(runs[k], runs[k + 1]); });
  } else {
    decompress_values(0, values.size());
  }
}

/// Decompresses `values` one after the other, appending each to `out`.
void decompress_values_in_turn(GeneralScheme scheme, std::span<const ByteView> values, DataBlock& out) {
  for (const ByteView& v : values) {
    if (!v.empty()) {
      const Bytes value = general_decompress(scheme, v);
      check_alloc(out.data.size() + value.size(), "General output");
      out.data.insert(out.data.end(), value.begin(), value.end());
    }
    push_offset(out, out.data.size());
  }
}

}  // namespace

DataBlock general_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                            uint64_t num_values) {
  const pb::General& general = enc.general();
  const GeneralScheme scheme = general_scheme(general);
  const pb::CompressiveEncoding& inner = require(general.has_values(), general.values(), "General values encoding");
  check_corrupt(!buffers.empty(), "General expects at least one buffer per chunk");
  const Bytes first = general_decompress(scheme, buffers[0]);
  std::vector<ByteView> replaced(buffers.begin(), buffers.end());
  replaced[0] = ByteView(first);
  return decode_miniblock(inner, replaced, num_values);
}

DataBlock general_block(const pb::CompressiveEncoding& enc, ByteView buffer, uint64_t num_values) {
  const pb::General& general = enc.general();
  const GeneralScheme scheme = general_scheme(general);
  const pb::CompressiveEncoding& inner = require(general.has_values(), general.values(), "General values encoding");
  const Bytes plain = general_decompress(scheme, buffer);
  return decode_block(inner, ByteView(plain), num_values);
}

void general_variable_per_value_append(const pb::CompressiveEncoding& enc, std::span<const ByteView> values,
                                       DataBlock& out) {
  const GeneralScheme scheme = general_scheme(enc.general());
  check_corrupt(out.children.empty() && (out.is_variable() || (out.num_values == 0 && out.data.empty())),
                "General: variable-width values appended to a block of another kind");
  if (out.bits_per_offset == 0) out.bits_per_offset = 64;
  if (out.offsets.empty()) push_offset(out, 0);
  const uint64_t base = out.offset(out.num_values);
  check_corrupt(base == out.data.size(), "General: a block's last offset {} is not its {} bytes", base,
                out.data.size());
  reserve_more(out.offsets, values.size() * (out.bits_per_offset / 8));
  // Sizes first (from each value's length prefix), so the values decompress straight
  // into their places.
  if (const auto sizes = decompressed_sizes(scheme, values))
    decompress_sized_values(scheme, values, *sizes, base, out);
  else
    decompress_values_in_turn(scheme, values, out);
  out.num_values += values.size();
}

std::optional<uint64_t> general_variable_per_value_bytes(const pb::CompressiveEncoding& enc,
                                                         std::span<const ByteView> values) {
  const auto sizes = decompressed_sizes(general_scheme(enc.general()), values);
  if (!sizes) return std::nullopt;
  uint64_t total = 0;
  for (uint64_t s : *sizes) total += s;
  return total;
}

DataBlock general_variable_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped) {
  std::vector<ByteView> values(zipped.num_values);
  const ByteView bytes(zipped.data);
  for (uint64_t i = 0; i < zipped.num_values; ++i)
    values[i] = bytes.slice(zipped.offset(i), zipped.offset(i + 1) - zipped.offset(i));
  DataBlock out;
  out.bits_per_offset = zipped.bits_per_offset;
  general_variable_per_value_append(enc, values, out);
  return out;
}

std::optional<uint64_t> general_block_num_values(const pb::CompressiveEncoding& enc, ByteView buffer) {
  const pb::General& general = enc.general();
  const pb::CompressiveEncoding& inner = require(general.has_values(), general.values(), "General values encoding");
  const EncodingRow* row = find_encoding(inner.compression_case());
  if (!row || !row->block_num_values) return std::nullopt;  // not worth decompressing
  const Bytes plain = general_decompress(general_scheme(general), buffer);
  return row->block_num_values(inner, ByteView(plain));
}

std::optional<uint64_t> general_count_by_size(const pb::CompressiveEncoding& enc, ByteView buffer) {
  const pb::General& general = enc.general();
  const Bytes plain = general_decompress(general_scheme(general), buffer);
  return count_by_size(require(general.has_values(), general.values(), "General values encoding"), ByteView(plain));
}

std::string describe_general(const pb::CompressiveEncoding& enc) {
  const pb::General& g = enc.general();
  const std::string scheme = g.has_compression() ? scheme_name(g.compression()) : "?";
  return fmt::format("General({}) › {}", scheme, describe_child(g.has_values(), g.values()));
}

}  // namespace lance::encoding
