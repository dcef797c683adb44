// Nullable (docs/format.md §4.3): `no_nulls` wraps the values; `some_nulls` adds a validity
// bitmap (its own Flat(1) buffer, 1 = valid) while the values keep a slot for every row;
// `all_nulls` has no buffers at all, so the rows are materialised from the type.
#include "encoding/sizes.h"
#include "encoding/v2_0/decoders.h"

namespace lance::encoding::v2_0 {

Decoded null_rows(const TypePtr& type, uint64_t num_rows) {
  check_alloc(num_rows, "all-null rows");
  Decoded out;
  DataBlock& b = out.values;
  b.num_values = num_rows;
  const DataType& t = *type;
  switch (t.id) {
    case TypeId::null:
      break;
    case TypeId::dictionary:
      return null_rows(t.value_type, num_rows);
    case TypeId::fixed_size_list: {
      Decoded items = null_rows(t.children.at(0)->type, checked_mul(num_rows, t.list_size, "all-null list items"));
      out = wrap_fixed_size_list(std::move(items), static_cast<uint64_t>(t.list_size), num_rows);
      break;
    }
    case TypeId::struct_:
      // Packed struct rows: one all-zero block per child.
      for (const auto& child : t.children) b.children.push_back(null_rows(child->type, num_rows).values);
      break;
    default:
      if (t.is_binary_like()) {
        b.bits_per_offset = 64;
        b.offsets.assign(checked_mul(num_rows + 1, 8, "all-null offsets"), 0);
      } else if (t.bit_width() > 0) {
        b.bits_per_value = static_cast<uint64_t>(t.bit_width());
        b.data.assign(checked_value_bytes(num_rows, b.bits_per_value, "all-null values"), 0);
      } else {
        throw_corrupt("an all-null page of type {} (not a value type)", t.to_string());
      }
  }
  out.valid.assign(num_rows, 0);
  return out;
}

Decoded decode_nullable(const pb::Nullable& nullable, const Buffers& buffers, const TypePtr& type, uint64_t num_rows) {
  switch (nullable.nullability_case()) {
    case pb::Nullable::kNoNulls:
      return decode_array(nullable.no_nulls().values(), buffers, type, num_rows);
    case pb::Nullable::kAllNulls:
      return null_rows(type, num_rows);
    case pb::Nullable::kSomeNulls: {
      Decoded bits = with_context("Nullable validity", [&] {
        return decode_array(nullable.some_nulls().validity(), buffers, bool_type(), num_rows);
      });
      check_corrupt(
          bits.values.bits_per_value == 1 && !bits.values.is_variable() && bits.values.data.size() * 8 >= num_rows,
          "Nullable: the validity is not a bitmap of {} rows", num_rows);
      Decoded out = decode_array(nullable.some_nulls().values(), buffers, type, num_rows);
      std::vector<uint8_t> valid(num_rows);
      bool any_null = false;
      for (uint64_t i = 0; i < num_rows; ++i) {
        valid[i] = get_bit(bits.values.data.data(), i) && (out.valid.empty() || out.valid[i]);
        any_null |= !valid[i];
      }
      if (any_null)
        out.valid = std::move(valid);
      else
        out.valid.clear();
      return out;
    }
    case pb::Nullable::NULLABILITY_NOT_SET:
      break;
  }
  throw_corrupt("Nullable encoding without a nullability case");
}

}  // namespace lance::encoding::v2_0
