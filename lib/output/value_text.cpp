#include "output/value_text.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "common/error.h"
#include "output/number_text.h"
#include "output/temporal_text.h"

namespace lance::output {

namespace {

/// Reads value `i` of a fixed-width buffer without assuming alignment.
template <typename T>
T load(const ArrayData& a, int64_t i, size_t buffer = 0) {
  T v;
  std::memcpy(&v, a.buffers[buffer]->data() + static_cast<size_t>(i) * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
void append_integer(std::string& out, T value) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, r.ptr);
}

/// Start and end (exclusive) of entry `i` of an offsets buffer (int32, or int64 for large types).
struct Range {
  int64_t begin;
  int64_t end;
};
Range offsets_range(const ArrayData& a, int64_t i) {
  if (a.type->is_large_offsets()) return {load<int64_t>(a, i), load<int64_t>(a, i + 1)};
  return {load<int32_t>(a, i), load<int32_t>(a, i + 1)};
}

/// The bytes of value `i` of a utf8/binary array (offsets are buffer 0, data buffer 1).
std::string_view binary_value(const ArrayData& a, int64_t i) {
  const Range r = offsets_range(a, i);
  return {reinterpret_cast<const char*>(a.buffers[1]->data()) + r.begin, static_cast<size_t>(r.end - r.begin)};
}

/// Index `i` of a dictionary array, checked against the dictionary's length.
int64_t checked_dictionary_index(const ArrayData& a, int64_t i) {
  if (!a.type->index_type->is_integer()) throw_unsupported("dictionary index type {}", a.type->index_type->to_string());
  int64_t index = dictionary_index(a, i);
  if (a.type->index_type->id == TypeId::uint64 && index < 0) index = -1;  // above INT64_MAX
  check_corrupt(a.dictionary && index >= 0 && index < a.dictionary->length,
                "dictionary index {} outside a dictionary of {} values", index,
                a.dictionary ? a.dictionary->length : 0);
  return index;
}

/// Whether value `i` of a float array is NaN or infinite (then a JSON string).
bool is_non_finite(const ArrayData& a, int64_t i) {
  switch (a.type->id) {
    case TypeId::float16:
      return (load<uint16_t>(a, i) & 0x7c00u) == 0x7c00u;
    case TypeId::float32:
      return !std::isfinite(load<float>(a, i));
    case TypeId::float64:
      return !std::isfinite(load<double>(a, i));
    default:
      return false;
  }
}

/// Text of a non-null value of a type that is neither nested nor a dictionary.
void append_scalar_text(std::string& out, const ArrayData& a, int64_t i) {
  const DataType& t = *a.type;
  switch (t.id) {
    case TypeId::null:
      out += "null";
      return;
    case TypeId::boolean:
      out += get_bit(a.buffers[0]->data(), static_cast<uint64_t>(i)) ? "true" : "false";
      return;
    case TypeId::int8:
      append_integer(out, load<int8_t>(a, i));
      return;
    case TypeId::int16:
      append_integer(out, load<int16_t>(a, i));
      return;
    case TypeId::int32:
      append_integer(out, load<int32_t>(a, i));
      return;
    case TypeId::int64:
      append_integer(out, load<int64_t>(a, i));
      return;
    case TypeId::uint8:
      append_integer(out, load<uint8_t>(a, i));
      return;
    case TypeId::uint16:
      append_integer(out, load<uint16_t>(a, i));
      return;
    case TypeId::uint32:
      append_integer(out, load<uint32_t>(a, i));
      return;
    case TypeId::uint64:
      append_integer(out, load<uint64_t>(a, i));
      return;
    case TypeId::float16:
      append_float16_text(out, load<uint16_t>(a, i));
      return;
    case TypeId::float32:
      append_float32_text(out, load<float>(a, i));
      return;
    case TypeId::float64:
      append_float64_text(out, load<double>(a, i));
      return;
    case TypeId::utf8:
    case TypeId::large_utf8:
      out += binary_value(a, i);
      return;
    case TypeId::binary:
    case TypeId::large_binary:
      append_base64(out, binary_value(a, i));
      return;
    case TypeId::fixed_size_binary: {
      const auto width = static_cast<size_t>(t.byte_width);
      append_base64(out, {reinterpret_cast<const char*>(a.buffers[0]->data()) + static_cast<size_t>(i) * width, width});
      return;
    }
    case TypeId::date32:
      append_date_text(out, load<int32_t>(a, i));
      return;
    case TypeId::date64:
      append_date64_text(out, load<int64_t>(a, i));
      return;
    case TypeId::time32:
      append_time_text(out, load<int32_t>(a, i), t.unit);
      return;
    case TypeId::time64:
      append_time_text(out, load<int64_t>(a, i), t.unit);
      return;
    case TypeId::timestamp:
      append_timestamp_text(out, load<int64_t>(a, i), t.unit, !t.timezone.empty());
      return;
    case TypeId::duration:
      append_integer(out, load<int64_t>(a, i));
      return;
    case TypeId::decimal128:
      append_decimal_text(out, a.buffers[0]->data() + static_cast<size_t>(i) * 16, 2, t.scale);
      return;
    case TypeId::decimal256:
      append_decimal_text(out, a.buffers[0]->data() + static_cast<size_t>(i) * 32, 4, t.scale);
      return;
    default:
      throw_unsupported("text output of {} values", t.to_string());
  }
}

void append_json_items(std::string& out, const ArrayData& items, int64_t begin, int64_t end) {
  out += '[';
  for (int64_t j = begin; j < end; ++j) {
    if (j != begin) out += ',';
    append_json_value(out, items, j);
  }
  out += ']';
}

void append_json_map(std::string& out, const ArrayData& a, int64_t i) {
  const Range r = offsets_range(a, i);
  const ArrayData& entries = *a.children[0];
  const ArrayData& keys = *entries.children[0];
  const ArrayData& values = *entries.children[1];
  out += '[';
  for (int64_t j = r.begin; j < r.end; ++j) {
    if (j != r.begin) out += ',';
    out += "{\"key\":";
    append_json_value(out, keys, j);
    out += ",\"value\":";
    append_json_value(out, values, j);
    out += '}';
  }
  out += ']';
}

void append_json_struct(std::string& out, const ArrayData& a, int64_t i) {
  const auto& fields = a.type->children;
  out += '{';
  for (size_t k = 0; k < fields.size(); ++k) {
    if (k) out += ',';
    append_json_string(out, fields[k]->name);
    out += ':';
    append_json_value(out, *a.children[k], i);
  }
  out += '}';
}

constexpr char kBase64Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

bool is_null_value(const ArrayData& a, int64_t i) {
  if (a.type->id == TypeId::null || !a.is_valid(i)) return true;
  if (a.type->id == TypeId::dictionary) return is_null_value(*a.dictionary, checked_dictionary_index(a, i));
  return false;
}

void append_json_value(std::string& out, const ArrayData& a, int64_t i) {
  if (a.type->id == TypeId::null || !a.is_valid(i)) {
    out += "null";
    return;
  }
  const DataType& t = *a.type;
  switch (t.id) {
    case TypeId::dictionary:
      append_json_value(out, *a.dictionary, checked_dictionary_index(a, i));
      return;
    case TypeId::list:
    case TypeId::large_list: {
      const Range r = offsets_range(a, i);
      append_json_items(out, *a.children[0], r.begin, r.end);
      return;
    }
    case TypeId::fixed_size_list:
      append_json_items(out, *a.children[0], i * t.list_size, (i + 1) * t.list_size);
      return;
    case TypeId::map:
      append_json_map(out, a, i);
      return;
    case TypeId::struct_:
      append_json_struct(out, a, i);
      return;
    case TypeId::utf8:
    case TypeId::large_utf8:
      append_json_string(out, binary_value(a, i));
      return;
    case TypeId::float16:
    case TypeId::float32:
    case TypeId::float64:
      if (is_non_finite(a, i)) {
        out += '"';
        append_scalar_text(out, a, i);
        out += '"';
      } else {
        append_scalar_text(out, a, i);
      }
      return;
    case TypeId::boolean:
    case TypeId::duration:
    case TypeId::int8:
    case TypeId::int16:
    case TypeId::int32:
    case TypeId::int64:
    case TypeId::uint8:
    case TypeId::uint16:
    case TypeId::uint32:
    case TypeId::uint64:
      append_scalar_text(out, a, i);
      return;
    default:
      // Binary (base64), temporal and decimal text never needs JSON escapes.
      out += '"';
      append_scalar_text(out, a, i);
      out += '"';
      return;
  }
}

void append_cell_text(std::string& out, const ArrayData& a, int64_t i) {
  const DataType& t = *a.type;
  if (t.id == TypeId::dictionary) {
    append_cell_text(out, *a.dictionary, checked_dictionary_index(a, i));
  } else if (t.is_nested()) {
    append_json_value(out, a, i);
  } else {
    append_scalar_text(out, a, i);
  }
}

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t run_start = 0;
  for (size_t k = 0; k < text.size(); ++k) {
    const auto c = static_cast<unsigned char>(text[k]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(text.data() + run_start, k - run_start);
    run_start = k + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        const char escape[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xf]};
        out.append(escape, sizeof escape);
        break;
      }
    }
  }
  out.append(text.data() + run_start, text.size() - run_start);
  out += '"';
}

void append_base64(std::string& out, std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  size_t k = 0;
  for (; k + 3 <= n; k += 3) {
    const uint32_t v = (uint32_t{p[k]} << 16) | (uint32_t{p[k + 1]} << 8) | p[k + 2];
    const char quad[] = {kBase64Alphabet[v >> 18], kBase64Alphabet[(v >> 12) & 63], kBase64Alphabet[(v >> 6) & 63],
                         kBase64Alphabet[v & 63]};
    out.append(quad, 4);
  }
  if (n - k == 1) {
    const uint32_t v = uint32_t{p[k]} << 16;
    const char quad[] = {kBase64Alphabet[v >> 18], kBase64Alphabet[(v >> 12) & 63], '=', '='};
    out.append(quad, 4);
  } else if (n - k == 2) {
    const uint32_t v = (uint32_t{p[k]} << 16) | (uint32_t{p[k + 1]} << 8);
    const char quad[] = {kBase64Alphabet[v >> 18], kBase64Alphabet[(v >> 12) & 63], kBase64Alphabet[(v >> 6) & 63],
                         '='};
    out.append(quad, 4);
  }
}

}  // namespace lance::output
