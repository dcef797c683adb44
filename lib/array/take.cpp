#include "array/take.h"

#include <cstring>

namespace lance {

namespace {

int64_t offset_of(const ArrayData& a, int64_t i) {
  return a.type->is_large_offsets() ? a.values<int64_t>(0)[i] : a.values<int32_t>(0)[i];
}

template <typename Offset>
BytesPtr offsets_for(const ArrayData& a, std::span<const int64_t> idx, std::vector<int64_t>* child_rows) {
  auto out = std::make_shared<Bytes>((idx.size() + 1) * sizeof(Offset));
  auto* dst = reinterpret_cast<Offset*>(out->data());
  int64_t pos = 0;
  dst[0] = 0;
  for (size_t i = 0; i < idx.size(); ++i) {
    int64_t b = offset_of(a, idx[i]), e = offset_of(a, idx[i] + 1);
    if (child_rows)
      for (int64_t k = b; k < e; ++k) child_rows->push_back(k);
    pos += e - b;
    dst[i + 1] = static_cast<Offset>(pos);
  }
  return out;
}

/// Rows [i * run, (i + 1) * run) of `array` for each i of `indices` (already checked): the
/// rows of a fixed-size list's child without spelling out every child row.
ArrayPtr take_runs(const ArrayPtr& array, std::span<const int64_t> indices, int64_t run) {
  const ArrayData& a = *array;
  const DataType& t = *a.type;
  const bool variable = t.is_binary_like() || t.id == TypeId::list || t.id == TypeId::large_list || t.id == TypeId::map;
  if (run > 1 && variable) {  // offsets are rebuilt row by row anyway
    std::vector<int64_t> rows;
    rows.reserve(indices.size() * static_cast<size_t>(run));
    for (int64_t i : indices)
      for (int64_t k = 0; k < run; ++k) rows.push_back(i * run + k);
    return take_runs(array, rows, 1);
  }
  const auto n = static_cast<int64_t>(indices.size()) * run;
  auto out = std::make_shared<ArrayData>();
  out->type = a.type;
  out->length = n;
  out->dictionary = a.dictionary;
  if (a.validity) {
    std::vector<uint8_t> valid(static_cast<size_t>(n));
    size_t o = 0;
    for (int64_t i : indices)
      for (int64_t k = 0; k < run; ++k) valid[o++] = a.is_valid(i * run + k);
    out->validity = make_validity(valid, &out->null_count);
  }
  switch (t.id) {
    case TypeId::null:
      out->null_count = out->length;
      break;
    case TypeId::boolean: {
      auto bits = std::make_shared<Bytes>((static_cast<size_t>(n) + 7) / 8, 0);
      uint64_t o = 0;
      for (int64_t i : indices)
        for (int64_t k = 0; k < run; ++k, ++o)
          if (get_bit(a.buffers[0]->data(), static_cast<uint64_t>(i * run + k))) set_bit(bits->data(), o);
      out->buffers = {bits};
      break;
    }
    case TypeId::utf8:
    case TypeId::binary:
    case TypeId::large_utf8:
    case TypeId::large_binary: {
      out->buffers = {t.is_large_offsets() ? offsets_for<int64_t>(a, indices, nullptr)
                                           : offsets_for<int32_t>(a, indices, nullptr)};
      // The new offsets end at the bytes needed: one allocation, one copy per value.
      const int64_t total =
          t.is_large_offsets() ? out->values<int64_t>(0)[indices.size()] : out->values<int32_t>(0)[indices.size()];
      auto data = std::make_shared<Bytes>();
      data->reserve(static_cast<size_t>(total));
      for (int64_t i : indices) {
        int64_t b = offset_of(a, i), e = offset_of(a, i + 1);
        data->insert(data->end(), a.buffers[1]->begin() + b, a.buffers[1]->begin() + e);
      }
      out->buffers.push_back(data);
      break;
    }
    case TypeId::list:
    case TypeId::large_list:
    case TypeId::map: {
      std::vector<int64_t> child_rows;
      out->buffers = {t.is_large_offsets() ? offsets_for<int64_t>(a, indices, &child_rows)
                                           : offsets_for<int32_t>(a, indices, &child_rows)};
      out->children = {take_runs(a.children[0], child_rows, 1)};
      break;
    }
    case TypeId::fixed_size_list:
      out->children = {take_runs(a.children[0], indices, run * t.list_size)};
      break;
    case TypeId::struct_:
      for (const auto& c : a.children) out->children.push_back(take_runs(c, indices, run));
      break;
    default: {
      const size_t w =
          (t.id == TypeId::dictionary ? t.index_type->bit_width() / 8 : t.bit_width() / 8) * static_cast<size_t>(run);
      auto data = std::make_shared<Bytes>(indices.size() * w);
      for (size_t i = 0; i < indices.size(); ++i)
        std::memcpy(data->data() + i * w, a.buffers[0]->data() + static_cast<size_t>(indices[i]) * w, w);
      out->buffers = {data};
      break;
    }
  }
  return out;
}

}  // namespace

ArrayPtr take_array(const ArrayPtr& array, std::span<const int64_t> indices) {
  for (int64_t i : indices)
    if (i < 0 || i >= array->length) throw_usage("take index {} outside an array of {} rows", i, array->length);
  return take_runs(array, indices, 1);
}

}  // namespace lance
