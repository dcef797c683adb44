#include "array/take.h"

#include <cstring>
#include <vector>

#include "common/error.h"

namespace lance {

namespace {

/// Rows [begin, end) of an array.
struct RowSpan {
  int64_t begin;
  int64_t end;
};

/// `indices` as spans of consecutive rows (a sorted take with few repeats: a few long spans).
std::vector<RowSpan> spans_of(std::span<const int64_t> indices) {
  std::vector<RowSpan> spans;
  for (int64_t i : indices) {
    if (!spans.empty() && spans.back().end == i)
      ++spans.back().end;
    else
      spans.push_back({i, i + 1});
  }
  return spans;
}

/// New offsets for the rows of `spans`, and (when `child`) the spans of child rows they cover.
template <typename Offset>
BytesPtr offsets_for(const ArrayData& a, const std::vector<RowSpan>& spans, int64_t n, std::vector<RowSpan>* child) {
  auto out = std::make_shared<Bytes>(static_cast<size_t>(n + 1) * sizeof(Offset));
  auto* dst = reinterpret_cast<Offset*>(out->data());
  const Offset* src = a.values<Offset>(0);
  int64_t pos = 0;
  size_t o = 0;
  dst[o++] = 0;
  for (const RowSpan& s : spans) {
    const int64_t base = src[s.begin];
    for (int64_t i = s.begin; i < s.end; ++i) dst[o++] = static_cast<Offset>(pos + (src[i + 1] - base));
    const int64_t end = src[s.end];
    pos += end - base;
    if (child && end > base) {
      if (!child->empty() && child->back().end == base)
        child->back().end = end;
      else
        child->push_back({base, end});
    }
  }
  return out;
}

/// The child rows of fixed-size lists' rows `spans`: each span times the list size.
std::vector<RowSpan> scaled(const std::vector<RowSpan>& spans, int64_t list_size) {
  std::vector<RowSpan> out;
  out.reserve(spans.size());
  for (const RowSpan& s : spans) out.push_back({s.begin * list_size, s.end * list_size});
  return out;
}

/// The rows of `spans` of `array` (already checked). Contiguous rows are copied as one block,
/// so a sorted take with a few repeats costs about a copy of its bytes; a fixed-size list's
/// child is taken by spans too, without spelling out every child row.
ArrayPtr take_spans(const ArrayPtr& array, const std::vector<RowSpan>& spans) {
  const ArrayData& a = *array;
  const DataType& t = *a.type;
  int64_t n = 0;
  for (const RowSpan& s : spans) n += s.end - s.begin;
  auto out = std::make_shared<ArrayData>();
  out->type = a.type;
  out->length = n;
  out->dictionary = a.dictionary;
  if (a.validity) {
    std::vector<uint8_t> valid(static_cast<size_t>(n));
    size_t o = 0;
    for (const RowSpan& s : spans)
      for (int64_t i = s.begin; i < s.end; ++i) valid[o++] = a.is_valid(i);
    out->validity = make_validity(valid, &out->null_count);
  }
  switch (t.id) {
    case TypeId::null:
      out->null_count = out->length;
      break;
    case TypeId::boolean: {
      auto bits = std::make_shared<Bytes>((static_cast<size_t>(n) + 7) / 8, 0);
      uint64_t o = 0;
      for (const RowSpan& s : spans)
        for (int64_t i = s.begin; i < s.end; ++i, ++o)
          if (get_bit(a.buffers[0]->data(), static_cast<uint64_t>(i))) set_bit(bits->data(), o);
      out->buffers = {bits};
      break;
    }
    case TypeId::utf8:
    case TypeId::binary:
    case TypeId::large_utf8:
    case TypeId::large_binary: {
      std::vector<RowSpan> bytes;
      out->buffers = {t.is_large_offsets() ? offsets_for<int64_t>(a, spans, n, &bytes)
                                           : offsets_for<int32_t>(a, spans, n, &bytes)};
      int64_t total = 0;
      for (const RowSpan& s : bytes) total += s.end - s.begin;
      auto data = std::make_shared<Bytes>(static_cast<size_t>(total));
      size_t at = 0;
      for (const RowSpan& s : bytes) {
        std::memcpy(data->data() + at, a.buffers[1]->data() + s.begin, static_cast<size_t>(s.end - s.begin));
        at += static_cast<size_t>(s.end - s.begin);
      }
      out->buffers.push_back(data);
      break;
    }
    case TypeId::list:
    case TypeId::large_list:
    case TypeId::map: {
      std::vector<RowSpan> child;
      out->buffers = {t.is_large_offsets() ? offsets_for<int64_t>(a, spans, n, &child)
                                           : offsets_for<int32_t>(a, spans, n, &child)};
      out->children = {take_spans(a.children[0], child)};
      break;
    }
    case TypeId::fixed_size_list:
      out->children = {take_spans(a.children[0], scaled(spans, t.list_size))};
      break;
    case TypeId::struct_:
      for (const auto& c : a.children) out->children.push_back(take_spans(c, spans));
      break;
    default: {
      const size_t w = t.id == TypeId::dictionary ? t.index_type->bit_width() / 8 : t.bit_width() / 8;
      auto data = std::make_shared<Bytes>(static_cast<size_t>(n) * w);
      size_t at = 0;
      for (const RowSpan& s : spans) {
        const size_t len = static_cast<size_t>(s.end - s.begin) * w;
        std::memcpy(data->data() + at, a.buffers[0]->data() + static_cast<size_t>(s.begin) * w, len);
        at += len;
      }
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
  return take_spans(array, spans_of(indices));
}

ArrayPtr dictionary_values(const ArrayPtr& array) {
  const ArrayData& a = *array;
  check_corrupt(a.type->id == TypeId::dictionary && a.dictionary, "a dictionary array without a dictionary");
  const DataType& index_type = *a.type->index_type;
  const size_t n = static_cast<size_t>(a.length), w = static_cast<size_t>(index_type.bit_width() / 8);
  check_corrupt(w >= 1 && w <= 8 && !a.buffers.empty() && a.buffers[0]->size() / w >= n,
                "dictionary indices too short for {} rows", n);
  if (a.dictionary->length == 0) {
    check_corrupt(a.null_count == a.length, "indices into an empty dictionary");
    return make_null_array(a.type->value_type, a.length);
  }
  std::vector<int64_t> index(n);
  std::vector<uint8_t> valid(n);
  for (size_t i = 0; i < n; ++i) {
    valid[i] = a.is_valid(static_cast<int64_t>(i));
    if (!valid[i]) continue;  // a null row names no value: it takes the first, then masked
    const int64_t k = dictionary_index(a, static_cast<int64_t>(i));
    check_corrupt(k >= 0 && k < a.dictionary->length, "dictionary index {} of {} items", k, a.dictionary->length);
    index[i] = k;
  }
  ArrayPtr taken = take_array(a.dictionary, index);
  if (!a.validity) return taken;
  auto out = std::make_shared<ArrayData>(*taken);
  for (size_t i = 0; i < n; ++i) valid[i] = valid[i] && taken->is_valid(static_cast<int64_t>(i));
  out->validity = make_validity(valid, &out->null_count);
  return out;
}

}  // namespace lance
