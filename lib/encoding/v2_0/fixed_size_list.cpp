// FixedSizeList (docs/format.md §4.3): `items` encodes num_rows × dimension items. The list's
// own nulls come from a Nullable around it (`has_validity` is written false by Lance and
// ignored by its 2.0 reader); item nulls from a Nullable inside.
#include "encoding/sizes.h"
#include "encoding/v2_0/decoders.h"

namespace lance::encoding::v2_0 {

Decoded wrap_fixed_size_list(Decoded items, uint64_t dimension, uint64_t num_rows) {
  Decoded out;
  out.values = std::move(items.values);
  DataBlock& v = out.values;
  v.num_values = num_rows;
  Bytes bitmap;
  if (items.has_nulls()) {
    bitmap.assign((items.valid.size() + 7) / 8, 0);
    for (size_t i = 0; i < items.valid.size(); ++i)
      if (items.valid[i]) set_bit(bitmap.data(), i);
  }
  // fsl_validity lines up with fsl_dims from the outside; a layer without nulls keeps an
  // empty entry when an inner layer has a bitmap.
  if (!bitmap.empty() || !v.fsl_validity.empty()) v.fsl_validity.insert(v.fsl_validity.begin(), std::move(bitmap));
  v.fsl_dims.insert(v.fsl_dims.begin(), dimension);
  return out;
}

Decoded decode_fixed_size_list(const pb::FixedSizeList& fsl, const Buffers& buffers, const TypePtr& type,
                               uint64_t num_rows) {
  const uint64_t dim = fsl.dimension();
  check_corrupt(dim > 0, "FixedSizeList of dimension 0");
  const uint64_t num_items = checked_mul(num_rows, dim, "FixedSizeList items");
  const TypePtr& item_type = type->id == TypeId::fixed_size_list ? type->children.at(0)->type : type;
  if (type->id == TypeId::fixed_size_list)
    check_corrupt(static_cast<uint64_t>(type->list_size) == dim, "FixedSizeList of dimension {} for type {}", dim,
                  type->to_string());
  Decoded items =
      with_context("FixedSizeList items", [&] { return decode_array(fsl.items(), buffers, item_type, num_items); });
  check_corrupt(items.values.num_values == num_items, "FixedSizeList: {} items decoded, expected {}",
                items.values.num_values, num_items);
  return wrap_fixed_size_list(std::move(items), dim, num_rows);
}

}  // namespace lance::encoding::v2_0
