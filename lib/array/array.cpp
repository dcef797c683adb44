#include "array/array.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "array/take.h"

namespace lance {

int64_t count_nulls(const Bytes& validity, int64_t length) {
  int64_t valid = 0;
  const int64_t full = length / 8;
  for (int64_t i = 0; i < full; ++i) valid += std::popcount(static_cast<unsigned>(validity[i]));
  for (int64_t i = full * 8; i < length; ++i) valid += get_bit(validity.data(), i);
  return length - valid;
}

BytesPtr make_validity(const std::vector<uint8_t>& valid_flags, int64_t* null_count) {
  int64_t nulls = 0;
  auto bits = std::make_shared<Bytes>((valid_flags.size() + 7) / 8, 0);
  for (size_t i = 0; i < valid_flags.size(); ++i) {
    if (valid_flags[i])
      set_bit(bits->data(), i);
    else
      ++nulls;
  }
  if (null_count) *null_count = nulls;
  if (nulls == 0) return nullptr;
  return bits;
}

namespace {

BytesPtr zeros(size_t n) { return std::make_shared<Bytes>(n, 0); }

BytesPtr slice_bits(const Bytes& bits, int64_t begin, int64_t count) {
  auto out = std::make_shared<Bytes>((count + 7) / 8, 0);
  if (begin % 8 == 0) {
    std::memcpy(out->data(), bits.data() + begin / 8, out->size());
    if (count % 8) out->back() &= static_cast<uint8_t>((1u << (count % 8)) - 1);
    return out;
  }
  for (int64_t i = 0; i < count; ++i)
    if (get_bit(bits.data(), begin + i)) set_bit(out->data(), i);
  return out;
}

template <typename Offset>
int64_t offset_at(const ArrayData& a, int64_t i) {
  return static_cast<int64_t>(a.values<Offset>(0)[i]);
}

int64_t list_offset(const ArrayData& a, int64_t i) {
  return a.type->is_large_offsets() ? offset_at<int64_t>(a, i) : offset_at<int32_t>(a, i);
}

template <typename Offset>
BytesPtr rebased_offsets(const ArrayData& a, int64_t begin, int64_t count) {
  auto out = std::make_shared<Bytes>((count + 1) * sizeof(Offset));
  const Offset* src = a.values<Offset>(0);
  auto* dst = reinterpret_cast<Offset*>(out->data());
  for (int64_t i = 0; i <= count; ++i) dst[i] = src[begin + i] - src[begin];
  return out;
}

BytesPtr rebase_any(const ArrayData& a, int64_t begin, int64_t count) {
  return a.type->is_large_offsets() ? rebased_offsets<int64_t>(a, begin, count)
                                    : rebased_offsets<int32_t>(a, begin, count);
}

}  // namespace

ArrayPtr make_null_array(const TypePtr& type, int64_t length) {
  auto out = std::make_shared<ArrayData>();
  out->type = type;
  out->length = length;
  out->null_count = length;
  out->validity = zeros((length + 7) / 8);
  switch (type->id) {
    case TypeId::null:
      out->validity = nullptr;
      break;
    case TypeId::utf8:
    case TypeId::binary:
    case TypeId::list:
    case TypeId::map:
      out->buffers = {zeros((length + 1) * 4)};
      if (type->is_binary_like()) out->buffers.push_back(zeros(0));
      break;
    case TypeId::large_utf8:
    case TypeId::large_binary:
    case TypeId::large_list:
      out->buffers = {zeros((length + 1) * 8)};
      if (type->is_binary_like()) out->buffers.push_back(zeros(0));
      break;
    case TypeId::fixed_size_list:
    case TypeId::struct_:
      break;
    case TypeId::dictionary:
      out->buffers = {zeros(length * (type->index_type->bit_width() / 8))};
      break;
    case TypeId::boolean:
      out->buffers = {zeros((length + 7) / 8)};
      break;
    default:
      out->buffers = {zeros(length * (type->bit_width() / 8))};
      break;
  }
  if (type->id == TypeId::list || type->id == TypeId::large_list || type->id == TypeId::map)
    out->children = {make_null_array(type->children[0]->type, 0)};
  if (type->id == TypeId::fixed_size_list)
    out->children = {make_null_array(type->children[0]->type, length * type->list_size)};
  if (type->id == TypeId::struct_)
    for (const auto& c : type->children) out->children.push_back(make_null_array(c->type, length));
  if (type->id == TypeId::dictionary) out->dictionary = make_null_array(type->value_type, 0);
  return out;
}

ArrayPtr slice_array(const ArrayPtr& array, int64_t begin, int64_t count) {
  const ArrayData& a = *array;
  check_corrupt(begin >= 0 && count >= 0 && begin + count <= a.length, "slice [{}, +{}) of an array of {}", begin,
                count, a.length);
  if (begin == 0 && count == a.length) return array;
  auto out = std::make_shared<ArrayData>();
  out->type = a.type;
  out->length = count;
  out->dictionary = a.dictionary;
  if (a.validity) {
    auto v = slice_bits(*a.validity, begin, count);
    out->null_count = count_nulls(*v, count);
    if (out->null_count > 0) out->validity = v;
  }
  const auto& t = *a.type;
  switch (t.id) {
    case TypeId::null:
      out->null_count = count;
      break;
    case TypeId::boolean:
      out->buffers = {slice_bits(*a.buffers[0], begin, count)};
      break;
    case TypeId::utf8:
    case TypeId::binary:
    case TypeId::large_utf8:
    case TypeId::large_binary: {
      int64_t b = list_offset(a, begin), e = list_offset(a, begin + count);
      out->buffers = {rebase_any(a, begin, count),
                      std::make_shared<Bytes>(a.buffers[1]->begin() + b, a.buffers[1]->begin() + e)};
      break;
    }
    case TypeId::list:
    case TypeId::large_list:
    case TypeId::map: {
      int64_t b = list_offset(a, begin), e = list_offset(a, begin + count);
      out->buffers = {rebase_any(a, begin, count)};
      out->children = {slice_array(a.children[0], b, e - b)};
      break;
    }
    case TypeId::fixed_size_list:
      out->children = {slice_array(a.children[0], begin * t.list_size, count * t.list_size)};
      break;
    case TypeId::struct_:
      for (const auto& c : a.children) out->children.push_back(slice_array(c, begin, count));
      break;
    case TypeId::dictionary: {
      size_t w = t.index_type->bit_width() / 8;
      out->buffers = {
          std::make_shared<Bytes>(a.buffers[0]->begin() + begin * w, a.buffers[0]->begin() + (begin + count) * w)};
      break;
    }
    default: {
      size_t w = t.bit_width() / 8;
      out->buffers = {
          std::make_shared<Bytes>(a.buffers[0]->begin() + begin * w, a.buffers[0]->begin() + (begin + count) * w)};
      break;
    }
  }
  return out;
}

namespace {

void append_bits(Bytes& dst, int64_t dst_len, const uint8_t* src, int64_t n) {
  dst.resize((dst_len + n + 7) / 8, 0);
  for (int64_t i = 0; i < n; ++i)
    if (get_bit(src, i)) set_bit(dst.data(), dst_len + i);
}

template <typename Offset>
void append_offsets(Bytes& dst, const ArrayData& a, Offset base) {
  const Offset* src = a.values<Offset>(0);
  if (dst.empty()) append_le<Offset>(dst, base);
  for (int64_t i = 1; i <= a.length; ++i) append_le<Offset>(dst, static_cast<Offset>(base + src[i] - src[0]));
}

}  // namespace

namespace {

/// The validity bitmap of `parts` back to back (a part without one is all valid).
BytesPtr concat_validity(const std::vector<ArrayPtr>& parts) {
  auto v = std::make_shared<Bytes>();
  int64_t len = 0;
  for (const auto& p : parts) {
    if (p->validity)
      append_bits(*v, len, p->validity->data(), p->length);
    else {
      v->resize((len + p->length + 7) / 8, 0);
      for (int64_t i = 0; i < p->length; ++i) set_bit(v->data(), len + i);
    }
    len += p->length;
  }
  return v;
}

/// Offsets and values of variable-width parts (binary, utf8, lists, maps) into `out`, which
/// holds `total` values: offsets rebased, value bytes or child slices concatenated.
void concat_variable(const DataType& t, const std::vector<ArrayPtr>& parts, int64_t total, ArrayData& out) {
  auto offsets = std::make_shared<Bytes>();
  auto data = std::make_shared<Bytes>();
  // Sized once: the parts' values are copied once each, never moved by a regrowth.
  uint64_t value_bytes = 0;
  for (const auto& p : parts) value_bytes += static_cast<uint64_t>(list_offset(*p, p->length) - list_offset(*p, 0));
  offsets->reserve((static_cast<size_t>(total) + 1) * (t.is_large_offsets() ? 8 : 4));
  if (t.is_binary_like()) data->reserve(value_bytes);
  std::vector<ArrayPtr> child_parts;
  int64_t base = 0;
  for (const auto& p : parts) {
    int64_t b = list_offset(*p, 0), e = list_offset(*p, p->length);
    if (t.is_large_offsets())
      append_offsets<int64_t>(*offsets, *p, base);
    else
      append_offsets<int32_t>(*offsets, *p, static_cast<int32_t>(base));
    if (t.is_binary_like())
      data->insert(data->end(), p->buffers[1]->begin() + b, p->buffers[1]->begin() + e);
    else
      child_parts.push_back(slice_array(p->children[0], b, e - b));
    base += e - b;
  }
  if (!t.is_large_offsets()) check_corrupt(base <= INT32_MAX, "concatenated array exceeds 2 GiB of 32-bit offsets");
  out.buffers = {offsets};
  if (t.is_binary_like())
    out.buffers.push_back(data);
  else
    out.children = {concat_arrays(t.children[0]->type, child_parts)};
}

/// Dictionary parts into `out`: parts may carry different dictionaries, so their values are
/// concatenated and each part's indices shifted past the dictionaries before it.
void concat_dictionary(const DataType& t, const std::vector<ArrayPtr>& parts, ArrayData& out) {
  std::vector<ArrayPtr> dicts;
  auto idx = std::make_shared<Bytes>();
  int64_t shift = 0;
  const int w = t.index_type->bit_width() / 8;
  for (const auto& p : parts) {
    check_corrupt(p->dictionary != nullptr, "dictionary array without a dictionary");
    for (int64_t i = 0; i < p->length; ++i) {
      int64_t v = dictionary_index(*p, i) + shift;
      if (w < 8) check_corrupt(v < (int64_t{1} << (w * 8 - 1)), "concatenated dictionaries overflow the index type");
      idx->insert(idx->end(), reinterpret_cast<uint8_t*>(&v), reinterpret_cast<uint8_t*>(&v) + w);
    }
    dicts.push_back(p->dictionary);
    shift += p->dictionary->length;
  }
  out.buffers = {idx};
  out.dictionary = concat_arrays(t.value_type, dicts);
}

/// The values of fixed-width parts: exactly length × width bytes of each part (a part's
/// buffer may carry padding).
BytesPtr concat_fixed_width(const DataType& t, const std::vector<ArrayPtr>& parts, int64_t total) {
  const size_t w = static_cast<size_t>(t.bit_width() / 8);
  auto b = std::make_shared<Bytes>();
  b->reserve(static_cast<size_t>(total) * w);
  for (const auto& p : parts) {
    check_corrupt(p->buffers[0]->size() >= static_cast<size_t>(p->length) * w, "array buffer too short");
    b->insert(b->end(), p->buffers[0]->begin(), p->buffers[0]->begin() + p->length * w);
  }
  return b;
}

/// Child `k` of every part, concatenated.
ArrayPtr concat_children(const DataType& t, const std::vector<ArrayPtr>& parts, size_t k) {
  std::vector<ArrayPtr> c;
  for (const auto& p : parts) c.push_back(p->children[k]);
  return concat_arrays(t.children[k]->type, c);
}

}  // namespace

int64_t dictionary_index(const ArrayData& a, int64_t i) {
  const DataType& index_type = *a.type->index_type;
  const int w = index_type.bit_width() / 8;
  int64_t v = 0;
  std::memcpy(&v, a.buffers[0]->data() + i * w, static_cast<size_t>(w));  // little-endian
  if (w < 8 && index_type.is_signed_integer() && (v >> (w * 8 - 1)) & 1) v |= ~((int64_t{1} << (w * 8)) - 1);
  return v;
}

ArrayPtr concat_arrays(const TypePtr& type, const std::vector<ArrayPtr>& parts) {
  if (parts.size() == 1) return parts[0];
  if (parts.empty()) return make_null_array(type, 0);
  if (type->id != TypeId::dictionary &&
      std::any_of(parts.begin(), parts.end(), [](const ArrayPtr& p) { return p->type->id == TypeId::dictionary; })) {
    std::vector<ArrayPtr> plain;
    for (const auto& p : parts) plain.push_back(p->type->id == TypeId::dictionary ? dictionary_values(p) : p);
    return concat_arrays(type, plain);
  }
  auto out = std::make_shared<ArrayData>();
  out->type = type;
  int64_t total = 0, nulls = 0;
  for (const auto& p : parts) total += p->length, nulls += p->null_count;
  out->length = total;
  out->null_count = nulls;
  if (nulls > 0 && type->id != TypeId::null) out->validity = concat_validity(parts);
  const auto& t = *type;
  switch (t.id) {
    case TypeId::null:
      break;
    case TypeId::boolean: {
      auto b = std::make_shared<Bytes>();
      int64_t len = 0;
      for (const auto& p : parts) append_bits(*b, len, p->buffers[0]->data(), p->length), len += p->length;
      out->buffers = {b};
      break;
    }
    case TypeId::utf8:
    case TypeId::binary:
    case TypeId::large_utf8:
    case TypeId::large_binary:
    case TypeId::list:
    case TypeId::large_list:
    case TypeId::map:
      concat_variable(t, parts, total, *out);
      break;
    case TypeId::fixed_size_list:
      out->children = {concat_children(t, parts, 0)};
      break;
    case TypeId::struct_:
      for (size_t k = 0; k < t.children.size(); ++k) out->children.push_back(concat_children(t, parts, k));
      break;
    case TypeId::dictionary:
      concat_dictionary(t, parts, *out);
      break;
    default:
      out->buffers = {concat_fixed_width(t, parts, total)};
      break;
  }
  return out;
}

}  // namespace lance
