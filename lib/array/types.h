// Arrow logical types and fields, as the reader produces them (Arrow's type system).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace lance {

enum class TypeId {
  null,
  boolean,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float16,
  float32,
  float64,
  utf8,
  large_utf8,
  binary,
  large_binary,
  fixed_size_binary,
  date32,
  date64,
  time32,
  time64,
  timestamp,
  duration,
  decimal128,
  decimal256,
  list,
  large_list,
  fixed_size_list,
  struct_,
  map,
  dictionary,
};

enum class TimeUnit { second, milli, micro, nano };

struct Field;
struct DataType;
using TypePtr = std::shared_ptr<const DataType>;
using FieldPtr = std::shared_ptr<const Field>;

/// An Arrow data type. Only the members relevant to `id` are meaningful.
struct DataType {
  TypeId id = TypeId::null;
  int32_t byte_width = 0;            ///< fixed_size_binary: bytes per value
  TimeUnit unit = TimeUnit::second;  ///< time32/time64/timestamp/duration
  std::string timezone;              ///< timestamp: empty = no zone
  int32_t precision = 0;             ///< decimal
  int32_t scale = 0;                 ///< decimal
  int32_t list_size = 0;             ///< fixed_size_list: items per value
  std::vector<FieldPtr> children;    ///< list/large_list/fixed_size_list: 1 item; struct: fields; map: 1 entries struct
  TypePtr index_type;                ///< dictionary: integer index type
  TypePtr value_type;                ///< dictionary: value type

  /// Bits per value of a fixed-width primitive (bool = 1), 0 for other types.
  int bit_width() const;
  bool is_integer() const;
  bool is_signed_integer() const;
  bool is_floating() const;
  bool is_binary_like() const;    ///< utf8/large_utf8/binary/large_binary
  bool is_large_offsets() const;  ///< large_utf8/large_binary/large_list
  bool is_nested() const;         ///< list/large_list/fixed_size_list/struct/map
  /// Arrow's textual name, e.g. "int32", "timestamp[us, tz=UTC]", "list<item: int32>".
  std::string to_string() const;
};

/// A named, typed column or child, with Lance field id and metadata.
struct Field {
  std::string name;
  TypePtr type;
  bool nullable = true;
  int32_t id = -1;  ///< Lance field id (-1 when synthetic, e.g. a fixed_size_list item)
  std::map<std::string, std::string> metadata;
};

TypePtr make_type(TypeId id);
TypePtr make_fixed_size_binary(int32_t width);
TypePtr make_temporal(TypeId id, TimeUnit unit, std::string timezone = {});
TypePtr make_decimal(TypeId id, int32_t precision, int32_t scale);
TypePtr make_list(TypeId id, FieldPtr item);
TypePtr make_fixed_size_list(FieldPtr item, int32_t size);
TypePtr make_struct(std::vector<FieldPtr> children);
TypePtr make_map(FieldPtr entries);
TypePtr make_dictionary(TypePtr index_type, TypePtr value_type);

const char* time_unit_suffix(TimeUnit unit);  ///< "s", "ms", "us", "ns"

}  // namespace lance
