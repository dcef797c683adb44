// Structure assembly: leaf columns' decoded levels and values → Arrow arrays of a
// (possibly nested) field: list/large_list/map offsets, struct and item validity,
// fixed-size lists from flattened values.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "array/array.h"
#include "format/schema.h"
#include "structural/leaf_data.h"

namespace lance::structural {

/// The Arrow type lance-cli outputs for a stored type: dictionary columns are decoded
/// to their value type, at any depth. Everything else is unchanged.
TypePtr output_type(const TypePtr& stored);
FieldPtr output_field(const FieldPtr& stored);

struct LevelPlan;

/// The level plans (repdef.h) of a field's leaf columns, kept by the reader of the field
/// across its batches so that each is built once per column rather than once per batch. A
/// leaf whose layers change (pages of one column may differ, leaf_data.h) gets a new plan.
/// Thread-safe: batches of one field may assemble at the same time.
class LevelPlans {
 public:
  /// The plan of leaf `leaf` for `layers` (innermost first).
  std::shared_ptr<const LevelPlan> get(size_t leaf, const std::vector<RepDefLayer>& layers);

 private:
  std::mutex mutex_;
  std::vector<std::shared_ptr<const LevelPlan>> plans_;  // per leaf; null until first needed
};

/// Builds the array of `field` from its leaf columns' data for the same rows (one
/// LeafData per leaf of `structural_leaves(field)`, in that order). All leaves must cover
/// `num_rows` rows. Throws Error(corrupt) when levels and values disagree with the type.
/// `plans` (optional) keeps the leaves' level plans from one call to the next.
ArrayPtr assemble_field(const format::LanceField& field, std::vector<LeafData>& leaves, uint64_t num_rows,
                        LevelPlans* plans = nullptr);

/// Arrow array of `type` (a leaf type: primitive, binary-like, fixed_size_binary, or a
/// fixed_size_list of those, or a packed struct: see packed_struct.h) from decoded values and a
/// per-value validity (empty = all valid).
ArrayPtr values_to_array(const TypePtr& type, encoding::DataBlock&& values, const std::vector<uint8_t>& valid);

}  // namespace lance::structural
