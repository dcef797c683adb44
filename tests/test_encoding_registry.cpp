// The encoding registry (encoding/registry.h): one row per case of CompressiveEncoding, and
// the entry points of decompress.h dispatching through it.
#include <map>

#include "encoding/registry.h"
#include "test_encoding_helpers.h"

using namespace enc_test;
using lance::encoding::EncodingCase;
using lance::encoding::EncodingRow;
using lance::encoding::find_encoding;

namespace {

/// An encoding of case `k` with its message left empty.
pb::CompressiveEncoding of_case(EncodingCase k) {
  pb::CompressiveEncoding e;
  switch (k) {
    case EncodingCase::kFlat:
      e.mutable_flat();
      break;
    case EncodingCase::kVariable:
      e.mutable_variable();
      break;
    case EncodingCase::kConstant:
      e.mutable_constant();
      break;
    case EncodingCase::kOutOfLineBitpacking:
      e.mutable_out_of_line_bitpacking();
      break;
    case EncodingCase::kInlineBitpacking:
      e.mutable_inline_bitpacking();
      break;
    case EncodingCase::kFsst:
      e.mutable_fsst();
      break;
    case EncodingCase::kDictionary:
      e.mutable_dictionary();
      break;
    case EncodingCase::kRle:
      e.mutable_rle();
      break;
    case EncodingCase::kByteStreamSplit:
      e.mutable_byte_stream_split();
      break;
    case EncodingCase::kGeneral:
      e.mutable_general();
      break;
    case EncodingCase::kFixedSizeList:
      e.mutable_fixed_size_list();
      break;
    case EncodingCase::kPackedStruct:
      e.mutable_packed_struct();
      break;
    case EncodingCase::kVariablePackedStruct:
      e.mutable_variable_packed_struct();
      break;
    case EncodingCase::kRange:
      e.mutable_range();
      break;
    case EncodingCase::kDelta:
      e.mutable_delta();
      break;
    case pb::CompressiveEncoding::COMPRESSION_NOT_SET:
      break;
  }
  return e;
}

/// The message an entry point throws for an encoding it has no decoder for.
template <typename Fn>
std::string unsupported_message(Fn&& fn) {
  try {
    fn();
  } catch (const lance::Error& e) {
    if (e.kind() == lance::ErrorKind::unsupported) return e.what();
    return std::string("not unsupported: ") + e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("registry: one row per case of CompressiveEncoding, in oneof order", "[encoding][registry]") {
  const std::vector<std::string> names = {"Flat",
                                          "Variable",
                                          "Constant",
                                          "OutOfLineBitpacking",
                                          "InlineBitpacking",
                                          "Fsst",
                                          "Dictionary",
                                          "Rle",
                                          "ByteStreamSplit",
                                          "General",
                                          "FixedSizeList",
                                          "PackedStruct",
                                          "VariablePackedStruct",
                                          "Range",
                                          "Delta"};
  const auto rows = lance::encoding::encoding_rows();
  REQUIRE(rows.size() == names.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto k = static_cast<EncodingCase>(i + 1);
    INFO("case " << i + 1);
    CHECK(rows[i].kind == k);
    REQUIRE(find_encoding(k) == &rows[i]);
    CHECK(rows[i].name == names[i]);
    CHECK(lance::encoding::encoding_name(of_case(k)) == names[i]);
    REQUIRE(rows[i].describe != nullptr);
    // Every description starts with the encoding's name (an empty message included).
    CHECK(lance::encoding::describe(of_case(k)).rfind(names[i], 0) == 0);
  }
  CHECK(find_encoding(pb::CompressiveEncoding::COMPRESSION_NOT_SET) == nullptr);
  CHECK(find_encoding(static_cast<EncodingCase>(99)) == nullptr);
  CHECK(std::string(lance::encoding::encoding_name(pb::CompressiveEncoding())) == "(unset)");
  CHECK(lance::encoding::describe(pb::CompressiveEncoding()) == "(unset)");
}

TEST_CASE("registry: the contexts each encoding decodes in, and the others refuse it by name", "[encoding][registry]") {
  // m = mini-block chunk, b = block buffer, f = fixed-width full-zip, v = variable-width full-zip
  const std::map<std::string, std::string> contexts = {{"Flat", "mbf"},
                                                       {"Variable", "mbv"},
                                                       {"Constant", "bf"},
                                                       {"OutOfLineBitpacking", "b"},
                                                       {"InlineBitpacking", "mb"},
                                                       {"Fsst", "mv"},
                                                       {"Dictionary", ""},
                                                       {"Rle", "mb"},
                                                       {"ByteStreamSplit", "m"},
                                                       {"General", "mbv"},
                                                       {"FixedSizeList", "mbf"},
                                                       {"PackedStruct", "m"},
                                                       {"VariablePackedStruct", "v"},
                                                       {"Range", ""},
                                                       {"Delta", ""}};
  const Bytes buf(64, 0);
  const ByteView view(buf);
  lance::encoding::DataBlock fixed;
  fixed.num_values = 1;
  fixed.bits_per_value = 8;
  fixed.data = {1};
  for (const EncodingRow& row : lance::encoding::encoding_rows()) {
    INFO(row.name);
    const std::string want = contexts.at(row.name);
    std::string got;
    if (row.miniblock) got += 'm';
    if (row.block) got += 'b';
    if (row.fixed_per_value) got += 'f';
    if (row.variable_per_value) got += 'v';
    CHECK(got == want);
    const pb::CompressiveEncoding enc = of_case(row.kind);
    const std::string name = row.name;
    if (!row.miniblock)
      CHECK(unsupported_message([&] {
              lance::encoding::decode_miniblock(enc, std::span<const ByteView>(&view, 1), 1);
            }) == name + " encoding in a mini-block chunk is not supported");
    if (!row.block)
      CHECK(unsupported_message([&] { lance::encoding::decode_block(enc, view, 1); }) ==
            name + " encoding in a block buffer is not supported");
    if (!row.fixed_per_value)
      CHECK(unsupported_message([&] { lance::encoding::decode_fixed_per_value(enc, fixed); }) ==
            name + " encoding in a fixed-width full-zip value is not supported");
    if (!row.variable_per_value)
      CHECK(unsupported_message([&] {
              lance::encoding::decode_variable_per_value(enc, variable_block64({Bytes{1}}));
            }) == name + " encoding in a variable-width full-zip value is not supported");
  }
}

TEST_CASE("registry: value counts a buffer states itself", "[encoding][registry]") {
  // Flat words state their count by the buffer size (Rle asks its children so), also under General.
  const Bytes six(6, 0);
  CHECK(lance::encoding::count_by_size(flat(16), six) == 3u);
  CHECK(lance::encoding::count_by_size(flat(1), six) == std::nullopt);
  CHECK(lance::encoding::count_by_size(out_of_line(16, 3), six) == std::nullopt);
  REQUIRE_CORRUPT(lance::encoding::count_by_size(flat(32), six));
  // Only block-form Rle (possibly under General) records its own count.
  CHECK(lance::encoding::infer_block_num_values(flat(8), six) == std::nullopt);
  CHECK(lance::encoding::infer_block_num_values(rle(8), ByteView()) == 0u);
}
