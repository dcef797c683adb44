// Fuzz target: a CompressiveEncoding protobuf tree (Flat, Variable, bitpacking, RLE, FSST,
// General zstd/lz4, ByteStreamSplit, FixedSizeList, PackedStruct, Constant…) decoded over
// raw buffers in each context Lance uses it: mini-block chunk, block, rep/def levels,
// full-zip per-value.
//
// Input: [u16 encoding length][CompressiveEncoding bytes][u8 context][u32 num values]
//        [u8 buffer count][u16 buffer sizes…][buffer bytes…]
#include "encoding/decompress.h"
#include "encoding/variable.h"
#include "fuzz_input.h"

using namespace lance;
using namespace lance::encoding;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::FuzzInput in(data, size);
  const uint16_t enc_len = in.take<uint16_t>();
  ByteView enc_bytes = in.bytes(enc_len);
  const uint8_t context = in.take<uint8_t>();
  const uint64_t num_values = in.take<uint32_t>() % (1u << 18);
  const uint8_t nbuf = in.take<uint8_t>() % 8;
  std::vector<uint16_t> sizes;
  for (uint8_t i = 0; i < nbuf; ++i) sizes.push_back(in.take<uint16_t>());
  std::vector<Bytes> owned;
  for (uint16_t s : sizes) {
    ByteView v = in.bytes(s);
    owned.emplace_back(v.data(), v.data() + v.size());
  }
  if (owned.empty()) {
    ByteView v = in.rest();
    owned.emplace_back(v.data(), v.data() + v.size());
  }
  std::vector<ByteView> views(owned.begin(), owned.end());

  pb::CompressiveEncoding enc;
  if (!enc.ParseFromArray(enc_bytes.data(), static_cast<int>(enc_bytes.size()))) return 0;
  describe(enc);

  fuzz::expect_error_or_success([&] {
    switch (context % 5) {
      case 0:
        decode_miniblock(enc, views, num_values);
        break;
      case 1:
        decode_block(enc, views[0], num_values);
        break;
      case 2: {
        auto n = infer_block_num_values(enc, views[0]);
        decode_levels(enc, views[0], n && *n <= (1u << 20) ? *n : num_values);
        break;
      }
      case 3: {  // full-zip fixed: num_values zipped values of bits_per_value = 8·(buffer/num_values)
        DataBlock z;
        z.num_values = num_values;
        z.bits_per_value = num_values ? 8 * (owned[0].size() / num_values) : 8;
        z.data = owned[0];
        z.data.resize(num_values * (z.bits_per_value / 8));
        decode_fixed_per_value(enc, std::move(z));
        break;
      }
      case 4: {  // full-zip variable: buffer 0 = u64 offsets, buffer 1 = bytes
        if (views.size() < 2) return;
        uint64_t n = views[0].size() / 8;
        if (n == 0) return;
        DataBlock z = make_variable_block(views[0], 64, n - 1, views[1], 0);
        decode_variable_per_value(enc, std::move(z));
        break;
      }
    }
  });
  return 0;
}
