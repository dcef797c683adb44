// Deleted rows of a fragment: the deletion vector and the two file kinds that store it
// (docs/format.md §8.4): `.arrow` (an Arrow IPC file with one UInt32 column `row_id`, written
// for few deletions) and `.bin` (a roaring bitmap in the portable serialization, written
// above 5000 deletions). Values are physical row offsets within the fragment.
//
// Usage:
//   DeletionVector dv = read_deletion_file(dataset_dir, fragment);   // empty when none
//   uint64_t live = fragment.physical_rows - dv.num_deleted();
//   uint64_t p = dv.physical_row(10);             // the 11th surviving row's physical offset
//   for (auto [b, e] : dv.live_runs(p, p + 100))  // surviving runs among physical rows
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/bytes.h"
#include "dataset/manifest.h"
#include "io/object_store.h"

namespace lance::dataset {

/// The set of deleted physical rows of one fragment, kept as sorted offsets.
class DeletionVector {
 public:
  DeletionVector() = default;
  /// From deleted offsets in any order (duplicates are merged). Throws Error(corrupt)
  /// when an offset is not below `physical_rows`.
  static DeletionVector from_offsets(std::vector<uint64_t> offsets, uint64_t physical_rows);

  bool empty() const { return deleted_.empty(); }
  uint64_t num_deleted() const { return deleted_.size(); }
  bool is_deleted(uint64_t row) const;
  const std::vector<uint32_t>& deleted() const { return deleted_; }

  /// The physical offset of the surviving row number `live` (0-based, counted in
  /// physical order). The caller guarantees live < physical_rows - num_deleted().
  uint64_t physical_row(uint64_t live) const;

  /// The surviving rows among physical rows [begin, end), as maximal runs [first, last).
  std::vector<std::pair<uint64_t, uint64_t>> live_runs(uint64_t begin, uint64_t end) const;

 private:
  std::vector<uint32_t> deleted_;  // sorted, unique
};

/// Decodes a `.bin` deletion file (roaring bitmap, portable serialization).
DeletionVector parse_deletion_bitmap(ByteView bytes, uint64_t physical_rows);
/// Decodes a `.arrow` deletion file (Arrow IPC file, UInt32 column `row_id`).
DeletionVector parse_deletion_arrow(ByteView bytes, uint64_t physical_rows);

/// Reads the deletion file of `fragment` from `dataset_dir/_deletions/` (an empty vector
/// when the fragment has none) and checks its count against the manifest's. One whole-file
/// read through `store` (required: the store of `dataset_dir`).
DeletionVector read_deletion_file(const std::string& dataset_dir, const Fragment& fragment,
                                  const io::ObjectStore& store);

}  // namespace lance::dataset
