// What the decoded values of each field hold, over a stream of record batches: values, nulls,
// the bytes of their Arrow buffers, and min and max of orderable leaf types. The numbers
// behind `inspect columns --decode` (inspect/columns_report.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "array/array.h"

namespace lance::inspect {

/// One node of the batches' field tree.
struct NodeStats {
  std::string path;  ///< field names from the top joined by '.', e.g. "s.a", "l.item"
  int32_t field_id = -1;
  std::string parent;   ///< key() of the parent node, "" for a top-level field
  uint64_t values = 0;  ///< array lengths summed (list items: every item)
  uint64_t nulls = 0;
  uint64_t own_bytes = 0;  ///< validity, offsets and data buffers of this node only
  ArrayPtr min, max;       ///< one-value arrays; null when the type has no order or no value was valid
};

/// Accumulates NodeStats over batches of the same fields. Orderable types: integers,
/// floats (NaN left out), booleans, strings and binaries (bytewise), fixed-size binaries,
/// dates, times, timestamps, durations and decimal128.
class ValueStats {
 public:
  void add(const RecordBatch& batch);

  /// The key of a node: "#ID" for a Lance field id ≥ 0, else its path.
  static std::string key(int32_t field_id, const std::string& path);
  /// The node with this key, or null.
  const NodeStats* find(const std::string& key) const;
  const std::map<std::string, NodeStats>& nodes() const { return nodes_; }

 private:
  void add_node(const Field& field, const ArrayData& array, const std::string& path, const std::string& parent);
  std::map<std::string, NodeStats> nodes_;
};

/// Compares value `i` of `a` with value `j` of `b` (same type, both valid, an orderable type
/// as ValueStats lists): negative, 0 or positive.
int compare_values(const ArrayData& a, int64_t i, const ArrayData& b, int64_t j);

/// True for the types compare_values orders.
bool is_orderable(const DataType& type);

}  // namespace lance::inspect
