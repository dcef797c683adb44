#include "encoding/packed_struct.h"

#include <cstring>

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

}  // namespace lance::encoding
