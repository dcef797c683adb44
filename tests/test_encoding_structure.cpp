// FixedSizeList, PackedStruct, VariablePackedStruct (docs/format.md §6.9, 6.10, 5.4).
#include "test_encoding_helpers.h"

using namespace enc_test;
using lance::encoding::DataBlock;
using lance::encoding::decode_block;
using lance::encoding::decode_fixed_per_value;
using lance::encoding::decode_miniblock;
using lance::encoding::decode_variable_per_value;
using lance::encoding::describe;

TEST_CASE("FixedSizeList mini-block without validity: FSL<f32, 4>", "[encoding][fsl]") {
  Bytes data;
  for (int i = 0; i < 12; ++i) put<float>(data, static_cast<float>(i));
  const ByteView view(data);
  const auto enc = fsl(4, false, flat(32));
  const auto b = decode_miniblock(enc, std::span<const ByteView>(&view, 1), 3);
  REQUIRE(b.num_values == 3);
  REQUIRE(b.bits_per_value == 32);
  REQUIRE(std::vector<uint64_t>(b.fsl_dims.begin(), b.fsl_dims.end()) == std::vector<uint64_t>{4});
  REQUIRE(b.fsl_validity.size() == 1);
  REQUIRE(b.fsl_validity[0].empty());
  REQUIRE(b.data == data);
  REQUIRE(describe(enc) == "FixedSizeList(4) › Flat(32)");
}

TEST_CASE("FixedSizeList mini-block with item validity: validity buffers first", "[encoding][fsl]") {
  // FSL<FSL<i16, 2> nullable, 3> nullable-items: outer layer validity over rows·3 bits,
  // inner layer over rows·6 bits.
  const auto enc = fsl(3, true, fsl(2, true, flat(16)));
  const uint64_t rows = 3;
  Bytes outer_validity{0b11011011, 0b1};   // 9 bits
  Bytes inner_validity{0xff, 0xf0, 0x03};  // 18 bits
  Bytes data;
  for (int i = 0; i < 18; ++i) put<uint16_t>(data, static_cast<uint16_t>(i * 10));
  std::array<ByteView, 3> bufs{ByteView(outer_validity), ByteView(inner_validity), ByteView(data)};
  const auto b = decode_miniblock(enc, bufs, rows);
  REQUIRE(std::vector<uint64_t>(b.fsl_dims.begin(), b.fsl_dims.end()) == std::vector<uint64_t>{3, 2});
  REQUIRE(b.fsl_validity[0] == outer_validity);
  REQUIRE(b.fsl_validity[1] == inner_validity);
  REQUIRE(b.data == data);
  std::array<ByteView, 2> too_few{ByteView(outer_validity), ByteView(data)};
  REQUIRE_CORRUPT(decode_miniblock(enc, too_few, rows));
  std::array<ByteView, 3> short_validity{ByteView(outer_validity).slice(0, 1), ByteView(inner_validity),
                                         ByteView(data)};
  REQUIRE_CORRUPT(decode_miniblock(enc, short_validity, rows));
  REQUIRE(describe(enc) == "FixedSizeList(3, item validity) › FixedSizeList(2, item validity) › Flat(16)");
}

TEST_CASE("FixedSizeList per-value: validity bytes zipped before each value", "[encoding][fsl]") {
  // FSL<f32, 10> with item validity: each value = 2 validity bytes + 40 data bytes.
  const auto enc = fsl(10, true, flat(32));
  DataBlock zipped;
  zipped.num_values = 3;
  zipped.bits_per_value = (2 + 40) * 8;
  Bytes expected_data;
  for (uint32_t row = 0; row < 3; ++row) {
    const uint16_t validity = static_cast<uint16_t>(0x3ff ^ (1u << row));  // row r: item r null
    put<uint16_t>(zipped.data, validity);
    for (uint32_t i = 0; i < 10; ++i) {
      put<float>(zipped.data, static_cast<float>(row * 10 + i));
      put<float>(expected_data, static_cast<float>(row * 10 + i));
    }
  }
  const auto b = decode_fixed_per_value(enc, zipped);
  REQUIRE(b.num_values == 3);
  REQUIRE(b.data == expected_data);
  REQUIRE(b.fsl_validity[0].size() == 4);  // 30 bits
  for (uint64_t row = 0; row < 3; ++row)
    for (uint64_t i = 0; i < 10; ++i) REQUIRE(lance::get_bit(b.fsl_validity[0].data(), row * 10 + i) == (i != row));
  // The layout's width must match the encoding's.
  zipped.bits_per_value = 40 * 8;
  REQUIRE_CORRUPT(decode_fixed_per_value(enc, zipped));
  // Without validity it is a plain copy: FSL<f32,128> values of 512 bytes.
  DataBlock plain;
  plain.num_values = 2;
  plain.bits_per_value = 128 * 32;
  plain.data.assign(1024, 7);
  const auto p = decode_fixed_per_value(fsl(128, false, flat(32)), plain);
  REQUIRE(p.data == plain.data);
  REQUIRE(std::vector<uint64_t>(p.fsl_dims.begin(), p.fsl_dims.end()) == std::vector<uint64_t>{128});
  // Block context without validity.
  REQUIRE(decode_block(fsl(128, false, flat(32)), ByteView(plain.data), 2).data == plain.data);
  REQUIRE_UNSUPPORTED(decode_block(enc, ByteView(zipped.data), 3));
  REQUIRE_CORRUPT(decode_block(fsl(0, false, flat(32)), ByteView(plain.data), 2));
}

