#include "array/types.h"

#include <fmt/format.h>

namespace lance {

int DataType::bit_width() const {
  switch (id) {
    case TypeId::boolean:
      return 1;
    case TypeId::int8:
    case TypeId::uint8:
      return 8;
    case TypeId::int16:
    case TypeId::uint16:
    case TypeId::float16:
      return 16;
    case TypeId::int32:
    case TypeId::uint32:
    case TypeId::float32:
    case TypeId::date32:
    case TypeId::time32:
      return 32;
    case TypeId::int64:
    case TypeId::uint64:
    case TypeId::float64:
    case TypeId::date64:
    case TypeId::time64:
    case TypeId::timestamp:
    case TypeId::duration:
      return 64;
    case TypeId::decimal128:
      return 128;
    case TypeId::decimal256:
      return 256;
    case TypeId::fixed_size_binary:
      return byte_width * 8;
    default:
      return 0;
  }
}

bool DataType::is_integer() const {
  switch (id) {
    case TypeId::int8:
    case TypeId::int16:
    case TypeId::int32:
    case TypeId::int64:
    case TypeId::uint8:
    case TypeId::uint16:
    case TypeId::uint32:
    case TypeId::uint64:
      return true;
    default:
      return false;
  }
}
bool DataType::is_signed_integer() const {
  return id == TypeId::int8 || id == TypeId::int16 || id == TypeId::int32 || id == TypeId::int64;
}
bool DataType::is_floating() const { return id == TypeId::float16 || id == TypeId::float32 || id == TypeId::float64; }
bool DataType::is_binary_like() const {
  return id == TypeId::utf8 || id == TypeId::large_utf8 || id == TypeId::binary || id == TypeId::large_binary;
}
bool DataType::is_large_offsets() const {
  return id == TypeId::large_utf8 || id == TypeId::large_binary || id == TypeId::large_list;
}
bool DataType::is_nested() const {
  return id == TypeId::list || id == TypeId::large_list || id == TypeId::fixed_size_list || id == TypeId::struct_ ||
         id == TypeId::map;
}

const char* time_unit_suffix(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::second:
      return "s";
    case TimeUnit::milli:
      return "ms";
    case TimeUnit::micro:
      return "us";
    case TimeUnit::nano:
      return "ns";
  }
  return "?";
}

std::string DataType::to_string() const {
  auto child = [&](size_t i) {
    const auto& f = children.at(i);
    return fmt::format("{}: {}", f->name, f->type->to_string());
  };
  switch (id) {
    case TypeId::null:
      return "null";
    case TypeId::boolean:
      return "bool";
    case TypeId::int8:
      return "int8";
    case TypeId::int16:
      return "int16";
    case TypeId::int32:
      return "int32";
    case TypeId::int64:
      return "int64";
    case TypeId::uint8:
      return "uint8";
    case TypeId::uint16:
      return "uint16";
    case TypeId::uint32:
      return "uint32";
    case TypeId::uint64:
      return "uint64";
    case TypeId::float16:
      return "halffloat";
    case TypeId::float32:
      return "float";
    case TypeId::float64:
      return "double";
    case TypeId::utf8:
      return "string";
    case TypeId::large_utf8:
      return "large_string";
    case TypeId::binary:
      return "binary";
    case TypeId::large_binary:
      return "large_binary";
    case TypeId::fixed_size_binary:
      return fmt::format("fixed_size_binary[{}]", byte_width);
    case TypeId::date32:
      return "date32[day]";
    case TypeId::date64:
      return "date64[ms]";
    case TypeId::time32:
      return fmt::format("time32[{}]", time_unit_suffix(unit));
    case TypeId::time64:
      return fmt::format("time64[{}]", time_unit_suffix(unit));
    case TypeId::timestamp:
      return timezone.empty() ? fmt::format("timestamp[{}]", time_unit_suffix(unit))
                              : fmt::format("timestamp[{}, tz={}]", time_unit_suffix(unit), timezone);
    case TypeId::duration:
      return fmt::format("duration[{}]", time_unit_suffix(unit));
    case TypeId::decimal128:
      return fmt::format("decimal128({}, {})", precision, scale);
    case TypeId::decimal256:
      return fmt::format("decimal256({}, {})", precision, scale);
    case TypeId::list:
      return fmt::format("list<{}>", child(0));
    case TypeId::large_list:
      return fmt::format("large_list<{}>", child(0));
    case TypeId::fixed_size_list:
      return fmt::format("fixed_size_list<{}>[{}]", child(0), list_size);
    case TypeId::struct_: {
      std::string s = "struct<";
      for (size_t i = 0; i < children.size(); ++i) s += (i ? ", " : "") + child(i);
      return s + ">";
    }
    case TypeId::map: {
      const auto& entries = children.at(0)->type;
      return fmt::format("map<{}, {}>", entries->children.at(0)->type->to_string(),
                         entries->children.at(1)->type->to_string());
    }
    case TypeId::dictionary:
      return fmt::format("dictionary<values={}, indices={}>", value_type->to_string(), index_type->to_string());
  }
  return "?";
}

TypePtr make_type(TypeId id) {
  auto t = std::make_shared<DataType>();
  t->id = id;
  return t;
}
TypePtr make_fixed_size_binary(int32_t width) {
  auto t = std::make_shared<DataType>();
  t->id = TypeId::fixed_size_binary;
  t->byte_width = width;
  return t;
}
TypePtr make_temporal(TypeId id, TimeUnit unit, std::string timezone) {
  auto t = std::make_shared<DataType>();
  t->id = id;
  t->unit = unit;
  t->timezone = std::move(timezone);
  return t;
}
TypePtr make_decimal(TypeId id, int32_t precision, int32_t scale) {
  auto t = std::make_shared<DataType>();
  t->id = id;
  t->precision = precision;
  t->scale = scale;
  return t;
}
TypePtr make_list(TypeId id, FieldPtr item) {
  auto t = std::make_shared<DataType>();
  t->id = id;
  t->children = {std::move(item)};
  return t;
}
TypePtr make_fixed_size_list(FieldPtr item, int32_t size) {
  auto t = std::make_shared<DataType>();
  t->id = TypeId::fixed_size_list;
  t->list_size = size;
  t->children = {std::move(item)};
  return t;
}
TypePtr make_struct(std::vector<FieldPtr> children) {
  auto t = std::make_shared<DataType>();
  t->id = TypeId::struct_;
  t->children = std::move(children);
  return t;
}
TypePtr make_map(FieldPtr entries) {
  auto t = std::make_shared<DataType>();
  t->id = TypeId::map;
  t->children = {std::move(entries)};
  return t;
}
TypePtr make_dictionary(TypePtr index_type, TypePtr value_type) {
  auto t = std::make_shared<DataType>();
  t->id = TypeId::dictionary;
  t->index_type = std::move(index_type);
  t->value_type = std::move(value_type);
  return t;
}

}  // namespace lance
