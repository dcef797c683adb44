// The ArrayEncoding dispatcher, buffer lookup and tree descriptions (docs/format.md §4.1, 4.2).
#include "encoding/v2_0/array_decoder.h"

#include <cstring>

#include <fmt/format.h>

#include "encoding/v2_0/decoders.h"

namespace lance::encoding::v2_0 {

namespace {

const char* buffer_type_name(pb::Buffer::BufferType t) {
  switch (t) {
    case pb::Buffer::page:
      return "page";
    case pb::Buffer::column:
      return "column";
    case pb::Buffer::file:
      return "file";
    default:
      return "unknown";
  }
}

}  // namespace

const TypePtr& uint8_type() {
  static const TypePtr t = make_type(TypeId::uint8);
  return t;
}
const TypePtr& uint64_type() {
  static const TypePtr t = make_type(TypeId::uint64);
  return t;
}
const TypePtr& bool_type() {
  static const TypePtr t = make_type(TypeId::boolean);
  return t;
}

ByteView Buffers::get(const pb::Buffer& ref) const {
  std::span<const ByteView> set;
  switch (ref.buffer_type()) {
    case pb::Buffer::page:
      set = page;
      break;
    case pb::Buffer::column:
      set = column;
      break;
    case pb::Buffer::file:
      set = file;
      break;
    default:
      throw_corrupt("buffer of unknown type {}", static_cast<int>(ref.buffer_type()));
  }
  check_corrupt(ref.buffer_index() < set.size(), "{} buffer {} named by the encoding, but there are {}",
                buffer_type_name(ref.buffer_type()), ref.buffer_index(), set.size());
  return set[ref.buffer_index()];
}

Decoded decode_array(const pb::ArrayEncoding& enc, const Buffers& buffers, const TypePtr& type, uint64_t num_rows) {
  using E = pb::ArrayEncoding;
  switch (enc.array_encoding_case()) {
    case E::kFlat:
      return decode_flat(enc.flat(), buffers, num_rows);
    case E::kNullable:
      return decode_nullable(enc.nullable(), buffers, type, num_rows);
    case E::kFixedSizeList:
      return decode_fixed_size_list(enc.fixed_size_list(), buffers, type, num_rows);
    case E::kBinary:
      return decode_binary(enc.binary(), buffers, num_rows);
    case E::kDictionary:
      return decode_dictionary(enc.dictionary(), buffers, type, num_rows);
    case E::kFsst:
      return decode_fsst(enc.fsst(), buffers, type, num_rows);
    case E::kPackedStruct:
      return decode_packed_struct(enc.packed_struct(), buffers, type, num_rows);
    case E::kBitpacked:
      return decode_bitpacked(enc.bitpacked(), buffers, num_rows);
    case E::kBitpackedForNonNeg:
      return decode_bitpacked_for_non_neg(enc.bitpacked_for_non_neg(), buffers, num_rows);
    case E::kFixedSizeBinary:
      return decode_fixed_size_binary(enc.fixed_size_binary(), buffers, num_rows);
    case E::kConstant:
      return decode_constant(enc.constant(), num_rows);
    case E::kList:
      throw_corrupt("List encoding (a list offsets column) where values of type {} were expected", type->to_string());
    case E::kStruct:
      throw_corrupt("struct header encoding where values of type {} were expected", type->to_string());
    case E::ARRAY_ENCODING_NOT_SET:
      break;
  }
  // Fields 14–21 of the message (2.1 development leftovers) are unknown to our .proto and
  // arrive here as an unset oneof, as does a genuinely empty message.
  throw_unsupported("2.0 array encoding not set or not known to this reader (oneof field {})",
                    static_cast<int>(enc.array_encoding_case()));
}

std::vector<uint64_t> decode_unsigned(const pb::ArrayEncoding& enc, const Buffers& buffers, uint64_t num_rows,
                                      const char* what, std::vector<uint8_t>* valid) {
  Decoded d = decode_array(enc, buffers, uint64_type(), num_rows);
  const DataBlock& b = d.values;
  check_corrupt(!b.is_variable() && b.fsl_dims.empty() && b.children.empty(), "{} are not integers", what);
  check_corrupt(b.num_values == num_rows, "{}: decoded {} values, expected {}", what, b.num_values, num_rows);
  std::vector<uint64_t> out(num_rows);
  ByteView data(b.data);
  switch (b.bits_per_value) {
    case 8:
      for (uint64_t i = 0; i < num_rows; ++i) out[i] = data.read<uint8_t>(i);
      break;
    case 16:
      for (uint64_t i = 0; i < num_rows; ++i) out[i] = data.read<uint16_t>(i * 2);
      break;
    case 32:
      for (uint64_t i = 0; i < num_rows; ++i) out[i] = data.read<uint32_t>(i * 4);
      break;
    case 64:
      check_corrupt(data.size() >= num_rows * 8, "{}: {} bytes for {} values", what, data.size(), num_rows);
      if (num_rows) std::memcpy(out.data(), data.data(), num_rows * 8);
      break;
    default:
      throw_corrupt("{} of {} bits", what, b.bits_per_value);
  }
  if (valid) *valid = std::move(d.valid);
  return out;
}

void referenced_buffers(const pb::ArrayEncoding& enc, std::vector<pb::Buffer>& out) {
  using E = pb::ArrayEncoding;
  switch (enc.array_encoding_case()) {
    case E::kFlat:
      out.push_back(enc.flat().buffer());
      break;
    case E::kNullable: {
      const auto& n = enc.nullable();
      if (n.has_no_nulls()) referenced_buffers(n.no_nulls().values(), out);
      if (n.has_some_nulls()) {
        referenced_buffers(n.some_nulls().validity(), out);
        referenced_buffers(n.some_nulls().values(), out);
      }
      break;
    }
    case E::kFixedSizeList:
      referenced_buffers(enc.fixed_size_list().items(), out);
      break;
    case E::kList:
      referenced_buffers(enc.list().offsets(), out);
      break;
    case E::kBinary:
      referenced_buffers(enc.binary().indices(), out);
      referenced_buffers(enc.binary().bytes(), out);
      break;
    case E::kDictionary:
      referenced_buffers(enc.dictionary().indices(), out);
      referenced_buffers(enc.dictionary().items(), out);
      break;
    case E::kFsst:
      referenced_buffers(enc.fsst().binary(), out);
      break;
    // The children of a packed struct describe slices of its one buffer, not buffers.
    case E::kPackedStruct:
      out.push_back(enc.packed_struct().buffer());
      break;
    case E::kBitpacked:
      out.push_back(enc.bitpacked().buffer());
      break;
    case E::kBitpackedForNonNeg:
      out.push_back(enc.bitpacked_for_non_neg().buffer());
      break;
    case E::kFixedSizeBinary:
      referenced_buffers(enc.fixed_size_binary().bytes(), out);
      break;
    case E::kStruct:
    case E::kConstant:
    case E::ARRAY_ENCODING_NOT_SET:
      break;
  }
}

const char* array_encoding_name(const pb::ArrayEncoding& enc) {
  using E = pb::ArrayEncoding;
  switch (enc.array_encoding_case()) {
    case E::kFlat:
      return "Flat";
    case E::kNullable:
      return "Nullable";
    case E::kFixedSizeList:
      return "FixedSizeList";
    case E::kList:
      return "List";
    case E::kStruct:
      return "SimpleStruct";
    case E::kBinary:
      return "Binary";
    case E::kDictionary:
      return "Dictionary";
    case E::kFsst:
      return "Fsst";
    case E::kPackedStruct:
      return "PackedStruct";
    case E::kBitpacked:
      return "Bitpacked";
    case E::kFixedSizeBinary:
      return "FixedSizeBinary";
    case E::kBitpackedForNonNeg:
      return "BitpackedForNonNeg";
    case E::kConstant:
      return "Constant";
    case E::ARRAY_ENCODING_NOT_SET:
      break;
  }
  return "(unset)";
}

std::string describe_array_encoding(const pb::ArrayEncoding& enc) {
  using E = pb::ArrayEncoding;
  const char* name = array_encoding_name(enc);
  switch (enc.array_encoding_case()) {
    case E::kFlat: {
      const auto& f = enc.flat();
      if (f.has_compression() && !f.compression().scheme().empty())
        return fmt::format("Flat({}, {})", f.bits_per_value(), f.compression().scheme());
      return fmt::format("Flat({})", f.bits_per_value());
    }
    case E::kNullable: {
      const auto& n = enc.nullable();
      if (n.has_no_nulls())
        return fmt::format("Nullable(no_nulls, {})", describe_array_encoding(n.no_nulls().values()));
      if (n.has_some_nulls())
        return fmt::format("Nullable(some_nulls, {})", describe_array_encoding(n.some_nulls().values()));
      return "Nullable(all_nulls)";
    }
    case E::kFixedSizeList:
      return fmt::format("FixedSizeList({}, {})", enc.fixed_size_list().dimension(),
                         describe_array_encoding(enc.fixed_size_list().items()));
    case E::kList:
      return fmt::format("List({})", describe_array_encoding(enc.list().offsets()));
    case E::kBinary:
      return fmt::format("Binary(indices: {}, bytes: {})", describe_array_encoding(enc.binary().indices()),
                         describe_array_encoding(enc.binary().bytes()));
    case E::kDictionary:
      return fmt::format("Dictionary({} items, indices: {}, items: {})", enc.dictionary().num_dictionary_items(),
                         describe_array_encoding(enc.dictionary().indices()),
                         describe_array_encoding(enc.dictionary().items()));
    case E::kFsst:
      return fmt::format("Fsst({})", describe_array_encoding(enc.fsst().binary()));
    case E::kPackedStruct:
      return fmt::format("PackedStruct({} fields)", enc.packed_struct().inner_size());
    case E::kBitpacked:
      return fmt::format("Bitpacked({} of {})", enc.bitpacked().compressed_bits_per_value(),
                         enc.bitpacked().uncompressed_bits_per_value());
    case E::kBitpackedForNonNeg:
      return fmt::format("BitpackedForNonNeg({} of {})", enc.bitpacked_for_non_neg().compressed_bits_per_value(),
                         enc.bitpacked_for_non_neg().uncompressed_bits_per_value());
    case E::kFixedSizeBinary:
      return fmt::format("FixedSizeBinary({}, {})", enc.fixed_size_binary().byte_width(),
                         describe_array_encoding(enc.fixed_size_binary().bytes()));
    default:
      return name;
  }
}

}  // namespace lance::encoding::v2_0
