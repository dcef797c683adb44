// Fuzz target: a format 2.0 page — its ArrayEncoding protobuf tree (Flat, Nullable, Binary,
// Dictionary, Fsst, FixedSizeList, PackedStruct, Bitpacked, BitpackedForNonNeg,
// FixedSizeBinary, Constant, List offsets) decoded over raw page buffers.
//
// Input: [u16 encoding length][ArrayEncoding bytes][u8 type][u32 rows]
//        [u8 buffer count][u32 buffer sizes…][buffer bytes…]
// (fuzz/extract_seeds writes real 2.0 pages in this form.)
#include "encoding/v2_0/array_decoder.h"
#include "fuzz_input.h"

using namespace lance;
using namespace lance::encoding;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::FuzzInput in(data, size);
  const uint16_t enc_len = in.take<uint16_t>();
  ByteView enc_bytes = in.bytes(enc_len);
  const uint8_t type_sel = in.take<uint8_t>();
  const uint64_t num_rows = in.take<uint32_t>() % (1u << 18);
  const uint8_t nbuf = in.take<uint8_t>() % 16;
  std::vector<uint32_t> sizes;
  for (uint8_t i = 0; i < nbuf; ++i) sizes.push_back(in.take<uint32_t>());
  std::vector<Bytes> owned;
  for (uint32_t s : sizes) {
    ByteView v = in.bytes(s);
    owned.emplace_back(v.data(), v.data() + v.size());
  }
  std::vector<ByteView> views(owned.begin(), owned.end());

  v2_0::pb::ArrayEncoding enc;
  if (!enc.ParseFromArray(enc_bytes.data(), static_cast<int>(enc_bytes.size()))) return 0;
  v2_0::describe_array_encoding(enc);
  std::vector<v2_0::pb::Buffer> refs;
  v2_0::referenced_buffers(enc, refs);

  v2_0::Buffers buffers{views, views, views};
  fuzz::expect_error_or_success([&] {
    if (enc.has_list()) {
      v2_0::decode_list_offsets(enc.list(), buffers, num_rows);
    } else {
      v2_0::decode_array(enc, buffers, fuzz::pick_type(type_sel), num_rows);
    }
  });
  return 0;
}
