// Table row numbers (visible rows, fragments in manifest order: what take and scan count)
// and Lance row addresses (fragment id << 32 | physical offset: what indices store and
// LanceDB's `_rowid` shows, for datasets without stable row ids) of one dataset version.
//
// Usage:
//   RowAddresses map(dataset);
//   uint64_t a = map.address(17);                  // row 17's address
//   std::optional<uint64_t> r = map.row(a);        // 17; nothing for a deleted row
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "dataset/dataset.h"
#include "dataset/deletion.h"

namespace lance::index {

/// Thread-safe.
class RowAddresses {
 public:
  /// Reads no file until a fragment with deletions is asked about (its deletion file, once).
  explicit RowAddresses(const dataset::Dataset& ds);

  /// The address of visible row `row`; throws Error(usage) when row >= the visible rows.
  uint64_t address(uint64_t row) const;
  /// The row number of `address`: nothing when its fragment is not in this version, its
  /// offset is past the fragment's rows, or the row is deleted.
  std::optional<uint64_t> row(uint64_t address) const;

  /// The index of fragment id `id` in the manifest, if present.
  std::optional<size_t> fragment_index(uint32_t id) const;
  /// The first row number of fragment `index` (manifest order).
  uint64_t first_row(size_t index) const { return starts_.at(index); }

 private:
  const dataset::DeletionVector& deletions(size_t index) const;

  const dataset::Dataset& ds_;
  std::vector<uint64_t> starts_;  ///< first row number of each fragment, then the total
  std::map<uint64_t, size_t> by_id_;
  mutable std::mutex mutex_;  ///< guards deletions_ (row() and address() may run on several threads)
  mutable std::map<size_t, dataset::DeletionVector> deletions_;
};

}  // namespace lance::index
