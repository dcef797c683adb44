#include "encoding/general.h"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <span>

#include "encoding/sizes.h"

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

}  // namespace lance::encoding
