// General zstd/lz4 wrapper and its frame formats (docs/format.md §6.11, 6.12).
#include "test_encoding_helpers.h"

#include <lz4.h>
#include <zstd.h>

#include "common/cpu_pool.h"
#include "encoding/general.h"

using namespace enc_test;
using lance::encoding::decode_block;
using lance::encoding::decode_miniblock;
using lance::encoding::decode_variable_per_value;
using lance::encoding::describe;
using lance::encoding::lz4_decompress;
using lance::encoding::zstd_decompress;

namespace {

Bytes zstd_frame(const Bytes& plain) {
  Bytes out(ZSTD_compressBound(plain.size()));
  const size_t n = ZSTD_compress(out.data(), out.size(), plain.data(), plain.size(), 3);
  REQUIRE_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

/// Lance's zstd framing: [u64 LE length][frame].
Bytes zstd_prefixed(const Bytes& plain) {
  Bytes out;
  put<uint64_t>(out, plain.size());
  Bytes f = zstd_frame(plain);
  out.insert(out.end(), f.begin(), f.end());
  return out;
}

/// Lance's lz4 framing: [u32 LE length][raw LZ4 block].
Bytes lz4_prefixed(const Bytes& plain) {
  Bytes out;
  put<uint32_t>(out, static_cast<uint32_t>(plain.size()));
  std::vector<char> block(LZ4_compressBound(static_cast<int>(plain.size())) + 1);
  const int n = LZ4_compress_default(reinterpret_cast<const char*>(plain.data()), block.data(),
                                     static_cast<int>(plain.size()), static_cast<int>(block.size()));
  REQUIRE(n > 0);
  out.insert(out.end(), block.begin(), block.begin() + n);
  return out;
}

Bytes sample(size_t n) {
  Bytes b(n);
  for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>((i * 7) % 13 + (i / 100));
  return b;
}

}  // namespace

TEST_CASE("zstd: length-prefixed, bare legacy frames, empty", "[encoding][general]") {
  for (size_t n : {size_t{0}, size_t{1}, size_t{5000}, size_t{300000}}) {
    const Bytes plain = sample(n);
    REQUIRE(zstd_decompress(ByteView(zstd_prefixed(plain))) == plain);
    REQUIRE(zstd_decompress(ByteView(zstd_frame(plain))) == plain);  // bare frame (6.12)
  }
  REQUIRE(zstd_decompress(ByteView()).empty());
}

TEST_CASE("zstd: corrupt frames and lying prefixes", "[encoding][general]") {
  const Bytes plain = sample(5000);
  Bytes buf = zstd_prefixed(plain);
  Bytes truncated(buf.begin(), buf.end() - 5);
  REQUIRE_CORRUPT(zstd_decompress(ByteView(truncated)));
  Bytes wrong_len = buf;
  wrong_len[0] ^= 1;  // declared 4999 or 5001
  REQUIRE_CORRUPT(zstd_decompress(ByteView(wrong_len)));
  Bytes huge = buf;
  huge[7] = 0x7f;  // declares ~2^62 bytes
  REQUIRE_CORRUPT(zstd_decompress(ByteView(huge)));
  Bytes garbage{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  REQUIRE_CORRUPT(zstd_decompress(ByteView(garbage)));
  Bytes bare_trunc = zstd_frame(plain);
  bare_trunc.resize(bare_trunc.size() / 2);
  REQUIRE_CORRUPT(zstd_decompress(ByteView(bare_trunc)));
}

TEST_CASE("lz4: round trip and corrupt blocks", "[encoding][general]") {
  for (size_t n : {size_t{0}, size_t{1}, size_t{37}, size_t{70000}}) {
    const Bytes plain = sample(n);
    REQUIRE(lz4_decompress(ByteView(lz4_prefixed(plain))) == plain);
  }
  const Bytes plain = sample(5000);
  Bytes buf = lz4_prefixed(plain);
  Bytes shorter = buf;
  shorter[0] ^= 1;
  REQUIRE_CORRUPT(lz4_decompress(ByteView(shorter)));
  Bytes truncated(buf.begin(), buf.end() - 3);
  REQUIRE_CORRUPT(lz4_decompress(ByteView(truncated)));
  Bytes huge = buf;
  huge[3] = 0x7f;  // ~2 GiB from a few hundred bytes
  REQUIRE_CORRUPT(lz4_decompress(ByteView(huge)));
  REQUIRE_CORRUPT(lz4_decompress(ByteView(Bytes{1, 0})));
}

TEST_CASE("General block: lz4 dictionary of a Variable block (map appendix E)", "[encoding][general]") {
  // 37-byte Variable block [32][24][0,5,9,13]["ERRORINFOWARN"], lz4-framed as u32 37 + block.
  Bytes variable_block;
  for (uint32_t v : {32u, 24u, 0u, 5u, 9u, 13u}) put<uint32_t>(variable_block, v);
  const Bytes words = bytes_of("ERRORINFOWARN");
  variable_block.insert(variable_block.end(), words.begin(), words.end());
  REQUIRE(variable_block.size() == 37);
  const Bytes buf = lz4_prefixed(variable_block);
  REQUIRE(ByteView(buf).read<uint32_t>(0) == 37);
  const auto enc = general(pb::COMPRESSION_ALGORITHM_LZ4, variable(32));
  const auto block = decode_block(enc, ByteView(buf), 3);
  REQUIRE(strings_of(block) == std::vector<std::string>{"ERROR", "INFO", "WARN"});
  REQUIRE(describe(enc) == "General(lz4) › Variable(offsets: Flat(32))");

  // Fixed-width items: General{LZ4}{Flat64}.
  Bytes items;
  for (uint64_t v = 0; v < 100; ++v) put<uint64_t>(items, v * 3);
  const auto flat_block =
      decode_block(general(pb::COMPRESSION_ALGORITHM_LZ4, flat(64)), ByteView(lz4_prefixed(items)), 100);
  REQUIRE(flat_block.data == items);
}

TEST_CASE("General mini-block: only buffer 0 is decompressed", "[encoding][general]") {
  // General{ZSTD}{Variable{Flat32}}: a zstd-compressed variable chunk.
  Bytes chunk;
  std::vector<std::string> strs;
  for (int i = 0; i < 200; ++i) strs.push_back("row" + std::to_string(i));
  uint32_t o = static_cast<uint32_t>((strs.size() + 1) * 4);
  put<uint32_t>(chunk, o);
  for (auto& s : strs) put<uint32_t>(chunk, o += static_cast<uint32_t>(s.size()));
  for (auto& s : strs) chunk.insert(chunk.end(), s.begin(), s.end());
  const Bytes compressed = zstd_prefixed(chunk);
  const ByteView view(compressed);
  const auto enc = general(pb::COMPRESSION_ALGORITHM_ZSTD, variable(32));
  REQUIRE(strings_of(decode_miniblock(enc, std::span<const ByteView>(&view, 1), 200)) == strs);
  REQUIRE(describe(enc) == "General(zstd) › Variable(offsets: Flat(32))");

  // General over Rle: buffer 0 (values) compressed, buffer 1 (lengths) untouched.
  Bytes values, lengths;
  put<uint32_t>(values, 5);
  put<uint32_t>(values, 6);
  lengths = {3, 2};
  const Bytes cvalues = lz4_prefixed(values);
  std::array<ByteView, 2> bufs{ByteView(cvalues), ByteView(lengths)};
  const auto out = decode_miniblock(general(pb::COMPRESSION_ALGORITHM_LZ4, rle(32)), bufs, 5);
  REQUIRE(as_values<uint32_t>(out.data) == std::vector<uint32_t>{5, 5, 5, 6, 6});
}

TEST_CASE("General per-value: every value is its own frame", "[encoding][general]") {
  std::vector<Bytes> plain{sample(40000), Bytes{}, sample(3)};
  for (auto scheme : {pb::COMPRESSION_ALGORITHM_ZSTD, pb::COMPRESSION_ALGORITHM_LZ4}) {
    std::vector<Bytes> frames;
    for (const auto& p : plain) {
      frames.push_back(p.empty()                                  ? Bytes{}
                       : scheme == pb::COMPRESSION_ALGORITHM_ZSTD ? zstd_prefixed(p)
                                                                  : lz4_prefixed(p));
    }
    const auto out = decode_variable_per_value(general(scheme, variable(64)), variable_block64(frames));
    REQUIRE(out.num_values == 3);
    for (size_t i = 0; i < plain.size(); ++i) {
      const uint64_t s = out.offset(i), e = out.offset(i + 1);
      REQUIRE(Bytes(out.data.begin() + s, out.data.begin() + e) == plain[i]);
    }
  }
}

TEST_CASE("General per-value appended: frames decompress onto the end of earlier values", "[encoding][general]") {
  using lance::encoding::general_variable_per_value_append;
  using lance::encoding::general_variable_per_value_bytes;
  const std::vector<Bytes> plain{sample(5000), Bytes{}, sample(7), sample(70000)};
  for (auto scheme : {pb::COMPRESSION_ALGORITHM_ZSTD, pb::COMPRESSION_ALGORITHM_LZ4}) {
    INFO("scheme " << scheme);
    const auto enc = general(scheme, variable(64));
    std::vector<Bytes> frames;
    for (const auto& p : plain)
      frames.push_back(p.empty()                                  ? Bytes{}
                       : scheme == pb::COMPRESSION_ALGORITHM_ZSTD ? zstd_prefixed(p)
                                                                  : lz4_prefixed(p));
    std::vector<ByteView> views(frames.begin(), frames.end());
    REQUIRE(general_variable_per_value_bytes(enc, views) == 5000u + 7 + 70000);
    // An empty block becomes one of 64-bit offsets; a second call appends after the first.
    lance::encoding::DataBlock out;
    general_variable_per_value_append(enc, std::span<const ByteView>(views).subspan(0, 2), out);
    general_variable_per_value_append(enc, std::span<const ByteView>(views).subspan(2), out);
    REQUIRE(out.bits_per_offset == 64);
    REQUIRE(out.num_values == 4);
    for (size_t i = 0; i < plain.size(); ++i)
      REQUIRE(Bytes(out.data.begin() + out.offset(i), out.data.begin() + out.offset(i + 1)) == plain[i]);
    // The same as the whole block at once.
    const auto whole = decode_variable_per_value(enc, variable_block64(frames));
    REQUIRE(whole.data == out.data);
    REQUIRE(whole.offsets == out.offsets);
    // Onto a fixed-width block: corrupt; a frame whose prefix lies: corrupt.
    lance::encoding::DataBlock fixed;
    fixed.bits_per_value = 32;
    fixed.num_values = 1;
    fixed.data = Bytes(4, 0);
    REQUIRE_CORRUPT(general_variable_per_value_append(enc, views, fixed));
    Bytes lying = frames[0];
    lying[0] ^= 0x01;
    const std::vector<ByteView> bad{ByteView(lying)};
    lance::encoding::DataBlock sink;
    REQUIRE_CORRUPT(general_variable_per_value_append(enc, bad, sink));
  }
  // A bare legacy zstd frame states no size up front: no hint, but it still decompresses.
  const Bytes bare = zstd_frame(sample(300));
  const std::vector<ByteView> bare_views{ByteView(bare)};
  const auto zstd = general(pb::COMPRESSION_ALGORITHM_ZSTD, variable(64));
  REQUIRE_FALSE(general_variable_per_value_bytes(zstd, bare_views).has_value());
  lance::encoding::DataBlock out;
  general_variable_per_value_append(zstd, bare_views, out);
  REQUIRE(Bytes(out.data.begin(), out.data.end()) == sample(300));
}

TEST_CASE("General: unknown scheme is unsupported, missing pieces are corrupt", "[encoding][general]") {
  const Bytes buf{1, 2, 3, 4};
  REQUIRE_UNSUPPORTED(decode_block(general(pb::COMPRESSION_ALGORITHM_UNSPECIFIED, flat(8)), ByteView(buf), 4));
  pb::CompressiveEncoding no_scheme;
  *no_scheme.mutable_general()->mutable_values() = flat(8);
  REQUIRE_CORRUPT(decode_block(no_scheme, ByteView(buf), 4));
  pb::CompressiveEncoding no_inner;
  no_inner.mutable_general()->mutable_compression()->set_scheme(pb::COMPRESSION_ALGORITHM_LZ4);
  REQUIRE_CORRUPT(decode_block(no_inner, ByteView(buf), 4));
}

TEST_CASE("General per-value frames of a large page split across the CPU pool, same bytes as inline",
          "[encoding][general]") {
  // 600 values of 6 KiB of noise each: ~3.5 MiB of frames, over the 2 × 1 MiB a split needs.
  std::vector<Bytes> plain, frames;
  uint32_t x = 12345;
  for (int i = 0; i < 600; ++i) {
    Bytes p(i % 7 == 0 ? 0 : 6144);
    for (auto& b : p) b = static_cast<uint8_t>((x = x * 1103515245u + 12345u) >> 24);
    frames.push_back(p.empty() ? Bytes{} : zstd_prefixed(p));
    plain.push_back(std::move(p));
  }
  const auto enc = general(pb::COMPRESSION_ALGORITHM_ZSTD, variable(64));
  const auto inline_out = decode_variable_per_value(enc, variable_block64(frames));
  lance::encoding::DataBlock fanned;
  {
    lance::FanOutScope allow(true);
    fanned = decode_variable_per_value(enc, variable_block64(frames));
  }
  REQUIRE(fanned.num_values == 600);
  REQUIRE(fanned.data == inline_out.data);
  REQUIRE(fanned.offsets == inline_out.offsets);
  for (size_t i = 0; i < plain.size(); i += 97)
    REQUIRE(Bytes(fanned.data.begin() + fanned.offset(i), fanned.data.begin() + fanned.offset(i + 1)) == plain[i]);
  // A damaged frame in a late run is still reported (by whichever thread decoded it).
  frames[590].back() ^= 0xff;
  frames[590][12] ^= 0x55;
  lance::FanOutScope allow(true);
  REQUIRE_CORRUPT(decode_variable_per_value(enc, variable_block64(frames)));
}
