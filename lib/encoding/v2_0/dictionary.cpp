// Dictionary (docs/format.md §4.3). The message means two different things, and only the
// field's type tells which:
// - plain string field (the writer chose a dictionary for a low-cardinality page):
//   `indices` are u8, 0 = null, otherwise item index + 1; `items` are the distinct values;
// - Arrow dictionary field (`dict:` logical type): `indices` are 0-based keys of the key
//   type's width; a null row is a null key or a key pointing at a null item.
// Either way the rows come back as values (looked up), as lance-cli outputs dictionary
// columns decoded.
#include <cstring>

#include "encoding/sizes.h"
#include "encoding/v2_0/decoders.h"

namespace lance::encoding::v2_0 {

namespace {

/// Row i = dict[index[i]], or an empty / zero value where `valid[i]` is 0.
DataBlock gather(const DataBlock& dict, const std::vector<uint64_t>& index, const std::vector<uint8_t>& valid) {
  check_corrupt(dict.fsl_dims.empty() && dict.children.empty(), "Dictionary items of nested values are not supported");
  const uint64_t n = index.size();
  DataBlock out;
  out.num_values = n;
  if (dict.is_variable()) {
    out.bits_per_offset = 64;
    out.offsets.resize(checked_mul(n + 1, 8, "dictionary offsets"));
    auto* offs = reinterpret_cast<uint64_t*>(out.offsets.data());
    offs[0] = 0;
    for (uint64_t i = 0; i < n; ++i) {
      if (valid[i]) {
        const uint64_t b = dict.offset(index[i]), e = dict.offset(index[i] + 1);
        check_corrupt(b <= e && e <= dict.data.size(), "dictionary item {} lies outside its bytes", index[i]);
        check_alloc(out.data.size() + (e - b), "dictionary values");
        out.data.insert(out.data.end(), dict.data.begin() + b, dict.data.begin() + e);
      }
      offs[i + 1] = out.data.size();
    }
    return out;
  }
  out.bits_per_value = dict.bits_per_value;
  out.data.assign(checked_value_bytes(n, dict.bits_per_value, "dictionary values"), 0);
  if (dict.bits_per_value == 1) {
    for (uint64_t i = 0; i < n; ++i)
      if (valid[i] && get_bit(dict.data.data(), index[i])) set_bit(out.data.data(), i);
    return out;
  }
  check_corrupt(dict.bits_per_value % 8 == 0, "dictionary items of {} bits", dict.bits_per_value);
  const uint64_t w = dict.bits_per_value / 8;
  check_corrupt(dict.data.size() >= dict.num_values * w, "dictionary items truncated");
  for (uint64_t i = 0; i < n; ++i)
    if (valid[i]) std::memcpy(out.data.data() + i * w, dict.data.data() + index[i] * w, w);
  return out;
}

}  // namespace

Decoded decode_dictionary(const pb::Dictionary& dict, const Buffers& buffers, const TypePtr& type, uint64_t num_rows) {
  const uint64_t num_items = dict.num_dictionary_items();
  const bool arrow_dictionary = type->id == TypeId::dictionary;
  const TypePtr& value_type = arrow_dictionary ? type->value_type : type;
  std::vector<uint8_t> index_valid;
  std::vector<uint64_t> index = with_context("Dictionary indices", [&] {
    return decode_unsigned(dict.indices(), buffers, num_rows, "Dictionary indices", &index_valid);
  });
  Decoded items =
      with_context("Dictionary items", [&] { return decode_array(dict.items(), buffers, value_type, num_items); });
  check_corrupt(items.values.num_values == num_items, "Dictionary: {} items decoded, {} declared",
                items.values.num_values, num_items);
  std::vector<uint8_t> valid(num_rows, 1);
  bool any_null = false;
  for (uint64_t i = 0; i < num_rows; ++i) {
    bool ok = index_valid.empty() || index_valid[i];
    if (ok && !arrow_dictionary) {
      // Plain strings: 0 is null, k + 1 is item k.
      if (index[i] == 0)
        ok = false;
      else
        --index[i];
    }
    if (ok) {
      check_corrupt(index[i] < num_items, "Dictionary: row {} refers to item {} of {}", i, index[i], num_items);
      ok = items.valid.empty() || items.valid[index[i]];
    }
    valid[i] = ok;
    any_null |= !ok;
  }
  Decoded out;
  out.values = gather(items.values, index, valid);
  if (any_null) out.valid = std::move(valid);
  return out;
}

}  // namespace lance::encoding::v2_0
