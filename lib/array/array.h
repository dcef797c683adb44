// In-memory columns in the Arrow layout, and record batches.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "array/types.h"
#include "common/bytes.h"

namespace lance {

struct ArrayData;
using ArrayPtr = std::shared_ptr<const ArrayData>;

/// One column of `length` values laid out as Arrow specifies (offset always 0).
///
/// Buffers by type (`buffers`, after the validity bitmap):
/// - fixed-width primitives, decimals, temporal, fixed_size_binary: [values]
/// - boolean: [LSB-first value bitmap]
/// - utf8/binary: [int32 offsets (length+1)], [data]; large_*: int64 offsets
/// - list: [int32 offsets], large_list: [int64 offsets], map: [int32 offsets]; one child
/// - fixed_size_list: no buffers; one child of length × list_size
/// - struct: no buffers; one child per field, each of `length`
/// - dictionary: [indices of index_type]; `dictionary` holds the values
/// - null: no buffers
struct ArrayData {
  TypePtr type;
  int64_t length = 0;
  int64_t null_count = 0;
  BytesPtr validity;  ///< LSB-first, 1 = valid; null when no value is null
  std::vector<BytesPtr> buffers;
  std::vector<ArrayPtr> children;
  ArrayPtr dictionary;

  bool is_valid(int64_t i) const { return !validity || get_bit(validity->data(), static_cast<uint64_t>(i)); }

  /// Typed pointer to buffer `i`'s values.
  template <typename T>
  const T* values(size_t i = 0) const {
    return reinterpret_cast<const T*>(buffers.at(i)->data());
  }
};

/// A set of equal-length columns.
struct RecordBatch {
  std::vector<FieldPtr> fields;
  std::vector<ArrayPtr> columns;
  int64_t num_rows = 0;
};

/// Counts the zero bits among the first `length` bits of a validity bitmap.
int64_t count_nulls(const Bytes& validity, int64_t length);

/// Builds a validity bitmap from one flag per value; returns null when all are valid.
BytesPtr make_validity(const std::vector<uint8_t>& valid_flags, int64_t* null_count);

/// An array of `length` nulls of `type` (buffers zero-filled as Arrow requires).
ArrayPtr make_null_array(const TypePtr& type, int64_t length);

/// Rows [begin, begin + count) of `array` as a new array (copies buffers).
ArrayPtr slice_array(const ArrayPtr& array, int64_t begin, int64_t count);

/// Row `i`'s index into dictionary array `a`'s dictionary, read at its index type's width and
/// sign (a negative index stays negative). No bounds are checked.
int64_t dictionary_index(const ArrayData& a, int64_t i);

/// Concatenates arrays of the same type. A part may also be a dictionary array of `type`'s
/// values (read::ReaderOptions::keep_dictionaries): such parts are decoded to `type` first.
ArrayPtr concat_arrays(const TypePtr& type, const std::vector<ArrayPtr>& parts);

}  // namespace lance
