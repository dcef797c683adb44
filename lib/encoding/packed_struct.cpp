#include "encoding/packed_struct.h"

#include <cstring>

#include <fmt/ranges.h>

#include "encoding/sizes.h"

namespace lance::encoding {

DataBlock finish_packed_struct(DataBlock rows, std::span<const uint64_t> child_bits) {
  check_corrupt(!rows.is_variable(), "PackedStruct: values decoded to variable-width data");
  check_corrupt(!child_bits.empty(), "PackedStruct: no children");
  uint64_t sum = 0;
  for (uint64_t bits : child_bits) {
    check_corrupt(bits > 0, "PackedStruct: a child of 0 bits");
    // Lance 8.0 writes bool children as 1 bit but stores no bytes for them (and cannot
    // read such pages back itself).
    if (bits % 8 != 0) throw_unsupported("PackedStruct with a {}-bit child (not a whole number of bytes)", bits);
    check_corrupt(bits <= kMaxDecodedBufferBytes, "PackedStruct: child width {} is too large", bits);
    sum += bits;
  }
  check_corrupt(sum == rows.bits_per_value, "PackedStruct: children add up to {} bits but rows have {}", sum,
                rows.bits_per_value);
  rows.packed_child_bits.assign(child_bits.begin(), child_bits.end());
  return rows;
}

std::vector<DataBlock> split_variable_packed_rows(const DataBlock& rows, std::span<const PackedField> fields) {
  check_corrupt(rows.is_variable(), "VariablePackedStruct: rows are not variable-width values");
  const uint64_t n = rows.num_values;
  std::vector<DataBlock> out(fields.size());
  for (size_t f = 0; f < fields.size(); ++f) {
    const PackedField& field = fields[f];
    DataBlock& block = out[f];
    block.num_values = n;
    if (field.variable) {
      if (field.bits != 32 && field.bits != 64) {
        throw_unsupported("VariablePackedStruct field with {}-bit lengths is not supported", field.bits);
      }
      block.bits_per_offset = static_cast<uint32_t>(field.bits);
      block.offsets.reserve(checked_mul(n + 1, field.bits / 8, "VariablePackedStruct offsets"));
      if (field.bits == 32)
        append_le<uint32_t>(block.offsets, 0);
      else
        append_le<uint64_t>(block.offsets, 0);
    } else {
      check_corrupt(field.bits > 0 && field.bits % 8 == 0,
                    "VariablePackedStruct: fixed field width {} is not a positive whole number of bytes", field.bits);
      block.bits_per_value = field.bits;
      block.data.reserve(checked_value_bytes(n, field.bits, "VariablePackedStruct field"));
    }
  }
  ByteView data(rows.data);
  for (uint64_t row = 0; row < n; ++row) {
    const uint64_t start = rows.offset(row);
    const uint64_t end = rows.offset(row + 1);
    check_corrupt(start <= end && end <= data.size(), "VariablePackedStruct: row {} [{}, {}) outside {} bytes", row,
                  start, end, data.size());
    const bool placeholder = start == end;
    uint64_t cursor = start;
    for (size_t f = 0; f < fields.size(); ++f) {
      const PackedField& field = fields[f];
      DataBlock& block = out[f];
      if (!field.variable) {
        const uint64_t bytes = field.bits / 8;
        if (placeholder) {
          block.data.insert(block.data.end(), bytes, 0);
          continue;
        }
        check_corrupt(bytes <= end - cursor, "VariablePackedStruct: row {} field {} overruns the row", row, f);
        ByteView v = data.slice(cursor, bytes);
        block.data.insert(block.data.end(), v.data(), v.data() + v.size());
        cursor += bytes;
        continue;
      }
      uint64_t len = 0;
      if (!placeholder) {
        const uint64_t prefix = field.bits / 8;
        check_corrupt(prefix <= end - cursor, "VariablePackedStruct: row {} field {} length overruns the row", row, f);
        len = field.bits == 32 ? data.read<uint32_t>(cursor) : data.read<uint64_t>(cursor);
        cursor += prefix;
        check_corrupt(len <= end - cursor, "VariablePackedStruct: row {} field {} value of {} bytes overruns the row",
                      row, f, len);
        ByteView v = data.slice(cursor, len);
        block.data.insert(block.data.end(), v.data(), v.data() + v.size());
        cursor += len;
      }
      const uint64_t total = block.data.size();
      if (field.bits == 32) {
        check_corrupt(total <= UINT32_MAX, "VariablePackedStruct: field {} exceeds 32-bit offsets", f);
        append_le<uint32_t>(block.offsets, static_cast<uint32_t>(total));
      } else {
        append_le<uint64_t>(block.offsets, total);
      }
    }
    check_corrupt(placeholder || cursor == end, "VariablePackedStruct: row {} has {} unparsed bytes", row,
                  end - cursor);
  }
  return out;
}

// ------------------------------------------------------------------------------------
// Registry row
// ------------------------------------------------------------------------------------

namespace {

/// The layout of each field of `vps`, each checked to have a value encoding.
std::vector<PackedField> packed_fields(const pb::VariablePackedStruct& vps) {
  std::vector<PackedField> fields;
  for (const auto& f : vps.fields()) {
    switch (f.layout_case()) {
      case pb::VariablePackedStruct::FieldEncoding::kBitsPerValue:
        fields.push_back(PackedField{false, f.bits_per_value()});
        break;
      case pb::VariablePackedStruct::FieldEncoding::kBitsPerLength:
        fields.push_back(PackedField{true, f.bits_per_length()});
        break;
      default:
        throw_corrupt("VariablePackedStruct field {} has no layout", fields.size());
    }
    check_corrupt(f.has_value(), "VariablePackedStruct field {} has no value encoding", fields.size() - 1);
  }
  return fields;
}

}  // namespace

DataBlock packed_struct_miniblock(const pb::CompressiveEncoding& enc, std::span<const ByteView> buffers,
                                  uint64_t num_values) {
  const pb::PackedStruct& ps = enc.packed_struct();
  DataBlock rows =
      decode_miniblock(require(ps.has_values(), ps.values(), "PackedStruct values encoding"), buffers, num_values);
  return finish_packed_struct(std::move(rows),
                              std::span<const uint64_t>(ps.bits_per_value().data(), ps.bits_per_value().size()));
}

std::string describe_packed_struct(const pb::CompressiveEncoding& enc) {
  const pb::PackedStruct& p = enc.packed_struct();
  return fmt::format("PackedStruct(bits: {}) › {}", fmt::join(p.bits_per_value(), "+"),
                     describe_child(p.has_values(), p.values()));
}

DataBlock variable_packed_struct_variable_per_value(const pb::CompressiveEncoding& enc, DataBlock zipped) {
  const pb::VariablePackedStruct& vps = enc.variable_packed_struct();
  const std::vector<PackedField> fields = packed_fields(vps);
  std::vector<DataBlock> raw = split_variable_packed_rows(zipped, fields);
  DataBlock out;
  out.num_values = zipped.num_values;
  for (size_t i = 0; i < raw.size(); ++i) {
    const pb::CompressiveEncoding& child = vps.fields(static_cast<int>(i)).value();
    out.children.push_back(with_context([&] { return fmt::format("packed field {}", i); },
                                        [&] {
                                          return fields[i].variable
                                                     ? decode_variable_per_value(child, std::move(raw[i]))
                                                     : decode_fixed_per_value(child, std::move(raw[i]));
                                        }));
  }
  return out;
}

std::string describe_variable_packed_struct(const pb::CompressiveEncoding& enc) {
  std::string fields;
  for (const auto& f : enc.variable_packed_struct().fields()) {
    if (!fields.empty()) fields += ", ";
    const std::string layout = f.layout_case() == pb::VariablePackedStruct::FieldEncoding::kBitsPerValue
                                   ? fmt::format("{} bits", f.bits_per_value())
                               : f.layout_case() == pb::VariablePackedStruct::FieldEncoding::kBitsPerLength
                                   ? fmt::format("{}-bit length", f.bits_per_length())
                                   : std::string("no layout");
    fields += fmt::format("{} [{}]", describe_child(f.has_value(), f.value()), layout);
  }
  return fmt::format("VariablePackedStruct({})", fields);
}

}  // namespace lance::encoding