TEST_CASE("PackedStruct: rows of Σ child bits", "[encoding][packed]") {
  pb::CompressiveEncoding enc;
  enc.mutable_packed_struct()->add_bits_per_value(32);
  enc.mutable_packed_struct()->add_bits_per_value(32);
  *enc.mutable_packed_struct()->mutable_values() = flat(64);
  Bytes rows;
  for (int i = 0; i < 4; ++i) {
    put<int32_t>(rows, i);
    put<float>(rows, i * 0.5f);
  }
  const ByteView view(rows);
  const auto b = decode_miniblock(enc, std::span<const ByteView>(&view, 1), 4);
  REQUIRE(b.bits_per_value == 64);
  REQUIRE(b.packed_child_bits == std::vector<uint64_t>{32, 32});
  REQUIRE(b.data == rows);
  REQUIRE(describe(enc) == "PackedStruct(bits: 32+32) › Flat(64)");
  enc.mutable_packed_struct()->set_bits_per_value(1, 16);
  REQUIRE_CORRUPT(decode_miniblock(enc, std::span<const ByteView>(&view, 1), 4));
}

TEST_CASE("VariablePackedStruct per-value: fixed and variable fields", "[encoding][packed]") {
  // {kind u8, position u64, uri utf8 (u32 length)} — the blob v2 descriptor shape.
  pb::CompressiveEncoding enc;
  auto* vps = enc.mutable_variable_packed_struct();
  auto* f0 = vps->add_fields();
  *f0->mutable_value() = flat(8);
  f0->set_bits_per_value(8);
  auto* f1 = vps->add_fields();
  *f1->mutable_value() = flat(64);
  f1->set_bits_per_value(64);
  auto* f2 = vps->add_fields();
  *f2->mutable_value() = variable(32);
  f2->set_bits_per_length(32);

  auto row = [](uint8_t kind, uint64_t pos, const std::string& uri) {
    Bytes r{kind};
    put<uint64_t>(r, pos);
    put<uint32_t>(r, static_cast<uint32_t>(uri.size()));
    r.insert(r.end(), uri.begin(), uri.end());
    return r;
  };
  const auto b = decode_variable_per_value(enc, variable_block64({row(0, 100, ""), row(3, 0, "s3://x/y"), Bytes{}}));
  REQUIRE(b.num_values == 3);
  REQUIRE(b.children.size() == 3);
  REQUIRE(b.children[0].data == Bytes{0, 3, 0});
  REQUIRE(as_values<uint64_t>(b.children[1].data) == std::vector<uint64_t>{100, 0, 0});
  REQUIRE(b.children[2].bits_per_offset == 32);
  REQUIRE(strings_of(b.children[2]) == std::vector<std::string>{"", "s3://x/y", ""});
  REQUIRE(describe(enc) ==
          "VariablePackedStruct(Flat(8) [8 bits], Flat(64) [64 bits], Variable(offsets: Flat(32)) [32-bit length])");
  // A row with trailing bytes, or a length overrunning the row, is corrupt.
  Bytes extra = row(1, 2, "ab");
  extra.push_back(0);
  REQUIRE_CORRUPT(decode_variable_per_value(enc, variable_block64({extra})));
  Bytes overrun = row(1, 2, "ab");
  overrun.pop_back();
  REQUIRE_CORRUPT(decode_variable_per_value(enc, variable_block64({overrun})));
}
