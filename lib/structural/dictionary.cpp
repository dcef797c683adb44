#include "structural/dictionary.h"

#include <cstring>
#include <limits>
#include <vector>

#include "common/error.h"

namespace lance::structural {

using encoding::DataBlock;

namespace {

[[noreturn]] void bad_index(uint64_t k, uint64_t size) {
  throw_corrupt("dictionary index {} outside a dictionary of {} items", k, size);
}

/// Variable-width items: the item bounds are checked once, then every value is one
/// memcpy into an output sized in a first pass; 32-bit offsets when the output allows
/// (what Arrow's utf8/binary arrays use), else 64-bit.
DataBlock lookup_variable(const DataBlock& dict, const DataBlock& indices) {
  const uint64_t items = dict.num_values, n = indices.num_values;
  std::vector<uint64_t> start(items + 1);
  for (uint64_t k = 0; k <= items; ++k) start[k] = dict.offset(k);
  for (uint64_t k = 0; k < items; ++k)
    check_corrupt(start[k] <= start[k + 1] && start[k + 1] <= dict.data.size(), "dictionary item {} has bad offsets",
                  k);
  DataBlock out;
  out.num_values = n;
  out.bits_per_value = dict.bits_per_value;
  with_typed_indices(indices, [&](auto index) {
    uint64_t total = 0;
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t k = index(i);
      if (k >= items) bad_index(k, items);
      total += start[k + 1] - start[k];
    }
    check_alloc(total, "dictionary lookup");
    out.data.resize(total);
    uint8_t* dst = out.data.data();
    const uint8_t* src = dict.data.data();
    auto fill = [&](auto offset_tag) {
      using O = decltype(offset_tag);
      out.bits_per_offset = 8 * sizeof(O);
      out.offsets.resize((n + 1) * sizeof(O));
      O* off = reinterpret_cast<O*>(out.offsets.data());
      uint64_t at = 0;
      off[0] = 0;
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t k = index(i), len = start[k + 1] - start[k];
        if (len) std::memcpy(dst + at, src + start[k], len);  // all-empty lookups leave `dst` null
        at += len;
        off[i + 1] = static_cast<O>(at);
      }
    };
    if (total <= std::numeric_limits<uint32_t>::max())
      fill(uint32_t{});
    else
      fill(uint64_t{});
  });
  return out;
}

}  // namespace

DataBlock lookup_dictionary(const DataBlock& dict, const DataBlock& indices) {
  check_corrupt(!indices.is_variable(), "dictionary indices must be fixed width");
  if (dict.is_variable()) return lookup_variable(dict, indices);
  DataBlock out;
  out.num_values = indices.num_values;
  out.bits_per_value = dict.bits_per_value;
  const uint64_t n = indices.num_values, items = dict.num_values;
  if (dict.bits_per_value == 1) {
    check_corrupt(dict.data.size() * 8 >= items, "dictionary buffer too short");
    out.data.assign((n + 7) / 8, 0);
    with_typed_indices(indices, [&](auto index) {
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t k = index(i);
        if (k >= items) bad_index(k, items);
        if (get_bit(dict.data.data(), k)) set_bit(out.data.data(), i);
      }
    });
    return out;
  }
  check_corrupt(dict.bits_per_value % 8 == 0, "dictionary items of {} bits", dict.bits_per_value);
  const uint64_t w = dict.bits_per_value / 8;
  check_corrupt(dict.data.size() >= items * w, "dictionary buffer too short");
  check_alloc(n * w, "dictionary lookup");
  out.data.resize(n * w);
  uint8_t* dst = out.data.data();
  const uint8_t* src = dict.data.data();
  with_typed_indices(indices, [&](auto index) {
    // `width`: a compile-time constant for the common widths (the copy becomes one load and
    // store), the runtime width otherwise.
    auto gather = [&](auto width) {
      const uint64_t W = width;
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t k = index(i);
        if (k >= items) bad_index(k, items);
        std::memcpy(dst + i * W, src + k * W, W);
      }
    };
    switch (w) {
      case 4:
        return gather(std::integral_constant<uint64_t, 4>{});
      case 8:
        return gather(std::integral_constant<uint64_t, 8>{});
      default:
        return gather(w);
    }
  });
  return out;
}

}  // namespace lance::structural
