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

}  // namespace

ArrayPtr take_array(const ArrayPtr& array, std::span<const int64_t> indices) {
  const ArrayData& a = *array;
  for (int64_t i : indices)
    if (i < 0 || i >= a.length) throw_usage("take index {} outside an array of {} rows", i, a.length);
  auto out = std::make_shared<ArrayData>();
  out->type = a.type;
  out->length = static_cast<int64_t>(indices.size());
  out->dictionary = a.dictionary;
  if (a.validity) {
    std::vector<uint8_t> valid(indices.size());
    for (size_t i = 0; i < indices.size(); ++i) valid[i] = a.is_valid(indices[i]);
    out->validity = make_validity(valid, &out->null_count);
  }
  const DataType& t = *a.type;
  switch (t.id) {
    case TypeId::null: out->null_count = out->length; break;
    case TypeId::boolean: {
      auto bits = std::make_shared<Bytes>((indices.size() + 7) / 8, 0);
      for (size_t i = 0; i < indices.size(); ++i)
        if (get_bit(a.buffers[0]->data(), indices[i])) set_bit(bits->data(), i);
      out->buffers = {bits};
      break;
    }
    case TypeId::utf8: case TypeId::binary: case TypeId::large_utf8: case TypeId::large_binary: {
      out->buffers = {t.is_large_offsets() ? offsets_for<int64_t>(a, indices, nullptr)
                                           : offsets_for<int32_t>(a, indices, nullptr)};
      auto data = std::make_shared<Bytes>();
      for (int64_t i : indices) {
        int64_t b = offset_of(a, i), e = offset_of(a, i + 1);
        data->insert(data->end(), a.buffers[1]->begin() + b, a.buffers[1]->begin() + e);
      }
      out->buffers.push_back(data);
      break;
    }
    case TypeId::list: case TypeId::large_list: case TypeId::map: {
      std::vector<int64_t> child_rows;
      out->buffers = {t.is_large_offsets() ? offsets_for<int64_t>(a, indices, &child_rows)
                                           : offsets_for<int32_t>(a, indices, &child_rows)};
      out->children = {take_array(a.children[0], child_rows)};
      break;
    }
    case TypeId::fixed_size_list: {
      std::vector<int64_t> child_rows;
      for (int64_t i : indices)
        for (int64_t k = 0; k < t.list_size; ++k) child_rows.push_back(i * t.list_size + k);
      out->children = {take_array(a.children[0], child_rows)};
      break;
    }
    case TypeId::struct_:
      for (const auto& c : a.children) out->children.push_back(take_array(c, indices));
      break;
    default: {
      const size_t w = t.id == TypeId::dictionary ? t.index_type->bit_width() / 8 : t.bit_width() / 8;
      auto data = std::make_shared<Bytes>(indices.size() * w);
      for (size_t i = 0; i < indices.size(); ++i)
        std::memcpy(data->data() + i * w, a.buffers[0]->data() + indices[i] * w, w);
      out->buffers = {data};
      break;
    }
  }
  return out;
}

}  // namespace lance
