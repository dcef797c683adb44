#include "structural/packed_struct.h"

#include <cstring>

#include "encoding/sizes.h"
#include "structural/assemble.h"

namespace lance::structural {

using encoding::DataBlock;

std::vector<DataBlock> split_packed_rows(const DataBlock& rows) {
  check_corrupt(!rows.is_variable() && rows.children.empty(), "packed struct rows are not fixed-width");
  check_corrupt(!rows.packed_child_bits.empty(), "packed struct rows without child widths");
  uint64_t row_bits = 0;
  for (uint64_t bits : rows.packed_child_bits) {
    if (bits % 8 != 0) throw_unsupported("packed struct with a {}-bit child (not a whole number of bytes)", bits);
    check_corrupt(bits > 0 && bits <= kMaxDecodedBufferBytes, "packed struct child of {} bits", bits);
    row_bits += bits;
  }
  check_corrupt(row_bits == rows.bits_per_value, "packed struct children add up to {} bits but rows have {}", row_bits,
                rows.bits_per_value);
  const uint64_t row_bytes = row_bits / 8;
  const uint64_t n = rows.num_values;
  check_corrupt(rows.data.size() >= encoding::checked_mul(n, row_bytes, "packed struct rows"),
                "{} packed struct rows of {} bytes need more than {} bytes", n, row_bytes, rows.data.size());
  std::vector<DataBlock> out;
  uint64_t offset = 0;
  for (uint64_t bits : rows.packed_child_bits) {
    const uint64_t width = bits / 8;
    DataBlock child;
    child.num_values = n;
    child.bits_per_value = bits;
    child.data.resize(n * width);
    for (uint64_t i = 0; i < n; ++i)
      std::memcpy(child.data.data() + i * width, rows.data.data() + i * row_bytes + offset, width);
    offset += width;
    out.push_back(std::move(child));
  }
  return out;
}

ArrayPtr packed_struct_to_array(const TypePtr& type, DataBlock&& values, const std::vector<uint8_t>& valid) {
  check_corrupt(type->id == TypeId::struct_, "packed values for a {} column", type->to_string());
  const auto& fields = type->children;
  std::vector<DataBlock> children = values.children.empty() ? split_packed_rows(values) : std::move(values.children);
  check_corrupt(children.size() == fields.size(), "packed struct has {} stored fields, the schema {}", children.size(),
                fields.size());
  check_corrupt(valid.empty() || valid.size() == values.num_values, "{} validity flags for {} packed rows",
                valid.size(), values.num_values);
  auto a = std::make_shared<ArrayData>();
  a->type = type;
  a->length = static_cast<int64_t>(values.num_values);
  if (!valid.empty()) a->validity = make_validity(valid, &a->null_count);
  for (size_t i = 0; i < fields.size(); ++i) {
    check_corrupt(children[i].num_values == values.num_values, "packed field '{}' has {} values for {} rows",
                  fields[i]->name, children[i].num_values, values.num_values);
    a->children.push_back(with_context([&] { return fmt::format("packed field '{}'", fields[i]->name); },
                                       [&] { return values_to_array(fields[i]->type, std::move(children[i]), {}); }));
  }
  return a;
}

}  // namespace lance::structural
