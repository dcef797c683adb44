#include "structural/dictionary.h"

#include "common/error.h"

namespace lance::structural {

using encoding::DataBlock;

namespace {
uint64_t index_at(const DataBlock& idx, uint64_t i) {
  ByteView v(idx.data);
  switch (idx.bits_per_value) {
    case 8: return v.read<uint8_t>(i);
    case 16: return v.read<uint16_t>(i * 2);
    case 32: return v.read<uint32_t>(i * 4);
    case 64: return v.read<uint64_t>(i * 8);
    default: throw_corrupt("dictionary indices of {} bits", idx.bits_per_value);
  }
}
}  // namespace

DataBlock lookup_dictionary(const DataBlock& dict, const DataBlock& indices) {
  check_corrupt(!indices.is_variable(), "dictionary indices must be fixed width");
  DataBlock out;
  out.num_values = indices.num_values;
  out.bits_per_value = dict.bits_per_value;
  out.bits_per_offset = dict.is_variable() ? 64 : 0;
  const uint64_t n = indices.num_values;
  if (dict.is_variable()) {
    append_le<uint64_t>(out.offsets, 0);
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t k = index_at(indices, i);
      check_corrupt(k < dict.num_values, "dictionary index {} outside a dictionary of {} items", k, dict.num_values);
      uint64_t b = dict.offset(k), e = dict.offset(k + 1);
      check_corrupt(b <= e && e <= dict.data.size(), "dictionary item {} has bad offsets", k);
      out.data.insert(out.data.end(), dict.data.begin() + b, dict.data.begin() + e);
      append_le<uint64_t>(out.offsets, out.data.size());
    }
  } else if (dict.bits_per_value == 1) {
    out.data.assign((n + 7) / 8, 0);
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t k = index_at(indices, i);
      check_corrupt(k < dict.num_values, "dictionary index {} outside a dictionary of {} items", k, dict.num_values);
      if (get_bit(dict.data.data(), k)) set_bit(out.data.data(), i);
    }
  } else {
    check_corrupt(dict.bits_per_value % 8 == 0, "dictionary items of {} bits", dict.bits_per_value);
    const uint64_t w = dict.bits_per_value / 8;
    check_corrupt(dict.data.size() >= dict.num_values * w, "dictionary buffer too short");
    check_alloc(n * w, "dictionary lookup");
    out.data.resize(n * w);
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t k = index_at(indices, i);
      check_corrupt(k < dict.num_values, "dictionary index {} outside a dictionary of {} items", k, dict.num_values);
      std::memcpy(out.data.data() + i * w, dict.data.data() + k * w, w);
    }
  }
  return out;
}

}  // namespace lance::structural
