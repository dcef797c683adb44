#include "encoding/general.h"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <limits>
#include <memory>

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

/// Streams a bare frame whose size is not stored anywhere but (maybe) in its header.
Bytes zstd_decompress_bare(ByteView input) {
  std::unique_ptr<ZSTD_DCtx, DctxDeleter> dctx(ZSTD_createDCtx());
  if (!dctx) throw_io("zstd: cannot allocate a decompression context");
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
    ret = ZSTD_decompressStream(dctx.get(), &ob, &in);
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

Bytes zstd_decompress(ByteView input) {
  if (input.empty()) return {};
  if (is_bare_zstd_frame(input)) return zstd_decompress_bare(input);
  const uint64_t declared = input.read<uint64_t>(0);
  check_alloc(declared, "zstd declared uncompressed size");
  ByteView frame = input.slice(kZstdLengthPrefixBytes);
  check_corrupt(declared / kZstdMaxExpansion <= frame.size(),
                "zstd: {} compressed bytes cannot expand to the declared {} bytes", frame.size(), declared);
  const unsigned long long in_header = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (in_header == ZSTD_CONTENTSIZE_ERROR) throw_corrupt("zstd: buffer does not start with a zstd frame");
  check_corrupt(in_header == ZSTD_CONTENTSIZE_UNKNOWN || in_header == declared,
                "zstd: length prefix says {} bytes but the frame header says {}", declared, in_header);
  Bytes out(static_cast<size_t>(declared));
  uint8_t dummy = 0;  // libzstd wants a valid pointer even for an empty destination
  const size_t ret = ZSTD_decompress(out.empty() ? &dummy : out.data(), out.size(), frame.data(), frame.size());
  if (ZSTD_isError(ret)) throw_corrupt("zstd: {}", ZSTD_getErrorName(ret));
  check_corrupt(ret == declared, "zstd: decompressed {} bytes, length prefix says {}", ret, declared);
  return out;
}

Bytes lz4_decompress(ByteView input) {
  const uint32_t declared = input.read<uint32_t>(0);
  check_alloc(declared, "lz4 declared uncompressed size");
  ByteView block = input.slice(kLz4LengthPrefixBytes);
  check_corrupt(block.size() <= static_cast<uint64_t>(std::numeric_limits<int>::max()) &&
                    declared <= static_cast<uint64_t>(std::numeric_limits<int>::max()),
                "lz4: block of {} bytes decompressing to {} bytes is beyond the LZ4 block API", block.size(), declared);
  // An LZ4 block expands at most ~255× (each literal-length/match-length byte adds 255).
  check_corrupt(declared / 256 <= block.size(), "lz4: {} compressed bytes cannot expand to the declared {} bytes",
                block.size(), declared);
  Bytes out(declared);
  char dummy = 0;
  const int ret = LZ4_decompress_safe(reinterpret_cast<const char*>(block.data()),
                                      out.empty() ? &dummy : reinterpret_cast<char*>(out.data()),
                                      static_cast<int>(block.size()), static_cast<int>(declared));
  check_corrupt(ret >= 0, "lz4: malformed block ({} compressed bytes, {} declared)", block.size(), declared);
  check_corrupt(static_cast<uint64_t>(ret) == declared, "lz4: decompressed {} bytes, length prefix says {}", ret,
                declared);
  return out;
}

Bytes general_decompress(GeneralScheme scheme, ByteView input) {
  return scheme == GeneralScheme::lz4 ? lz4_decompress(input) : zstd_decompress(input);
}

}  // namespace lance::encoding
