#include "inspect/value_stats.h"

#include <cmath>
#include <cstring>
#include <string_view>

#include "common/error.h"
#include "common/float16.h"
#include "output/number_text.h"

namespace lance::inspect {

namespace {

template <typename T>
T load(const ArrayData& a, int64_t i) {
  T v;
  std::memcpy(&v, a.buffers.at(0)->data() + static_cast<size_t>(i) * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
int three_way(T x, T y) {
  return x < y ? -1 : (y < x ? 1 : 0);
}

std::string_view bytes_at(const ArrayData& a, int64_t i) {
  const uint8_t* data = a.buffers.at(1)->data();
  int64_t b, e;
  if (a.type->is_large_offsets()) {
    b = a.values<int64_t>(0)[i];
    e = a.values<int64_t>(0)[i + 1];
  } else {
    b = a.values<int32_t>(0)[i];
    e = a.values<int32_t>(0)[i + 1];
  }
  return {reinterpret_cast<const char*>(data + b), static_cast<size_t>(e - b)};
}

float half_value(uint16_t bits) { return half_to_float(bits); }

/// Floats: NaN has no place in the order (left out, as Parquet statistics do).
bool is_nan(const ArrayData& a, int64_t i) {
  switch (a.type->id) {
    case TypeId::float16:
      return std::isnan(half_value(load<uint16_t>(a, i)));
    case TypeId::float32:
      return std::isnan(load<float>(a, i));
    case TypeId::float64:
      return std::isnan(load<double>(a, i));
    default:
      return false;
  }
}

uint64_t buffer_bytes(const ArrayData& a) {
  uint64_t n = a.validity ? a.validity->size() : 0;
  for (const auto& b : a.buffers)
    if (b) n += b->size();
  return n;
}

/// The index of the least (`sign` -1) or greatest (+1) valid, non-NaN value of `a`, or -1.
int64_t extreme(const ArrayData& a, int sign) {
  int64_t best = -1;
  for (int64_t i = 0; i < a.length; ++i) {
    if (!a.is_valid(i) || is_nan(a, i)) continue;
    if (best < 0 || compare_values(a, i, a, best) * sign > 0) best = i;
  }
  return best;
}

void keep_extreme(ArrayPtr& kept, const ArrayPtr& array, int sign) {
  const int64_t i = extreme(*array, sign);
  if (i < 0) return;
  if (kept && compare_values(*array, i, *kept, 0) * sign <= 0) return;
  kept = slice_array(array, i, 1);
  // a one-value array comes back as itself: copy it (its buffers are shared, so they outlive the batch)
  if (kept.get() == array.get()) kept = std::make_shared<ArrayData>(*array);
}

}  // namespace

bool is_orderable(const DataType& t) {
  switch (t.id) {
    case TypeId::null:
    case TypeId::decimal256:
    case TypeId::list:
    case TypeId::large_list:
    case TypeId::fixed_size_list:
    case TypeId::struct_:
    case TypeId::map:
    case TypeId::dictionary:
      return false;
    default:
      return true;
  }
}

int compare_values(const ArrayData& a, int64_t i, const ArrayData& b, int64_t j) {
  switch (a.type->id) {
    case TypeId::boolean:
      return three_way(get_bit(a.buffers[0]->data(), static_cast<uint64_t>(i)),
                       get_bit(b.buffers[0]->data(), static_cast<uint64_t>(j)));
    case TypeId::int8:
      return three_way(load<int8_t>(a, i), load<int8_t>(b, j));
    case TypeId::int16:
      return three_way(load<int16_t>(a, i), load<int16_t>(b, j));
    case TypeId::int32:
    case TypeId::date32:
    case TypeId::time32:
      return three_way(load<int32_t>(a, i), load<int32_t>(b, j));
    case TypeId::int64:
    case TypeId::date64:
    case TypeId::time64:
    case TypeId::timestamp:
    case TypeId::duration:
      return three_way(load<int64_t>(a, i), load<int64_t>(b, j));
    case TypeId::uint8:
      return three_way(load<uint8_t>(a, i), load<uint8_t>(b, j));
    case TypeId::uint16:
      return three_way(load<uint16_t>(a, i), load<uint16_t>(b, j));
    case TypeId::uint32:
      return three_way(load<uint32_t>(a, i), load<uint32_t>(b, j));
    case TypeId::uint64:
      return three_way(load<uint64_t>(a, i), load<uint64_t>(b, j));
    case TypeId::float16:
      return three_way(half_value(load<uint16_t>(a, i)), half_value(load<uint16_t>(b, j)));
    case TypeId::float32:
      return three_way(load<float>(a, i), load<float>(b, j));
    case TypeId::float64:
      return three_way(load<double>(a, i), load<double>(b, j));
    case TypeId::utf8:
    case TypeId::large_utf8:
    case TypeId::binary:
    case TypeId::large_binary:
      return bytes_at(a, i).compare(bytes_at(b, j));
    case TypeId::fixed_size_binary: {
      const auto w = static_cast<size_t>(a.type->byte_width);
      return std::memcmp(a.buffers[0]->data() + static_cast<size_t>(i) * w,
                         b.buffers[0]->data() + static_cast<size_t>(j) * w, w);
    }
    case TypeId::decimal128: {
      // little-endian two's complement: the high word decides, then the low word unsigned
      const auto* x = a.buffers[0]->data() + static_cast<size_t>(i) * 16;
      const auto* y = b.buffers[0]->data() + static_cast<size_t>(j) * 16;
      int64_t xh, yh;
      uint64_t xl, yl;
      std::memcpy(&xl, x, 8);
      std::memcpy(&xh, x + 8, 8);
      std::memcpy(&yl, y, 8);
      std::memcpy(&yh, y + 8, 8);
      return xh != yh ? three_way(xh, yh) : three_way(xl, yl);
    }
    default:
      throw_internal("compare_values: type {} has no order", a.type->to_string());
  }
}

std::string ValueStats::key(int32_t field_id, const std::string& path) {
  return field_id >= 0 ? "#" + std::to_string(field_id) : path;
}

const NodeStats* ValueStats::find(const std::string& key) const {
  auto it = nodes_.find(key);
  return it == nodes_.end() ? nullptr : &it->second;
}

void ValueStats::add(const RecordBatch& batch) {
  for (size_t c = 0; c < batch.columns.size() && c < batch.fields.size(); ++c)
    add_node(*batch.fields[c], *batch.columns[c], batch.fields[c]->name, "");
}

void ValueStats::add_node(const Field& field, const ArrayData& array, const std::string& path,
                          const std::string& parent) {
  const std::string k = key(field.id, path);
  NodeStats& s = nodes_[k];
  if (s.path.empty()) {
    s.path = path;
    s.field_id = field.id;
    s.parent = parent;
  }
  s.values += static_cast<uint64_t>(array.length);
  s.nulls += static_cast<uint64_t>(array.null_count);
  s.own_bytes += buffer_bytes(array);
  if (is_orderable(*array.type) && array.length > array.null_count) {
    // slice_array needs a shared pointer: wrap without owning (the copy it makes owns)
    const ArrayPtr view(std::shared_ptr<const ArrayData>(), &array);
    keep_extreme(s.min, view, -1);
    keep_extreme(s.max, view, +1);
  }
  for (size_t c = 0; c < array.children.size() && c < array.type->children.size(); ++c) {
    const Field& child = *array.type->children[c];
    add_node(child, *array.children[c], path + "." + child.name, k);
  }
}

}  // namespace lance::inspect
