// PackedStruct (docs/format.md §4.3): one buffer of row-major rows, each the concatenation of
// the children's fixed-width values in field order. The child widths come from the
// struct's type, as in Lance's reader (the `inner` encodings only describe them). Lance
// stores no validity here: neither the struct nor its children can be null.
#include <cstring>

#include "encoding/sizes.h"
#include "encoding/v2_0/decoders.h"

namespace lance::encoding::v2_0 {

namespace {

/// Bytes of one value of a packable child type, and the width of its innermost items.
struct ChildWidth {
  uint64_t bytes = 0;
  uint64_t item_bits = 0;
};

ChildWidth packed_width(const DataType& t) {
  if (t.id == TypeId::fixed_size_list) {
    ChildWidth inner = packed_width(*t.children.at(0)->type);
    return {checked_mul(inner.bytes, static_cast<uint64_t>(t.list_size), "packed field width"), inner.item_bits};
  }
  const int bits = t.bit_width();
  if (bits <= 0 || bits % 8 != 0) throw_unsupported("packed struct field of type {}", t.to_string());
  return {static_cast<uint64_t>(bits / 8), static_cast<uint64_t>(bits)};
}

}  // namespace

Decoded decode_packed_struct(const pb::PackedStruct& packed, const Buffers& buffers, const TypePtr& type,
                             uint64_t num_rows) {
  check_corrupt(type->id == TypeId::struct_, "PackedStruct encoding for a field of type {}", type->to_string());
  const auto& fields = type->children;
  check_corrupt(static_cast<size_t>(packed.inner_size()) >= fields.size(),
                "PackedStruct describes {} fields, the type has {}", packed.inner_size(), fields.size());
  std::vector<ChildWidth> widths;
  uint64_t row_bytes = 0;
  for (const auto& f : fields) {
    widths.push_back(packed_width(*f->type));
    row_bytes += widths.back().bytes;
  }
  check_corrupt(packed.has_buffer(), "PackedStruct: no buffer");
  ByteView rows = buffers.get(packed.buffer());
  const uint64_t need = checked_mul(num_rows, row_bytes, "PackedStruct rows");
  check_corrupt(rows.size() >= need, "PackedStruct: {} rows of {} bytes need {} bytes, buffer has {}", num_rows,
                row_bytes, need, rows.size());
  Decoded out;
  out.values.num_values = num_rows;
  out.values.bits_per_value = row_bytes * 8;
  uint64_t at = 0;
  for (const auto& w : widths) {
    DataBlock child;
    child.num_values = num_rows;
    child.bits_per_value = w.item_bits;
    child.data.resize(num_rows * w.bytes);
    for (uint64_t r = 0; r < num_rows; ++r)
      std::memcpy(child.data.data() + r * w.bytes, rows.data() + r * row_bytes + at, w.bytes);
    at += w.bytes;
    out.values.children.push_back(std::move(child));
    out.values.packed_child_bits.push_back(w.bytes * 8);
  }
  return out;
}

}  // namespace lance::encoding::v2_0
