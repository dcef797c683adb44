// Hostile-input smoke test: every decoder over random and mutated buffers must either
// succeed or throw a lance::Error — never crash, hang or over-allocate (run under ASan).
#include "test_encoding_helpers.h"

#include <zstd.h>

using namespace enc_test;
using lance::encoding::DataBlock;

namespace {

std::vector<pb::CompressiveEncoding> encodings() {
  std::vector<pb::CompressiveEncoding> out;
  for (uint64_t t : {8, 16, 32, 64}) {
    out.push_back(flat(t));
    out.push_back(inline_bitpacking(t));
    out.push_back(out_of_line(t, t / 4));
    out.push_back(rle(t));
  }
  out.push_back(flat(1));
  out.push_back(variable(32));
  out.push_back(variable(64));
  out.push_back(general(pb::COMPRESSION_ALGORITHM_ZSTD, variable(32)));
  out.push_back(general(pb::COMPRESSION_ALGORITHM_LZ4, flat(32)));
  out.push_back(general(pb::COMPRESSION_ALGORITHM_LZ4, rle(16)));
  Bytes table;
  put<uint64_t>(table, (uint64_t{0x46535354} << 32) | (1u << 24) | 3);
  for (uint64_t s : {0x6261ull, 0x63ull, 0x6665646362ull}) put<uint64_t>(table, s);
  table.insert(table.end(), {2, 1, 5});
  out.push_back(fsst(table, variable(32)));
  out.push_back(fsl(3, true, flat(16)));
  out.push_back(fsl(2, false, fsl(2, true, flat(8))));
  pb::CompressiveEncoding bss;
  *bss.mutable_byte_stream_split()->mutable_values() = flat(32);
  out.push_back(bss);
  pb::CompressiveEncoding packed;
  packed.mutable_packed_struct()->add_bits_per_value(8);
  packed.mutable_packed_struct()->add_bits_per_value(24);
  *packed.mutable_packed_struct()->mutable_values() = flat(32);
  out.push_back(packed);
  return out;
}

template <typename Fn>
void expect_no_crash(Fn&& fn) {
  try {
    fn();
  } catch (const lance::Error&) {
  }
}

}  // namespace

TEST_CASE("Decoders survive random and mutated buffers", "[encoding][fuzz]") {
  std::mt19937_64 rng(12345);
  const auto encs = encodings();
  // Seeds: random bytes, plus structured buffers (a real zstd frame, a plausible RLE block).
  std::vector<Bytes> seeds;
  {
    Bytes plain(300, 'x');
    Bytes z(ZSTD_compressBound(plain.size()));
    z.resize(ZSTD_compress(z.data(), z.size(), plain.data(), plain.size(), 1));
    Bytes framed;
    put<uint64_t>(framed, plain.size());
    framed.insert(framed.end(), z.begin(), z.end());
    seeds.push_back(framed);
    Bytes r;
    put<uint64_t>(r, 8);
    put<uint32_t>(r, 1);
    put<uint32_t>(r, 2);
    r.insert(r.end(), {3, 4});
    seeds.push_back(r);
    Bytes v;
    for (uint32_t x : {12u, 13u, 15u}) put<uint32_t>(v, x);
    v.insert(v.end(), {'a', 'b', 'c', 0x48});
    seeds.push_back(v);
  }
  for (int iter = 0; iter < 5000; ++iter) {
    Bytes buf;
    if (iter % 3 == 0) {
      buf.resize(rng() % 300);
      for (auto& b : buf) b = static_cast<uint8_t>(rng());
    } else {
      buf = seeds[rng() % seeds.size()];
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int f = 0; f < flips && !buf.empty(); ++f) buf[rng() % buf.size()] = static_cast<uint8_t>(rng());
      if (rng() % 4 == 0) buf.resize(rng() % (buf.size() + 1));
    }
    const uint64_t n = rng() % 5 == 0 ? rng() : rng() % 2100;
    const auto& enc = encs[rng() % encs.size()];
    const ByteView view(buf);
    const ByteView half = view.slice(0, view.size() / 2);
    std::array<ByteView, 3> bufs{half, view.slice(view.size() / 2), view};
    expect_no_crash([&] { lance::encoding::decode_block(enc, view, n); });
    expect_no_crash([&] { lance::encoding::decode_levels(enc, view, n % 5000); });
    for (size_t k = 1; k <= 3; ++k) {
      expect_no_crash([&] { lance::encoding::decode_miniblock(enc, std::span<const ByteView>(bufs.data(), k), n); });
    }
    expect_no_crash([&] { lance::encoding::infer_block_num_values(enc, view); });
    DataBlock var;
    var.num_values = buf.size() / 16;
    var.bits_per_offset = 64;
    var.offsets = Bytes(buf.begin(), buf.begin() + std::min<size_t>(buf.size(), (var.num_values + 1) * 8));
    var.data = buf;
    expect_no_crash([&] { lance::encoding::decode_variable_per_value(enc, var); });
    DataBlock fixed;
    fixed.num_values = n % 64;
    fixed.bits_per_value = (rng() % 9) * 8;
    fixed.data = buf;
    expect_no_crash([&] { lance::encoding::decode_fixed_per_value(enc, fixed); });
    expect_no_crash([&] { (void)lance::encoding::describe(enc); });
  }
  SUCCEED();
}
